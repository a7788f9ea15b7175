/**
 * The settings the user chose, as a JSON file in the app's data directory. One schema checks both the file and
 * a `settings.update` request. Writes are atomic (temp file, fsync, rename), so a crash leaves the old file or
 * the new one; a missing file means the defaults, and an unreadable one the defaults with a warning — never a
 * failure to start.
 */
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname, isAbsolute } from 'node:path'
import { z } from 'zod'
import type { DeskSettings, NetworkName, NodeSettings } from '../../api/contract'
import { decodeWire } from '../../api/wire'

export const DEFAULT_LOCAL_API_PORT = 3780

export const DEFAULT_SETTINGS: DeskSettings = {
  network: 'sandbox',
  node: {},
  autoLockMinutes: 5,
  localApi: { enabled: false, port: DEFAULT_LOCAL_API_PORT }
}

const FILE_VERSION = 1

export const networkSchema = z.enum(['sandbox', 'preview', 'preprod', 'mainnet'])

const httpUrl = z.url({ protocol: /^https?$/, error: 'not an http:// or https:// URL' }).max(2048)

export const nodeSchema = z.strictObject({
  ogmios: z
    .url({ protocol: /^wss?$/, error: 'not a ws:// or wss:// URL' })
    .max(2048)
    .exactOptional(),
  kupo: httpUrl.exactOptional(),
  blockfrost: z
    .strictObject({
      projectId: z.string().regex(/^[A-Za-z0-9]{1,64}$/, 'not a Blockfrost project id (letters and digits)'),
      url: httpUrl.exactOptional()
    })
    .exactOptional(),
  submitApi: httpUrl.exactOptional()
})

/** A problem with the node for `network`, as a sentence fragment, or undefined when it fits. */
export function nodeProblem(network: NetworkName, node: NodeSettings): string | undefined {
  const queries = (node.ogmios === undefined ? 0 : 1) + (node.blockfrost === undefined ? 0 : 1)
  if (network === 'sandbox') {
    return queries === 0 && node.submitApi === undefined && node.kupo === undefined
      ? undefined
      : 'the sandbox is embedded and takes no node'
  }
  if (node.kupo !== undefined && node.ogmios === undefined) return 'Kupo goes with Ogmios (its blocks are read there)'
  return queries === 1 ? undefined : `${network} needs exactly one of an Ogmios URL or a Blockfrost project id`
}

/** A network and its node, checked together. */
export const networkNodeSchema = z
  .strictObject({ network: networkSchema, node: nodeSchema })
  .superRefine((value, ctx) => {
    const problem = nodeProblem(value.network, value.node)
    if (problem !== undefined) ctx.addIssue({ code: 'custom', path: ['node'], message: problem })
  })

export const settingsSchema = z
  .strictObject({
    network: networkSchema,
    node: nodeSchema,
    autoLockMinutes: z.int().min(1, 'at least 1 minute').max(1440, 'at most 1440 minutes (a day)'),
    localApi: z.strictObject({
      enabled: z.boolean(),
      port: z.int().min(1024, 'a port from 1024 to 65535').max(65535, 'a port from 1024 to 65535')
    }),
    sandboxValidators: z
      .string()
      .max(4096)
      .refine((dir) => isAbsolute(dir), 'not an absolute path')
      .exactOptional()
  })
  .superRefine((value, ctx) => {
    const problem = nodeProblem(value.network, value.node)
    if (problem !== undefined) ctx.addIssue({ code: 'custom', path: ['node'], message: problem })
  })

export interface LoadedSettings {
  readonly settings: DeskSettings
  /** Why the defaults are in use although a file exists. */
  readonly warning?: string
}

export function loadSettings(path: string): LoadedSettings {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { settings: DEFAULT_SETTINGS }
    return {
      settings: DEFAULT_SETTINGS,
      warning: `The settings file ${path} cannot be read, so the defaults are in use.`
    }
  }
  const unusable = (why: string): LoadedSettings => ({
    settings: DEFAULT_SETTINGS,
    warning: `The settings file ${path} ${why}, so the defaults are in use; saving the settings replaces it.`
  })
  let json: unknown
  try {
    // The wire decoder: lossless JSON, with the small integers of the settings as plain numbers.
    json = decodeWire(text)
  } catch {
    return unusable('is not valid JSON')
  }
  const file = z.looseObject({ version: z.literal(FILE_VERSION) }).safeParse(json)
  if (!file.success) return unusable(`is not a version ${FILE_VERSION} settings file`)
  const rest: Record<string, unknown> = { ...file.data }
  delete rest['version']
  const parsed = settingsSchema.safeParse(rest)
  return parsed.success ? { settings: parsed.data } : unusable('holds settings this version does not accept')
}

/** Writes the settings atomically: a temp file beside it, flushed to disk, then renamed over the old one. */
export function saveSettings(path: string, settings: DeskSettings): void {
  const temp = `${path}.${process.pid}.tmp`
  const fd = openSync(temp, 'w', 0o600)
  try {
    // Every byte or an error: a lone writeSync may write part and report it as success.
    writeFileSync(fd, `${JSON.stringify({ version: FILE_VERSION, ...settings }, null, 2)}\n`)
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
  renameSync(temp, path)
  // The rename itself is durable only once the directory is flushed (not possible on every platform).
  try {
    const dir = openSync(dirname(path), 'r')
    try {
      fsyncSync(dir)
    } finally {
      closeSync(dir)
    }
  } catch {
    // Best effort: Windows cannot open a directory.
  }
}
