/**
 * What hosts the engine for the desktop app (main) and the browser UI (`serve --ui`): the settings file, the
 * keystore (shared by every network), one chain and its service (each network with its own SQLite file), the
 * optional local API — and switching them when Settings change. Calls reach the engine through `desk`, which
 * always talks to the current one; a switch waits for the calls in flight and holds new ones until it is done.
 */
import { join } from 'node:path'
import {
  DESK_CALLS,
  type DeskCall,
  type DeskSettings,
  type LocalApiState,
  type NetworkName,
  type NodeSettings,
  type SettingsState
} from '../api/contract'
import { openNodeChain, type ChainTuning, type OpenedChain } from '../chain/open'
import { MarloweScriptsError, readValidatorDir } from '../chain/marlowe-scripts'
import { SandboxProvider, sandboxGenesis, type SandboxOptions } from '../chain/sandbox'
import {
  ActivityTracker,
  createDesk,
  deskFailure,
  knownErrorBody,
  loadSettings,
  saveSettings,
  type DeskHandlers,
  type HandlersOf,
  type HardwareDevices,
  type SettingsCall,
  type StageFn
} from '../engine/desk'
import { closeTrezorUsb } from '../engine/hardware'
import { installNativeCodecs } from '../engine/native-codecs'
import { Keystore, UnlockThrottle, type KeystoreOptions } from '../engine/keys'
import { ensurePrivateDir } from '../engine/private-dir'
import { evaluatePlutusOffThread } from '../engine/worker'
import { openService, type MarloweService, type OpenService, type OpenServiceOptions } from '../engine/service'
import { apiToken } from './api-token'
import { testConnection, TEST_TUNING } from './connection-test'
import { Gate } from './gate'
import { LocalApi } from './local-api'

export interface DeskHostOptions {
  /** Holds `settings.json`, `keys/`, `sandbox/`, `service-<network>.sqlite` and the local API's `api-token`. */
  readonly dataDir: string
  readonly version: string
  /** `serve --ui`: the chain its flags opened; Settings cannot change it, and the caller closes it. */
  readonly fixedChain?: { readonly chain: OpenedChain; readonly node: NodeSettings; readonly reason: string }
  /** `serve --ui`: that server already is the local API; Settings show it and cannot switch it. */
  readonly fixedLocalApi?: { readonly state: () => LocalApiState; readonly reason: string }
  readonly keystore?: Pick<KeystoreOptions, 'scrypt' | 'clock' | 'schedule'>
  readonly service?: Pick<OpenServiceOptions, 'now' | 'followEveryMs'>
  readonly sandbox?: Omit<SandboxOptions, 'dataDir'>
  /** How real networks are opened, and how a connection test connects. */
  readonly chainTuning?: ChainTuning
  readonly testTuning?: ChainTuning
  readonly now?: () => number
  /** How hardware wallets are reached; default: USB (and Trezor Bridge). */
  readonly hardware?: HardwareDevices
}

/** The engine as it runs now. */
/**
 * A chain as the host runs it, with the store file of its service: one per network, and on the sandbox one per
 * set of Marlowe scripts (the stand-ins, or each validators directory), since each is a chain of its own.
 */
interface HostChain extends OpenedChain {
  readonly storeFile: string
  /** The validators directory the sandbox runs, when not the stand-ins. */
  readonly validators?: string
}

interface Engine {
  readonly chain: HostChain
  /** The node it was opened with (empty on the sandbox). */
  readonly node: NodeSettings
  readonly opened: OpenService
  readonly keystore: Keystore
  readonly desk: DeskHandlers
}

/** Calls that do not wait at the gate: settings switch the engine themselves; progress must answer during a switch. */
const UNGATED_CALLS: ReadonlySet<DeskCall> = new Set<DeskCall>([
  'app.progress',
  'settings.get',
  'settings.update',
  'settings.testConnection'
])

const minutesMs = (minutes: number): number => minutes * 60_000

function sameNode(a: NodeSettings, b: NodeSettings): boolean {
  return (
    a.ogmios === b.ogmios &&
    a.kupo === b.kupo &&
    a.submitApi === b.submitApi &&
    a.blockfrost?.projectId === b.blockfrost?.projectId &&
    a.blockfrost?.url === b.blockfrost?.url
  )
}

export class DeskHost {
  /** The API contract on whatever engine runs now; register it once (IPC, HTTP). */
  readonly desk: DeskHandlers
  private readonly gate = new Gate()
  /** One for every engine this host runs, so a switch's own stages and the calls around it share a list. */
  private readonly progress: ActivityTracker
  /** Settings changes, one at a time. */
  private updates: Promise<unknown> = Promise.resolve()
  private closed = false
  private engine: Engine
  private readonly settingsCalls: HandlersOf<SettingsCall> = {
    'settings.get': async () => this.state(),
    'settings.update': (next) =>
      this.progress.run('settings.update', 'Applying the settings', undefined, (stage) =>
        this.serialized(() => this.update(next, stage))
      ),
    'settings.testConnection': ({ network, node }) =>
      this.progress.run('settings.testConnection', 'Connecting to the node', 1, () =>
        testConnection(network, node, this.options.testTuning ?? TEST_TUNING)
      )
  }

  private constructor(
    private readonly options: DeskHostOptions,
    /** As saved (in `serve --ui`, the network and node shown are the flags', see `effective`). */
    private saved: DeskSettings,
    private warning: string | undefined,
    running: Omit<Engine, 'desk'>,
    private readonly localApi: LocalApi | undefined,
    /** Outlives each keystore: one reopened for new settings must not forget the wrong passwords. */
    private readonly throttle: UnlockThrottle
  ) {
    this.progress = new ActivityTracker(options.now)
    this.engine = this.engineOf(running.chain, running.node, running.opened, running.keystore)
    const call = <C extends DeskCall>(name: C): DeskHandlers[C] =>
      (UNGATED_CALLS.has(name)
        ? (request: Parameters<DeskHandlers[C]>[0]) => this.engine.desk[name](request as never)
        : (request: Parameters<DeskHandlers[C]>[0]) =>
            this.gate.shared(() => this.engine.desk[name](request as never))) as DeskHandlers[C]
    this.desk = Object.freeze(Object.fromEntries(DESK_CALLS.map((name) => [name, call(name)]))) as DeskHandlers
  }

  static async open(options: DeskHostOptions): Promise<DeskHost> {
    await installNativeCodecs()
    // Before reading anything from it: a directory others can write to may hold their files.
    ensurePrivateDir(options.dataDir)
    const loaded = loadSettings(settingsPath(options))
    let warning = loaded.warning
    const throttle = new UnlockThrottle()
    const keystore = await openKeystore(options, loaded.settings.autoLockMinutes, throttle)
    let chain: HostChain
    let node: NodeSettings
    if (options.fixedChain !== undefined) {
      chain = { ...options.fixedChain.chain, storeFile: storeFileOf(options.fixedChain.chain.network) }
      node = options.fixedChain.node
    } else {
      try {
        chain = await openChainOf(options, loaded.settings)
        node = loaded.settings.node
      } catch (e) {
        // Start anyway, so that Settings can fix the node; the warning says which chain runs instead.
        const reason = knownErrorBody(e)?.message ?? (e instanceof Error ? e.message : String(e))
        warning = `Marlowe Desk could not connect to ${loaded.settings.network} (${reason}) and runs the sandbox instead; check the node in Settings and save.`
        chain = openSandbox(options)
        node = {}
      }
    }
    const localApi = options.fixedLocalApi === undefined ? new LocalApi(apiToken(options.dataDir)) : undefined
    const opened = await openServiceOf(options, chain)
    const running = { chain, node, opened, keystore }
    const host = new DeskHost(options, loaded.settings, warning, running, localApi, throttle)
    await localApi?.apply(loaded.settings.localApi, host.engine.opened.service)
    return host
  }

  /** The service running now (for a server that also serves the Runtime API, as `serve --ui`). */
  get service(): MarloweService {
    return this.engine.opened.service
  }

  /** Stops the local API, locks every wallet, stops following the chain, lets go of a Trezor, closes the files. */
  async close(): Promise<void> {
    await this.serialized(async () => {
      if (this.closed) return
      this.closed = true
      await this.localApi?.stop()
      await this.gate.exclusive(async () => {
        this.engine.keystore.lockAll()
        await this.engine.opened.close()
        if (this.options.fixedChain === undefined) await this.engine.chain.close()
      })
      await closeTrezorUsb()
    })
  }

  /** The settings as they apply: the saved ones, with what `serve --ui` fixed by its flags. */
  private effective(): DeskSettings {
    const fixed = this.options.fixedChain
    return fixed === undefined ? this.saved : { ...this.saved, network: fixed.chain.network, node: fixed.node }
  }

  private state(): SettingsState {
    const { fixedChain, fixedLocalApi } = this.options
    return {
      settings: this.effective(),
      localApi: fixedLocalApi?.state() ?? this.localApi?.state ?? { listening: false },
      ...(fixedChain === undefined ? {} : { networkFixed: fixedChain.reason }),
      ...(fixedLocalApi === undefined ? {} : { localApiFixed: fixedLocalApi.reason }),
      ...(this.warning === undefined ? {} : { warning: this.warning })
    }
  }

  private async update(next: DeskSettings, stage: StageFn): Promise<SettingsState> {
    if (this.closed) throw deskFailure('Unavailable', 'Closing', 'Marlowe Desk is closing')
    const { fixedChain, fixedLocalApi } = this.options
    const current = this.effective()
    if (fixedChain !== undefined && (next.network !== current.network || !sameNode(next.node, current.node))) {
      throw deskFailure('Forbidden', 'NetworkFixed', fixedChain.reason)
    }
    const apiChanged =
      next.localApi.enabled !== current.localApi.enabled || next.localApi.port !== current.localApi.port
    if (fixedLocalApi !== undefined && apiChanged) throw deskFailure('Forbidden', 'LocalApiFixed', fixedLocalApi.reason)

    const running = this.engine
    const chainChanges =
      next.network !== running.chain.network ||
      !sameNode(next.node, running.node) ||
      (next.network === 'sandbox' && next.sandboxValidators !== running.chain.validators)
    // The risky part first (a node that does not answer, a wrong network): until it succeeds nothing changes.
    if (chainChanges) stage('Connecting to the node')
    const chain = chainChanges ? await openChainOf(this.options, next) : undefined
    const keystore =
      next.autoLockMinutes === current.autoLockMinutes
        ? undefined
        : await openKeystore(this.options, next.autoLockMinutes, this.throttle)
    // In `serve --ui`, only what may change is saved: the file keeps its own network, node and local API.
    const toSave = fixedChain === undefined ? next : { ...next, network: this.saved.network, node: this.saved.node }
    stage('Saving the settings')
    try {
      saveSettings(settingsPath(this.options), toSave)
    } catch (e) {
      await chain?.close()
      throw deskFailure('Internal', 'SettingsNotSaved', `the settings could not be saved: ${String(e)}`)
    }
    this.saved = toSave
    this.warning = undefined
    if (chain !== undefined || keystore !== undefined) await this.switchTo(chain, next.node, keystore, stage)
    if (this.localApi !== undefined && apiChanged && next.localApi.enabled) stage('Starting the local API')
    await this.localApi?.apply(next.localApi, this.engine.opened.service)
    return this.state()
  }

  /** Swaps in a new chain (and its network's service) and/or keystore once the calls in flight are done. */
  private async switchTo(
    chain: HostChain | undefined,
    node: NodeSettings,
    keystore: Keystore | undefined,
    stage: StageFn
  ) {
    stage('Waiting for other work to finish')
    await this.gate.exclusive(async () => {
      stage(chain === undefined ? 'Applying the settings' : 'Switching networks')
      const old = this.engine
      let opened = old.opened
      if (chain !== undefined) {
        // Same network, other node: the same SQLite file, so the old service lets go of it first.
        await old.opened.close()
        opened = await openServiceOf(this.options, chain)
      }
      if (keystore !== undefined) old.keystore.lockAll()
      this.engine = this.engineOf(
        chain ?? old.chain,
        chain === undefined ? old.node : node,
        opened,
        keystore ?? old.keystore
      )
      if (chain !== undefined && this.options.fixedChain === undefined) await old.chain.close()
    })
  }

  private engineOf(chain: HostChain, node: NodeSettings, opened: OpenService, keystore: Keystore): Engine {
    const desk = createDesk({
      service: opened.service,
      store: opened.store,
      keystore,
      version: this.options.version,
      settings: this.settingsCalls,
      progress: this.progress,
      ...(this.options.now === undefined ? {} : { now: this.options.now }),
      ...(this.options.hardware === undefined ? {} : { hardware: this.options.hardware })
    })
    return { chain, node, opened, keystore, desk }
  }

  private serialized<T>(work: () => Promise<T>): Promise<T> {
    const run = this.updates.then(work, work)
    this.updates = run.catch(() => undefined)
    return run
  }
}

function settingsPath(options: DeskHostOptions): string {
  return join(options.dataDir, 'settings.json')
}

function openKeystore(options: DeskHostOptions, autoLockMinutes: number, throttle: UnlockThrottle): Promise<Keystore> {
  return Keystore.open({
    ...options.keystore,
    throttle,
    dir: join(options.dataDir, 'keys'),
    autoLockMs: minutesMs(autoLockMinutes)
  })
}

function storeFileOf(network: NetworkName, variant?: string): string {
  return variant === undefined ? `service-${network}.sqlite` : `service-${network}-${variant}.sqlite`
}

/** The sandbox on the stand-ins, or on the validators in `validators` (a sandbox and a store of their own). */
function openSandbox(options: DeskHostOptions, validators?: string): HostChain {
  let variant: string | undefined
  if (validators !== undefined) {
    try {
      variant = sandboxGenesis(readValidatorDir(validators)).id.slice(0, 16)
    } catch (e) {
      if (!(e instanceof MarloweScriptsError)) throw e
      throw deskFailure('BadRequest', 'ValidatorsUnusable', `the sandbox cannot run those validators: ${e.message}`, {
        dir: validators
      })
    }
  }
  const dataDir = join(options.dataDir, variant === undefined ? 'sandbox' : `sandbox-${variant}`)
  // The sandbox writes its state files with the process's umask; in a 0700 directory no one else reads them.
  ensurePrivateDir(dataDir)
  // Its scripts run on the engine's worker: a long one never holds up the window or the HTTP loop.
  const provider = SandboxProvider.open({
    evaluate: evaluatePlutusOffThread,
    ...options.sandbox,
    ...(validators === undefined ? {} : { validators }),
    dataDir
  })
  return {
    provider,
    network: 'sandbox',
    close: () => provider.close(),
    storeFile: storeFileOf('sandbox', variant),
    ...(validators === undefined ? {} : { validators })
  }
}

async function openChainOf(options: DeskHostOptions, settings: DeskSettings): Promise<HostChain> {
  if (settings.network === 'sandbox') return openSandbox(options, settings.sandboxValidators)
  const chain = await openNodeChain(settings.network, settings.node, options.chainTuning)
  return { ...chain, storeFile: storeFileOf(chain.network) }
}

function openServiceOf(options: DeskHostOptions, chain: HostChain): Promise<OpenService> {
  return openService({
    ...options.service,
    provider: chain.provider,
    databasePath: join(options.dataDir, chain.storeFile)
  })
}
