/**
 * Settings through the desk host: read, validated, saved atomically and read back; an unreadable file gives the
 * defaults with a warning; a connection test against a local Ogmios peer and a refused port; switching between
 * the sandbox and a preview network served by the peer re-opens the engine on it (each network its own SQLite
 * file, one keystore); auto-lock minutes feed the keystore; the local API listens on 127.0.0.1 behind its token.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import type { DeskSettings } from '../../src/api/contract'
import { DEFAULT_SETTINGS } from '../../src/engine/desk/settings-file'
import { PASSWORD } from '../engine/desk/support'
import { ChainError } from '../../src/chain/provider'
import { SandboxProvider, sandboxGenesis } from '../../src/chain/sandbox'
import { testValidators, writeTestValidatorDir } from '../chain/support/validators'
import { dataDir, freePort, openHost, previewPeer } from './host-support'

const withApi = (enabled: boolean, port: number): DeskSettings => ({ ...DEFAULT_SETTINGS, localApi: { enabled, port } })

describe('settings.get and settings.update', () => {
  test('a new data directory has the defaults: the sandbox, 5 minutes, no local API', async () => {
    const { ok } = await openHost(dataDir())
    const state = await ok('settings.get', {})
    expect(state.settings).toEqual(DEFAULT_SETTINGS)
    expect(state.localApi.listening).toBe(false)
    expect(state.localApi.token).toMatch(/^[A-Za-z0-9_-]{32}$/)
    expect(state.warning).toBeUndefined()
    expect((await ok('app.status', {})).network).toBe('sandbox')
  })

  test('saved settings survive a restart, in a settings file written whole', async () => {
    const dir = dataDir()
    const first = await openHost(dir)
    const next: DeskSettings = { ...DEFAULT_SETTINGS, autoLockMinutes: 30 }
    expect((await first.ok('settings.update', next)).settings).toEqual(next)
    await first.host.close()
    expect(JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8'))).toEqual({ version: 1, ...next })
    const second = await openHost(dir)
    expect((await second.ok('settings.get', {})).settings).toEqual(next)
  })

  test.each([
    ['not JSON', '{"version": 1, "network": '],
    ['another version', '{"version": 7, "network": "sandbox"}'],
    ['a bad value', JSON.stringify({ ...DEFAULT_SETTINGS, version: 1, autoLockMinutes: -3 })],
    ['a real network without a node', JSON.stringify({ ...DEFAULT_SETTINGS, version: 1, network: 'preview' })]
  ])('a settings file with %s gives the defaults and a warning', async (_what, text) => {
    const dir = dataDir()
    writeFileSync(join(dir, 'settings.json'), text)
    const { ok } = await openHost(dir)
    const state = await ok('settings.get', {})
    expect(state.settings).toEqual(DEFAULT_SETTINGS)
    expect(state.warning).toMatch(/^The settings file .* so the defaults are in use/)
    // Saving replaces the bad file.
    await ok('settings.update', DEFAULT_SETTINGS)
    expect((await ok('settings.get', {})).warning).toBeUndefined()
  })

  test.each([
    ['a real network without a node', { ...DEFAULT_SETTINGS, network: 'preview' }, 'node'],
    ['a node for the sandbox', { ...DEFAULT_SETTINGS, node: { ogmios: 'ws://127.0.0.1:1337' } }, 'node'],
    [
      'both Ogmios and Blockfrost',
      { ...DEFAULT_SETTINGS, network: 'preprod', node: { ogmios: 'ws://a:1', blockfrost: { projectId: 'preprodX' } } },
      'node'
    ],
    [
      'an Ogmios URL that is not ws://',
      { ...DEFAULT_SETTINGS, network: 'preprod', node: { ogmios: 'http://a:1' } },
      'node.ogmios'
    ],
    [
      'Kupo without Ogmios',
      {
        ...DEFAULT_SETTINGS,
        network: 'preprod',
        node: { blockfrost: { projectId: 'preprodX' }, kupo: 'http://127.0.0.1:1442' }
      },
      'node'
    ],
    [
      'a Kupo URL that is not http://',
      { ...DEFAULT_SETTINGS, network: 'preprod', node: { ogmios: 'ws://a:1', kupo: 'ws://a:1442' } },
      'node.kupo'
    ],
    [
      'a validators folder that is not a whole path',
      { ...DEFAULT_SETTINGS, sandboxValidators: 'v' },
      'sandboxValidators'
    ],
    ['an unknown network', { ...DEFAULT_SETTINGS, network: 'testnet' }, 'network'],
    ['zero minutes', { ...DEFAULT_SETTINGS, autoLockMinutes: 0 }, 'autoLockMinutes'],
    ['a privileged port', withApi(true, 80), 'localApi.port'],
    ['an unknown field', { ...DEFAULT_SETTINGS, colour: 'red' }, 'request']
  ])('refuses %s, naming the field, and changes nothing', async (_what, request, path) => {
    const dir = dataDir()
    const { fails, ok } = await openHost(dir)
    const error = await fails('settings.update', request, 'InvalidRequest')
    expect(JSON.stringify(error.details)).toContain(`"path":"${path}"`)
    expect(existsSync(join(dir, 'settings.json'))).toBe(false)
    expect((await ok('settings.get', {})).settings).toEqual(DEFAULT_SETTINGS)
  })
})

describe('settings.testConnection', () => {
  test('reports that an Ogmios node answers and serves the network, and nothing it said', async () => {
    const peer = await previewPeer()
    const { ok } = await openHost(dataDir())
    const report = await ok('settings.testConnection', { network: 'preview', node: { ogmios: peer.url } })
    expect(report).toEqual({ network: 'preview', checks: [`Ogmios at ${peer.url} answers and serves preview.`] })
    // Nothing changed.
    expect((await ok('app.status', {})).network).toBe('sandbox')
  })

  test('a node of another network, a refused port and the sandbox fail with sentences', async () => {
    const peer = await previewPeer()
    const port = await freePort()
    const { fails } = await openHost(dataDir())
    const wrong = await fails(
      'settings.testConnection',
      { network: 'preprod', node: { ogmios: peer.url } },
      'NodeBadResponse'
    )
    expect(wrong.message).toContain('not preprod')
    const refused = await fails(
      'settings.testConnection',
      { network: 'preprod', node: { ogmios: `ws://127.0.0.1:${port}` } },
      'NodeUnavailable'
    )
    expect(refused.message).toContain(`ws://127.0.0.1:${port}`)
    await fails('settings.testConnection', { network: 'sandbox', node: {} }, 'NothingToTest')
    await fails('settings.testConnection', { network: 'preview', node: {} }, 'InvalidRequest')
  })

  test('a cardano-submit-api that cannot be reached fails the test', async () => {
    const peer = await previewPeer()
    const port = await freePort()
    const { fails } = await openHost(dataDir())
    const error = await fails(
      'settings.testConnection',
      { network: 'preview', node: { ogmios: peer.url, submitApi: `http://127.0.0.1:${port}` } },
      'NodeUnavailable'
    )
    expect(error.message).toContain('cardano-submit-api')
  })
})

describe('switching networks', () => {
  test('sandbox → preview (on the peer) → sandbox, with one keystore and a SQLite file per network', async () => {
    const peer = await previewPeer()
    const dir = dataDir()
    const { ok, fails } = await openHost(dir)
    const { wallet } = await ok('wallets.create', { name: 'Ada', password: PASSWORD })
    const preview: DeskSettings = { ...DEFAULT_SETTINGS, network: 'preview', node: { ogmios: peer.url } }

    expect((await ok('settings.update', preview)).settings).toEqual(preview)
    const status = await ok('app.status', {})
    expect(status.network).toBe('preview')
    expect(status.tip?.blockNo).toBe(BigInt(peer.chain.length))
    expect(existsSync(join(dir, 'service-preview.sqlite'))).toBe(true)
    const [listed] = await ok('wallets.list', {})
    expect(listed?.id).toBe(wallet.id)
    expect(listed?.address).toMatch(/^addr_test1/)
    // The faucet is the sandbox's own.
    await fails('sandbox.fund', { walletId: wallet.id, ada: 10n }, 'SandboxOnly')

    await ok('settings.update', DEFAULT_SETTINGS)
    expect((await ok('app.status', {})).network).toBe('sandbox')
    expect((await ok('wallets.list', {})).map((w) => w.id)).toEqual([wallet.id])
  })

  test('the sandbox on a validators folder: a sandbox and a store of its own; back to the stand-ins; a bad folder is refused', async () => {
    const dir = dataDir()
    const given = testValidators('desk settings')
    const folder = writeTestValidatorDir(given)
    const id = sandboxGenesis(given).id.slice(0, 16)
    const { ok, fails } = await openHost(dir)
    const { wallet } = await ok('wallets.create', { name: 'Ada', password: PASSWORD })
    await ok('sandbox.fund', { walletId: wallet.id, ada: 10n })

    const onValidators: DeskSettings = { ...DEFAULT_SETTINGS, sandboxValidators: folder }
    expect((await ok('settings.update', onValidators)).settings).toEqual(onValidators)
    expect(existsSync(join(dir, `sandbox-${id}`))).toBe(true)
    expect(existsSync(join(dir, `service-sandbox-${id}.sqlite`))).toBe(true)
    // A new ledger: the stand-ins' funds are not on it.
    expect((await ok('wallets.balance', { walletId: wallet.id })).lovelace).toBe(0n)

    const empty = dataDir()
    const bad = await fails('settings.update', { ...DEFAULT_SETTINGS, sandboxValidators: empty }, 'ValidatorsUnusable')
    expect(bad.message).toMatch(/^The sandbox cannot run those validators: the semantics validator file/)
    expect((await ok('settings.get', {})).settings).toEqual(onValidators)

    await ok('settings.update', DEFAULT_SETTINGS)
    expect((await ok('wallets.balance', { walletId: wallet.id })).lovelace).toBe(10_000_000n)
    // The folder's sandbox was made with its scripts: the stand-ins cannot open it, they can.
    const refused = (() => {
      try {
        SandboxProvider.open({ dataDir: join(dir, `sandbox-${id}`), clockTickMs: false })
      } catch (e) {
        return e
      }
      return undefined
    })()
    expect(refused).toBeInstanceOf(ChainError)
  })

  test('a node that cannot be reached is refused and nothing changes', async () => {
    const dir = dataDir()
    const port = await freePort()
    const { ok, fails } = await openHost(dir)
    const bad: DeskSettings = { ...DEFAULT_SETTINGS, network: 'preview', node: { ogmios: `ws://127.0.0.1:${port}` } }
    await fails('settings.update', bad, 'NodeUnavailable')
    expect((await ok('settings.get', {})).settings).toEqual(DEFAULT_SETTINGS)
    expect((await ok('app.status', {})).network).toBe('sandbox')
    expect(existsSync(join(dir, 'settings.json'))).toBe(false)
  })

  test('a saved network whose node is down at start-up: the sandbox runs, with a warning', async () => {
    const dir = dataDir()
    const port = await freePort()
    const saved = { version: 1, ...DEFAULT_SETTINGS, network: 'preview', node: { ogmios: `ws://127.0.0.1:${port}` } }
    writeFileSync(join(dir, 'settings.json'), JSON.stringify(saved))
    const { ok } = await openHost(dir)
    const state = await ok('settings.get', {})
    expect(state.settings.network).toBe('preview')
    expect(state.warning).toMatch(/could not connect to preview .* runs the sandbox instead/)
    expect((await ok('app.status', {})).network).toBe('sandbox')
  })
})

describe('auto-lock', () => {
  test('the minutes feed the keystore: an unlocked wallet locks after that long without use', async () => {
    const { ok, time } = await openHost(dataDir())
    const { wallet } = await ok('wallets.create', { name: 'Ada', password: PASSWORD })
    await ok('settings.update', { ...DEFAULT_SETTINGS, autoLockMinutes: 1 })
    await ok('wallets.unlock', { walletId: wallet.id, password: PASSWORD })
    time.advance(59_000)
    expect((await ok('wallets.list', {}))[0]?.locked).toBe(false)
    time.advance(2_000)
    expect((await ok('wallets.list', {}))[0]?.locked).toBe(true)

    await ok('settings.update', { ...DEFAULT_SETTINGS, autoLockMinutes: 10 })
    await ok('wallets.unlock', { walletId: wallet.id, password: PASSWORD })
    time.advance(5 * 60_000)
    expect((await ok('wallets.list', {}))[0]?.locked).toBe(false)
    time.advance(6 * 60_000)
    expect((await ok('wallets.list', {}))[0]?.locked).toBe(true)
  })

  test('an unlocked wallet says when it will lock; a locked one says nothing of it', async () => {
    const { ok, time } = await openHost(dataDir())
    const { wallet } = await ok('wallets.create', { name: 'Ada', password: PASSWORD })
    expect(wallet.locksAt).toBeUndefined()
    await ok('settings.update', { ...DEFAULT_SETTINGS, autoLockMinutes: 2 })
    const unlockedAt = BigInt(time.clock.now())
    const unlocked = await ok('wallets.unlock', { walletId: wallet.id, password: PASSWORD })
    expect(unlocked).toMatchObject({ locked: false, locksAt: unlockedAt + 120_000n })
    time.advance(60_000)
    // Asking is not using: the time stays.
    expect((await ok('wallets.list', {}))[0]).toMatchObject({ locked: false, locksAt: unlockedAt + 120_000n })
    const locked = await ok('wallets.lock', { walletId: wallet.id })
    expect(locked.locked).toBe(true)
    expect(locked.locksAt).toBeUndefined()

    await ok('wallets.unlock', { walletId: wallet.id, password: PASSWORD })
    time.advance(120_000)
    const [autoLocked] = await ok('wallets.list', {})
    expect(autoLocked?.locked).toBe(true)
    expect(autoLocked?.locksAt).toBeUndefined()
  })
})

describe('the local API', () => {
  test('on: Runtime’s API on 127.0.0.1 behind the token; off: nothing listens', async () => {
    const port = await freePort()
    const dir = dataDir()
    const { ok } = await openHost(dir)
    const state = await ok('settings.update', withApi(true, port))
    expect(state.localApi).toMatchObject({ listening: true, url: `http://127.0.0.1:${port}/` })
    const token = state.localApi.token!
    const url = `http://127.0.0.1:${port}/healthcheck`
    expect((await fetch(url)).status).toBe(401)
    expect((await fetch(url, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401)
    expect((await fetch(url, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200)
    expect(readFileSync(join(dir, 'api-token'), 'utf8').trim()).toBe(token)

    const off = await ok('settings.update', withApi(false, port))
    expect(off.localApi.listening).toBe(false)
    await expect(fetch(url)).rejects.toThrow()
  })

  test('is served again after a restart when enabled, and a taken port is reported', async () => {
    const port = await freePort()
    const dir = dataDir()
    const first = await openHost(dir)
    await first.ok('settings.update', withApi(true, port))
    await first.host.close()
    const second = await openHost(dir)
    expect((await second.ok('settings.get', {})).localApi.listening).toBe(true)
    // Another host of the same data directory cannot take the same port.
    const third = await openHost(dataDir())
    const state = await third.ok('settings.update', withApi(true, port))
    expect(state.localApi).toMatchObject({
      listening: false,
      problem: `Port ${port} is already in use by another program; choose another port.`
    })
  })
})

describe('progress of a switch', () => {
  test('app.progress answers while the network switches, and is empty once it is done', async () => {
    const peer = await previewPeer()
    const { host, ok } = await openHost(dataDir())
    const preview: DeskSettings = { ...DEFAULT_SETTINGS, network: 'preview', node: { ogmios: peer.url } }
    // The switch publishes its activity before its first await, in the host's one tracker.
    const switching = host.desk['settings.update'](preview)
    expect(await host.desk['app.progress']({})).toEqual([
      expect.objectContaining({ call: 'settings.update', stage: 'Applying the settings', step: 1 })
    ])
    await switching
    expect(await ok('app.progress', {})).toEqual([])
    expect((await ok('app.status', {})).network).toBe('preview')
  })
})
