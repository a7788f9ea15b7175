/**
 * The hardware wallet screens in Chromium, on the real engine in this process: no device is plugged into this
 * machine, so adding a Ledger answers the engine's no-device message (the real node-hid looked), and a review
 * for a hardware wallet (carol's account key, as a device would have returned it) shows what the Ledger will
 * show step by step, and signing on it says no device was found, with Try again. Then a Trezor, through Trezor
 * Connect as the engine sets it up and a Bridge double with a Model T double behind it (which rebuilds the body
 * from Connect's messages and signs what it rebuilt): added from the Hardware wallet tab, a build for it signed on
 * the device from the Sign panel, confirmed. Last, the air-gapped machine: a preprod Desk whose node cannot be
 * reached opens in its offline state and imports a build's bare transaction (the net effect and the contract's
 * step say what is unknown; the Ledger is not asked) and then its bundle, which a Ledger (the Cardano-app double at the transport) is refused on by the user and then signs into a
 * witness file; the online Desk submits it and the sandbox confirms. Screenshots in out/e2e-screenshots/hardware-*.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { SandboxProvider } from '../../src/chain/sandbox'
import { stringifyContract, stringifyInputs } from '../../src/core/marlowe/json'
import { openLedgerUsb, openTrezorUsb } from '../../src/engine/hardware'
import { TrezorConnection } from '../../src/engine/hardware/trezor-connect'
import { Keystore } from '../../src/engine/keys'
import { LedgerCardanoAppDouble, type Screen } from '../engine/hardware/ledger-app-double'
import {
  CAROL_ACCOUNT,
  CAROL_LEDGER_KEYS,
  carol,
  HOLDER_CHOOSES,
  HOLDER_CONTRACT,
  holderContract
} from '../engine/hardware/support'
import { unreachableNode } from '../engine/desk/support'
import { BridgeDouble } from '../engine/hardware/trezor-double/bridge'
import { TrezorModelT } from '../engine/hardware/trezor-double/firmware'
import {
  download,
  SCREENSHOT_DIR,
  STEP_TIMEOUT_MS,
  screenshots,
  startUiHost,
  suiteChromium,
  waitForText
} from './support'

const chromium = suiteChromium()

/** A page of `server` at 1280 px, its screenshots named `prefix`-*. */
async function openPage(server: Awaited<ReturnType<typeof startUiHost>>, prefix: string) {
  const context = await chromium().newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' })
  context.setDefaultTimeout(STEP_TIMEOUT_MS)
  const page = await context.newPage()
  await page.goto(await server.nextLink())
  await page.getByTestId('first-run').waitFor()
  return {
    context,
    page,
    shot: screenshots(page, SCREENSHOT_DIR, prefix),
    byId: (id: string) => page.getByTestId(id)
  }
}

describe('hardware wallets in the browser', () => {
  test('adding a Ledger says no device was found; a build shows the Ledger’s steps, and signing says the same', async () => {
    const sandbox = SandboxProvider.open({ clockTickMs: false })
    const server = await startUiHost({ provider: sandbox, network: 'sandbox', close: async () => undefined })
    const { context, page, shot, byId } = await openPage(server, 'hardware')
    try {
      await byId('tab-hardware').click()
      await byId('hardware-add').click()
      await waitForText(
        byId('error').locator('.notice-message'),
        /^No Ledger was found .*open the Cardano app, then try again\.$/
      )
      expect(await byId('hardware-add').textContent()).toContain('Read the account from the Ledger')
      await shot('no-device')

      // The account key a Ledger would have returned for carol's account 0, put in the keystore's directory.
      const keys = await Keystore.open({ dir: join(server.dataDir, 'keys') })
      const wallet = await keys.addHardware({
        name: 'Carol’s Ledger',
        vendor: 'ledger',
        accountIndex: 0,
        accountXvk: CAROL_ACCOUNT.xvk
      })
      const timeout = BigInt(Date.now()) + 86_400_000n
      await server.host.desk['contracts.create']({
        walletId: wallet.id,
        contractJson: stringifyContract({ type: 'When', cases: [], timeout, timeoutContinuation: { type: 'Close' } }),
        roles: [],
        tags: ['desk.e2e']
      })

      await page.reload()
      await waitForText(byId('wallet-picker'), 'Carol’s Ledger')
      await byId('nav-contracts').click()
      await byId('draft-resume').click()
      await byId('device-steps').waitFor()
      const steps = await byId('device-step').allTextContents()
      expect(steps[0]).toContain('Start signing a Plutus transaction')
      expect(steps.at(-1)).toContain("m/1852'/1815'/0'/0/0")
      expect(await byId('sign-password').count()).toBe(0)
      await shot('device-steps')

      await byId('device-sign-submit').click()
      await waitForText(byId('sign-panel').getByTestId('error').locator('.notice-message'), /^No Ledger was found /)
      expect(await byId('device-sign-submit').textContent()).toContain('Try again')
      await shot('sign-no-device')
    } finally {
      await context.close()
      await server.stop()
      await sandbox.close()
    }
  }, 180_000)

  test('a Trezor through Trezor Connect: added from the Hardware wallet tab, a build signed on it, confirmed', async () => {
    const bridge = await BridgeDouble.start()
    bridge.plug(new TrezorModelT())
    const trezor = new TrezorConnection([bridge.transport()])
    const sandbox = SandboxProvider.open()
    const server = await startUiHost(
      { provider: sandbox, network: 'sandbox', close: async () => undefined },
      { timeoutMs: 60_000, openLedger: openLedgerUsb, openTrezor: () => trezor.open() }
    )
    const { context, page, shot, byId } = await openPage(server, 'hardware-trezor')
    try {
      await byId('tab-hardware').click()
      await byId('hardware-trezor').check()
      await shot('add')
      await byId('hardware-add').click()
      await waitForText(byId('wallet-picker'), 'Trezor account 0')
      const [wallet] = await server.host.desk['wallets.list']({})
      expect(wallet).toMatchObject({ kind: 'hardware', vendor: 'trezor', address: carol.address })

      await server.host.desk['contracts.create']({
        walletId: wallet!.id,
        contractJson: stringifyContract(HOLDER_CONTRACT),
        roles: [{ role: 'Holder', address: carol.address }],
        tags: ['desk.e2e']
      })
      await page.reload()
      await byId('nav-contracts').click()
      await byId('draft-resume').click()
      await byId('device-steps').waitFor()
      expect(await byId('device-step').first().textContent()).toContain('Start signing a Plutus transaction')
      await shot('steps')
      await byId('device-sign-submit').click()
      await byId('tx-confirmed').waitFor({ timeout: 120_000 })
      await shot('confirmed')
      expect(bridge.received).toContain('CardanoTxWitnessRequest')
    } finally {
      await context.close()
      await server.stop()
      await trezor.dispose()
      await bridge.close()
      await sandbox.close()
    }
  }, 240_000)

  test('offline: a bundle imported on a Desk with no node reachable, signed on a Ledger into a witness the online Desk submits', async () => {
    const sandbox = SandboxProvider.open()
    const devices = {
      timeoutMs: 60_000,
      openLedger: async () => new LedgerCardanoAppDouble({ keys: CAROL_LEDGER_KEYS, ...ledger }),
      openTrezor: openTrezorUsb
    }
    let ledger = { confirm: (_screen: Screen) => true }
    const online = await startUiHost({ provider: sandbox, network: 'sandbox', close: async () => undefined }, devices)
    // The air-gapped Desk: a real network configured, its node unreachable.
    const apart = unreachableNode()
    const offline = await startUiHost({ provider: apart, network: 'preprod', close: async () => undefined }, devices)
    const { context, page, shot, byId } = await openPage(offline, 'hardware-offline')
    const files = mkdtempSync(join(tmpdir(), 'marlowe-desk-e2e-offline-'))
    const heading = (name: string) => page.getByRole('heading', { level: 1, name })
    const importFile = async (path: string) => {
      await byId('nav-offline').click()
      await byId('offline-view').waitFor()
      await byId('import-tx').setInputFiles(path)
      await heading('Review: Imported transaction').waitFor()
    }
    try {
      // Online: the contract created (signed on the Ledger there); its first step is what goes offline, as a bundle
      // and as the bare transaction, whose spent outputs the offline Desk's ledger never had.
      const keys = await Keystore.open({ dir: join(online.dataDir, 'keys') })
      const wallet = await keys.addHardware({
        name: 'carol',
        vendor: 'ledger',
        accountIndex: 0,
        accountXvk: CAROL_ACCOUNT.xvk
      })
      const { desk } = online.host
      const confirmed = async (txId: string) => {
        while ((await desk['tx.status']({ txId })).status !== 'confirmed') {
          await new Promise((resolve) => setTimeout(resolve, 500))
        }
      }
      const created = await desk['contracts.create']({
        walletId: wallet.id,
        contractJson: stringifyContract(holderContract(BigInt(Date.now()) + 86_400_000n)),
        roles: [{ role: 'Holder', address: carol.address }],
        tags: ['desk.e2e']
      })
      await desk['tx.signWithDevice']({ txId: created.txId, walletId: wallet.id })
      await confirmed(created.txId)
      const built = await desk['contracts.apply']({
        walletId: wallet.id,
        contractId: created.contractId!,
        inputsJson: stringifyInputs(HOLDER_CHOOSES)
      })
      const bundlePath = join(files, 'apply.bundle.json')
      writeFileSync(bundlePath, (await desk['tx.exportBundle']({ txId: built.txId })).text)
      const unsignedPath = join(files, 'apply.unsigned.tx.json')
      writeFileSync(unsignedPath, (await desk['tx.exportUnsigned']({ txId: built.txId })).text)

      // Offline: the app opens, saying no node is reachable; the Ledger added from its tab (the account key read
      // through the Cardano app double).
      await waitForText(byId('node-offline'), 'no preprod node can be reached')
      await shot('opened')
      await byId('tab-hardware').click()
      await byId('hardware-add').click()
      await waitForText(byId('wallet-picker'), 'Ledger account 0')

      // The bare transaction: its inputs unread here, the net effect says what is unknown instead of a total.
      await importFile(unsignedPath)
      // The spent, collateral and reference inputs, named alike in the headline, the note and the net effect.
      const unread = /\d+ spent inputs?, 1 collateral input and 1 reference input could not be read/
      await waitForText(byId('net-effect'), unread)
      expect(await byId('net-effect').textContent()).not.toMatch(/receives/)
      expect(await byId('review-summary').textContent()).toMatch(unread)
      expect(await byId('review-warning').allTextContents()).toContainEqual(expect.stringMatching(unread))
      // The offline notice keeps a notice's gap above the screen's heading.
      const notice = await byId('node-offline').boundingBox()
      const title = await heading('Review: Imported transaction').boundingBox()
      expect(title!.y - (notice!.y + notice!.height)).toBeGreaterThanOrEqual(16)
      // The contract's step: its inputs, and that what the contract then does cannot be known here — no verdict.
      await waitForText(byId('review-summary'), 'the spent output was not read')
      expect(await byId('review-summary').textContent()).not.toContain('Opens a Marlowe contract')
      expect(await page.getByText('TEAmbiguousTimeIntervalError').count()).toBe(0)
      await shot('without-bundle')

      // The bundle: what the Ledger will show, then the user rejects on the device, then confirms.
      await importFile(bundlePath)
      await byId('device-steps').waitFor()
      expect(await byId('device-step').first().textContent()).toContain('Start signing a Plutus transaction')
      if (await byId('warnings-ack').isVisible()) await byId('warnings-ack').check()
      expect(await byId('device-sign-submit').textContent()).toContain('Sign on the Ledger and save the witness')
      await shot('steps')
      ledger = { confirm: (screen) => screen.kind !== 'confirm' }
      await byId('device-sign-submit').click()
      await waitForText(byId('device-sign').getByTestId('error'), 'rejected on the Ledger: nothing was signed')
      await waitForText(byId('device-sign-submit'), 'Review on the Ledger again')
      await shot('rejected')
      ledger = { confirm: () => true }
      const witness = await download(page, byId('device-sign-submit'), files)
      expect(witness.name).toBe(`${built.txId}.witness.json`)
      await waitForText(byId('witness-saved'), witness.name)
      await shot('witness')

      // Online again: the witness completes the build, and the sandbox confirms it.
      const text = readFileSync(witness.path, 'utf8')
      expect(await desk['tx.submitWitness']({ txId: built.txId, text })).toEqual({
        txId: built.txId,
        status: 'submitted'
      })
      await confirmed(built.txId)
    } finally {
      await context.close()
      await offline.stop()
      await online.stop()
      await sandbox.close()
      await apart.close()
    }
  }, 240_000)
})
