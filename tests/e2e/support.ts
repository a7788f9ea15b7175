/**
 * End-to-end support: Debian's Chromium driven by playwright-core, against the renderer that
 * `marlowe-desk serve --ui` serves on the sandbox, with a screenshot at each step of the story.
 */
import type { ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core'
import { afterAll, beforeAll } from 'vitest'
import type { OpenedChain } from '../../src/chain/open'
import type { HardwareDevices } from '../../src/engine/desk'
import { DeskHost } from '../../src/host/host'
import { createServer, listen } from '../../src/server/app'
import { UiSessions } from '../../src/server/ui-sessions'
import { version } from '../../package.json'
import { cliPath } from '../cli/run-cli'
import { exitOf, spawnServe } from '../cli/serve-process'

export const REPO = resolve(__dirname, '../..')
export const CHROMIUM = '/usr/bin/chromium'
export const RENDERER_DIR = join(REPO, 'out/renderer')
export const SCREENSHOT_DIR = join(REPO, 'out/e2e-screenshots')

/** Generous: two loaded cores build, evaluate and sign Plutus transactions while the browser renders. */
export const STEP_TIMEOUT_MS = 30_000

/** Why the end-to-end tests cannot run here (they then fail with it, never skip), or undefined. */
export function missingPrerequisite(): string | undefined {
  if (!existsSync(CHROMIUM)) {
    return (
      `The end-to-end tests need Debian's Chromium at ${CHROMIUM}, which is missing. ` +
      '.ci/run installs it (apt-get install chromium); install it the same way to run these tests here.'
    )
  }
  if (!existsSync(join(RENDERER_DIR, 'index.html'))) {
    return `The end-to-end tests need the built renderer in ${RENDERER_DIR}: run npm run build first.`
  }
  return undefined
}

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--headless',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update'
]

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS })
}

/**
 * Chromium whose camera is Chromium's fake capture device playing `video` (a Y4M file) in a loop, camera use
 * granted without asking.
 */
export function launchChromiumWithCamera(video: string): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      ...CHROMIUM_ARGS,
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      `--use-file-for-fake-video-capture=${video}`
    ]
  })
}

/** Chromium with a profile on disk (`profileDir/Default/History` among it), as a user's browser keeps one. */
/**
 * One Chromium for a test file, launched before its tests when the prerequisites are there and closed after;
 * the getter fails the test that needs it, saying what is missing.
 */
export function suiteChromium(): () => Browser {
  const missing = missingPrerequisite()
  let browser: Browser | undefined
  beforeAll(async () => {
    if (missing === undefined) browser = await launchChromium()
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
  }, 30_000)
  return () => {
    if (missing !== undefined) throw new Error(missing)
    if (browser === undefined) throw new Error('Chromium did not start')
    return browser
  }
}

export function launchChromiumWithProfile(profileDir: string): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 900 },
    locale: 'en-US',
    timezoneId: 'UTC'
  })
}

const PRINTED_LINK = /^Marlowe Desk in your browser: (http:\/\/127\.0\.0\.1:\d+\/ui\/#secret=\S+)$/gm

/** A server of the page: where it is, the links that open it, and how to stop it. */
export interface PageServer {
  /** The server's origin, `http://127.0.0.1:<port>`. */
  readonly origin: string
  /**
   * The next link `serve --ui` printed that no test opened yet, its one-time secret in the fragment (the first,
   * or the one printed after the previous link was used).
   */
  nextLink(): Promise<string>
  stop(): Promise<void>
}

export interface UiServer extends PageServer {
  readonly child: ChildProcess
}

/**
 * `marlowe-desk serve --ui` on a fresh sandbox, built from the current sources, once it has printed the link to
 * its page; a server that does not get there is stopped rather than left behind.
 */
export async function startUiServer(): Promise<UiServer> {
  const data = mkdtempSync(join(tmpdir(), 'marlowe-desk-e2e-'))
  const child = spawnServe(['--data', data, '--ui', '--ui-dir', RENDERER_DIR])
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
    await exitOf(child)
    rmSync(data, { recursive: true, force: true })
    removeBuiltCli()
  }
  let out = ''
  let err = ''
  child.stderr?.on('data', (b: Buffer) => (err += b.toString('utf8')))
  const printed = (): string[] => [...out.matchAll(PRINTED_LINK)].map((m) => m[1]!)
  try {
    const first = await new Promise<string>((done, fail) => {
      const timer = setTimeout(() => fail(new Error(`serve --ui did not start in 30 s:\n${out}\n${err}`)), 30_000)
      child.stdout?.on('data', (b: Buffer) => {
        out += b.toString('utf8')
        if (!/^listening \d+$/m.test(out)) return
        clearTimeout(timer)
        const link = printed()[0]
        if (link === undefined) fail(new Error(`serve --ui printed no link to the page:\n${out}`))
        else done(link)
      })
      child.once('exit', (code) => {
        clearTimeout(timer)
        fail(new Error(`serve --ui exited with ${code}:\n${out}\n${err}`))
      })
    })
    let handedOut = 0
    const nextLink = async (): Promise<string> => {
      const deadline = Date.now() + STEP_TIMEOUT_MS
      while (printed().length <= handedOut) {
        if (Date.now() > deadline) throw new Error(`serve --ui printed no link #${handedOut + 1}:\n${out}`)
        await new Promise((wake) => setTimeout(wake, 50))
      }
      handedOut += 1
      return printed()[handedOut - 1]!
    }
    return { child, origin: new URL(first).origin, nextLink, stop }
  } catch (e) {
    await stop()
    throw e
  }
}

/**
 * What `serve --ui` runs, in this process, on a chain the test holds (a sandbox, or a local Blockfrost or Kupo +
 * Ogmios telling one), so that another builder in the test can use the same ledger: the desk host, the Runtime
 * API and the page on 127.0.0.1, with a fresh data directory.
 */
export async function startUiHost(
  chain: OpenedChain,
  hardware?: HardwareDevices
): Promise<PageServer & { readonly host: DeskHost; readonly dataDir: string }> {
  const data = mkdtempSync(join(tmpdir(), 'marlowe-desk-e2e-host-'))
  let port = 0
  const host = await DeskHost.open({
    ...(hardware === undefined ? {} : { hardware }),
    dataDir: data,
    version,
    fixedChain: { chain, node: {}, reason: 'the end-to-end test chose the chain' },
    fixedLocalApi: {
      state: () => ({ listening: true, url: `http://127.0.0.1:${port}/` }),
      reason: 'the end-to-end test serves the local API'
    }
  })
  const links: string[] = []
  const sessions = new UiSessions({ onSecretRenewed: (secret) => links.push(secret) })
  const app = createServer({
    service: host.service,
    token: 'e2e-runtime-token-0123456789',
    desk: { desk: host.desk, sessions, uiDir: RENDERER_DIR }
  })
  const stop = async (): Promise<void> => {
    await app.close()
    await host.close()
    rmSync(data, { recursive: true, force: true })
  }
  try {
    port = await listen(app, 0)
  } catch (e) {
    await stop()
    throw e
  }
  links.unshift(sessions.secret)
  let handedOut = 0
  const nextLink = async (): Promise<string> => {
    const secret = links[handedOut]
    if (secret === undefined) throw new Error(`the page's secret #${handedOut + 1} was never issued`)
    handedOut += 1
    return `http://127.0.0.1:${port}/ui/#secret=${secret}`
  }
  return { host, dataDir: data, origin: `http://127.0.0.1:${port}`, nextLink, stop }
}

/** The CLI bundle that `startServe` had `cliPath()` build into a temporary directory (rebuilt if asked again). */
function removeBuiltCli(): void {
  try {
    rmSync(dirname(cliPath()), { recursive: true, force: true })
  } catch {
    // The build itself failed: nothing was left behind.
  }
}

/** The first ada amount in `text` as the page writes it ("−3.659829 ada", "1,022.5 ada"), in lovelace. */
export function lovelaceIn(text: string): bigint {
  const m = /([+−-]?)([\d,]+)(?:\.(\d{1,6}))? ada/.exec(text)
  if (m === null) throw new Error(`no ada amount in: ${text}`)
  const lovelace = BigInt((m[2] ?? '').replace(/,/g, '')) * 1_000_000n + BigInt((m[3] ?? '').padEnd(6, '0'))
  return m[1] === '' || m[1] === '+' ? lovelace : -lovelace
}

export function freshDir(dir: string): string {
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  return dir
}

/** Numbered full-page screenshots (`<prefix>-01-<name>.png`), in the order the test takes them. */
export function screenshots(page: Page, dir: string, prefix: string): (name: string) => Promise<string> {
  let n = 0
  return async (name) => {
    n += 1
    const slug = name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
    const file = join(dir, `${prefix}-${String(n).padStart(2, '0')}-${slug}.png`)
    await page.screenshot({ path: file, fullPage: true })
    return file
  }
}

/** Restores a wallet from its phrase on the first-run screen, and waits for its wallet screen. */
export async function restoreOnFirstRun(
  page: Page,
  wallet: { readonly name: string; readonly mnemonic: string; readonly password: string }
): Promise<void> {
  const byId = (id: string) => page.getByTestId(id)
  await byId('first-run').waitFor()
  await byId('tab-restore').click()
  await page.getByLabel('Wallet name').fill(wallet.name)
  await byId('restore-phrase').fill(wallet.mnemonic)
  await byId('wallet-password').fill(wallet.password)
  await byId('wallet-password-again').fill(wallet.password)
  await byId('wallet-restore').click()
  await page.getByRole('heading', { level: 1, name: wallet.name }).waitFor()
}

/** Waits until the locator shows text matching `pattern` (Playwright's auto-waiting, no polling of our own). */
export async function waitForText(
  locator: Locator,
  pattern: RegExp | string,
  timeout = STEP_TIMEOUT_MS
): Promise<void> {
  try {
    await locator.filter({ hasText: pattern }).first().waitFor({ state: 'visible', timeout })
  } catch (e) {
    const shown = await locator
      .first()
      .textContent({ timeout: 1000 })
      .catch(() => '(not there)')
    throw new Error(`expected ${String(pattern)} in ${locator.toString()}; it shows: ${shown ?? ''}`, { cause: e })
  }
}

/** Clicks `trigger` and returns the file the page downloads, saved into `dir`. */
export async function download(page: Page, trigger: Locator, dir: string): Promise<{ path: string; name: string }> {
  const [file] = await Promise.all([page.waitForEvent('download', { timeout: STEP_TIMEOUT_MS }), trigger.click()])
  const name = file.suggestedFilename()
  const path = join(dir, name)
  await file.saveAs(path)
  return { path, name }
}
