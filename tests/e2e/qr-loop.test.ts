/**
 * The offline round trip by animated QR codes in real Chromium (issue 16 §2): the online Desk's review screen
 * shows a new contract's review bundle as QR frames; those very frames, as the page drew them, become the camera
 * of a second Chromium (its fake capture device playing a Y4M file) on the offline Desk, which scans them with a
 * frame of another sequence among them (refused, and the scan goes on), reviews and signs; the witness QR it
 * shows goes back the same way to the online page's camera, which submits it: confirmed, on the sandbox. Then
 * the same offline Chromium scans that bundle's frames with some missed and the rest out of order (the fountain
 * codes recover them), and with one frame altered so the payload fails its checksum (refused on screen). Last,
 * a watch-only wallet of Carol's account signs with a Keystone: the page shows the `cardano-sign-request`, a
 * software stand-in for the Keystone (Carol's keys at the paths the request names, answering through Keystone's
 * own registry classes) shows the `cardano-signature` to the online camera; the build is submitted and confirmed.
 */
import { mkdtempSync, renameSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CardanoSignature, CardanoSignRequest } from '@keystonehq/bc-ur-registry-cardano'
import { URDecoder } from '@ngraveio/bc-ur'
import type { Locator, Page, Response } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { SandboxProvider } from '../../src/chain/sandbox'
import { sandboxWallet } from '../../src/chain/sandbox/wallets'
import type { KeystoneRequestShown } from '../../src/api/contract'
import { decodeWire } from '../../src/api/wire'
import { encodeAccountXvk } from '../../src/core/cardano/keys-bech32'
import { decodeTransaction } from '../../src/core/cardano/tx'
import { stringifyContract } from '../../src/core/marlowe/json'
import { CLOSE } from '../../src/core/marlowe/types'
import { QrReceiver } from '../../src/engine/qr-transfer'
import { CAROL_ACCOUNT, keystoneWitnessSet } from '../engine/hardware/support'
import { alteredFrame } from '../support/qr-frames'
import { drawnModules, qrModules, writeQrVideo, type ModuleMatrix } from './fake-camera'
import {
  SCREENSHOT_DIR,
  STEP_TIMEOUT_MS,
  launchChromiumWithCamera,
  missingPrerequisite,
  restoreOnFirstRun,
  screenshots,
  startUiHost,
  waitForText,
  type PageServer
} from './support'
import type { DeskHost } from '../../src/host/host'

const PASSWORD = 'correct horse battery staple'
const CONFIRM_TIMEOUT_MS = 60_000
/** Scanning a sequence of some tens of frames at 10 frames/s, on two loaded cores. */
const SCAN_TIMEOUT_MS = 90_000
const TX_ID = /^[0-9a-f]{64}$/
/** A Keystone's master fingerprint, as its user types it: Desk carries it in the request. */
const XFP = '0badcafe'

const alice = sandboxWallet('alice')
const missing = missingPrerequisite()

type Host = PageServer & { readonly host: DeskHost }
const closers: Array<() => Promise<void>> = []
let online: Host | undefined
let offline: Host | undefined
let videos = ''
/** Each camera's file: a new video is renamed onto it before its page starts the camera again. */
let bundleVideo = ''
let witnessVideo = ''
/** The first test's bundle: its frames' texts (from the engine's answer) and as the online page drew them. */
let bundle: { readonly txId: string; readonly parts: readonly string[]; readonly frames: ModuleMatrix[] } | undefined
/** The two Desks' pages, kept for the scans after the round trip. */
let onlinePage: Page | undefined
let offlinePage: Page | undefined
/** Each browser's page, screenshot if a test fails. */
const pages: Page[] = []

beforeAll(async () => {
  if (missing !== undefined) return
  videos = mkdtempSync(join(tmpdir(), 'marlowe-desk-e2e-camera-'))
  bundleVideo = join(videos, 'bundle.y4m')
  witnessVideo = join(videos, 'witness.y4m')
  closers.push(async () => rmSync(videos, { recursive: true, force: true }))
  // Two Desks, each on a ledger of its own: the offline one never sees the online one's chain.
  for (const side of ['online', 'offline'] as const) {
    const sandbox = SandboxProvider.open({ clockTickMs: false })
    closers.push(() => sandbox.close())
    const host = await startUiHost({ provider: sandbox, network: 'sandbox', close: async () => undefined })
    closers.push(() => host.stop())
    if (side === 'online') online = host
    else offline = host
  }
}, 60_000)

afterAll(async () => {
  for (const close of closers.reverse()) await close()
}, 30_000)

/** What the page-side reads use of the browser (these tests compile without the DOM library). */
interface FrameElement {
  readonly dataset: Readonly<Record<string, string | undefined>>
  getAttribute(name: string): string | null
  querySelector(selector: string): FrameElement | null
}
interface FrameGlobals {
  readonly document: { querySelector(selector: string): FrameElement | null }
  readonly MutationObserver: new (callback: () => void) => {
    observe(target: FrameElement, options: { attributes: boolean }): void
    disconnect(): void
  }
}
/** One frame as the player drew it: its index, its SVG viewBox side and its path of dark modules. */
interface DrawnFrame {
  readonly index: number
  readonly view: number
  readonly path: string
}

/**
 * Every frame of the player in `player`, as drawn: watched as the loop shows them until each of the `count` has
 * been seen.
 */
async function drawnFrames(player: Locator, count: number): Promise<ModuleMatrix[]> {
  const frames = await player.getByTestId('qr-frame').evaluate(
    (svg, n) =>
      new Promise<DrawnFrame[]>((done) => {
        const { MutationObserver } = globalThis as unknown as FrameGlobals
        const seen = new Map<number, DrawnFrame>()
        const read = (): void => {
          const index = Number(svg.dataset['frame'])
          const view = Number((svg.getAttribute('viewBox') ?? '').split(' ')[2])
          seen.set(index, { index, view, path: svg.querySelector('path')?.getAttribute('d') ?? '' })
          if (seen.size < n) return
          observer.disconnect()
          done([...seen.values()].sort((a, b) => a.index - b.index))
        }
        const observer = new MutationObserver(read)
        observer.observe(svg as unknown as FrameElement, { attributes: true })
        read()
      }),
    count
  )
  return frames.map((f) => drawnModules(f.view, f.path))
}

/** The review's transaction id, from its Raw tab. */
async function reviewTxId(page: Page): Promise<string> {
  await page.getByTestId('tab-raw').click()
  const txId = (await page.getByTestId('review-txid').textContent())?.trim() ?? ''
  await page.getByTestId('tab-outputs').click()
  expect(txId).toMatch(TX_ID)
  return txId
}

/** A screenshot of one panel of the page with a margin of the page around it, for the README. */
async function panelShot(page: Page, panel: Locator, name: string): Promise<void> {
  await panel.scrollIntoViewIfNeeded()
  const box = await panel.boundingBox()
  if (box === null) throw new Error(`${panel.toString()} is not shown`)
  const margin = 12
  await page.screenshot({
    path: join(SCREENSHOT_DIR, name),
    clip: { x: box.x - margin, y: box.y - margin, width: box.width + 2 * margin, height: box.height + 2 * margin }
  })
}

/** Uncaught exceptions and console errors, which fail the test. */
function collectPageErrors(page: Page, into: string[], side: string): void {
  page.on('pageerror', (e) => into.push(`${side}: ${e.message}`))
  page.on('console', (m) => {
    if (m.type() === 'error') into.push(`${side}: ${m.text()}`)
  })
}

/** The answer of the desk call `name` the page makes while `act` runs. */
async function deskAnswer<T>(page: Page, name: string, act: () => Promise<void>): Promise<T> {
  const [response] = await Promise.all([page.waitForResponse((r: Response) => r.url().endsWith(`/api/${name}`)), act()])
  const result = decodeWire(await response.text()) as { ok: boolean; value: T }
  if (!result.ok) throw new Error(`${name} failed: ${await response.text()}`)
  return result.value
}

/** Shows `codes` to the camera of `camera` that its page starts next (Chromium reads the file when it starts). */
function nextVideo(camera: string, codes: readonly ModuleMatrix[], holds: readonly number[] = []): void {
  const next = join(videos, 'next.y4m')
  writeQrVideo(next, codes, holds)
  renameSync(next, camera)
}

/** A fixed shuffle (a seeded Fisher–Yates), so a failure can be replayed. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items]
  let state = seed
  for (let i = out.length - 1; i > 0; i--) {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31
    const j = state % (i + 1)
    ;[out[i], out[j]] = [out[j]!, out[i]!]
  }
  return out
}

/** Whether Desk's own receiver completes the sequence from these frames, in this order. */
function completes(parts: readonly string[]): boolean {
  const receiver = new QrReceiver()
  for (const part of parts) receiver.receive(part)
  return receiver.result() !== undefined
}

/** On the offline page: a new scan of a review bundle, with the camera showing what was renamed in last. */
async function scanBundleAgain(page: Page): Promise<Locator> {
  await page.getByTestId('nav-offline').click()
  await page.getByTestId('offline-view').waitFor()
  await page.getByTestId('scan-bundle').click()
  return page.getByTestId('qr-scanner')
}

/** The selected wallet opens a waiting contract from the page; its review's transaction id. */
async function openWaitingContract(page: Page): Promise<string> {
  const byId = (id: string) => page.getByTestId(id)
  await byId('nav-new-contract').click()
  await byId('tab-json').click()
  await page.locator('[data-testid=contract-json] .cm-content').click()
  await page.keyboard.press('Control+A')
  await page.keyboard.insertText(waitingContractJson())
  await waitForText(byId('contract-json-status'), 'A valid Marlowe contract.')
  await byId('create-review').click()
  await page.getByRole('heading', { level: 1, name: 'Review: Open a contract' }).waitFor()
  return reviewTxId(page)
}

/** A contract that waits a day for nothing and closes: the smallest a wallet can open. */
function waitingContractJson(): string {
  const timeout = BigInt(Date.now()) + 86_400_000n
  return stringifyContract({ type: 'When', cases: [], timeout, timeoutContinuation: CLOSE })
}

/** Another contract's review bundle, built on the online Desk beside the page's, as QR frames. */
async function anotherSequence(host: DeskHost): Promise<readonly string[]> {
  const [wallet] = (await host.desk['wallets.list']({})).filter((w) => w.name === 'Alice')
  if (wallet === undefined) throw new Error('Alice is not among the online Desk’s wallets')
  const built = await host.desk['contracts.create']({
    walletId: wallet.id,
    contractJson: waitingContractJson(),
    roles: [],
    tags: []
  })
  const bundle = await host.desk['tx.exportBundle']({ txId: built.txId })
  return (await host.desk['qr.encode']({ kind: 'bundle', txId: built.txId, text: bundle.text })).parts
}

describe('animated QR codes between two Desks, each in its own Chromium with a camera', () => {
  test('bundle out by QR, scanned offline past a foreign frame, reviewed, signed; witness back; confirmed', async () => {
    if (missing !== undefined) throw new Error(missing)
    if (online === undefined || offline === undefined) throw new Error('setup failed')
    // The online camera's file is read when the page starts the camera: it is filled once the witness is shown.
    writeQrVideo(witnessVideo, [qrModules('NOTHING TO SEE YET')])
    const pageErrors: string[] = []
    /** A Chromium with `video` as its camera, on a Desk's page where Alice has been restored. */
    const openDesk = async (side: 'online' | 'offline', host: Host, video: string): Promise<Page> => {
      const browser = await launchChromiumWithCamera(video)
      closers.push(() => browser.close())
      const context = await browser.newContext({
        viewport: { width: 1280, height: 900 },
        locale: 'en-US',
        acceptDownloads: true
      })
      context.setDefaultTimeout(STEP_TIMEOUT_MS)
      const page = await context.newPage()
      pages.push(page)
      collectPageErrors(page, pageErrors, side)
      await page.goto(await host.nextLink())
      await restoreOnFirstRun(page, { name: 'Alice', mnemonic: alice.mnemonic, password: PASSWORD })
      return page
    }
    try {
      const page = await openDesk('online', online, witnessVideo)
      onlinePage = page
      const shot = screenshots(page, SCREENSHOT_DIR, 'qr-online')
      const byId = (id: string) => page.getByTestId(id)

      // Online: Alice opens a contract; its review shows the bundle as QR codes.
      const txId = await openWaitingContract(page)
      const sequence = await deskAnswer<{ parts: string[] }>(page, 'qr.encode', () => byId('export-qr').click())
      const player = byId('qr-player')
      await player.waitFor()
      const counter = /Frame \d+ of (\d+) \((\d+) carry the data once/.exec(
        (await byId('qr-counter').textContent()) ?? ''
      )
      const [parts, fragments] = [Number(counter?.[1]), Number(counter?.[2])]
      expect(fragments).toBeGreaterThan(1)
      expect(parts).toBeGreaterThanOrEqual(fragments)
      await shot('bundle-as-qr')
      await panelShot(page, page.locator('section[aria-labelledby=export-title]'), 'qr-panel-review.png')
      const frames = await drawnFrames(player, parts)
      expect(sequence.parts).toHaveLength(parts)
      bundle = { txId, parts: sequence.parts, frames }

      // The camera: the page's frames in order, another sequence's frame among them. The first is held while the
      // camera starts (4 s), so that the scan begins with this sequence and meets the other frame before it ends;
      // the next is held (5 s) while the refusal is looked at.
      const foreign = qrModules((await anotherSequence(online.host))[0]!)
      writeQrVideo(bundleVideo, [frames[0]!, foreign, ...frames.slice(1)], [40, 3, 50])

      // Offline: the camera reads the sequence, refuses the foreign frame, and goes on to the review.
      const desk = await openDesk('offline', offline, bundleVideo)
      offlinePage = desk
      const deskShot = screenshots(desk, SCREENSHOT_DIR, 'qr-offline')
      const deskId = (id: string) => desk.getByTestId(id)
      await deskId('nav-offline').click()
      await deskId('offline-view').waitFor()
      await deskId('scan-bundle').click()
      const scanner = deskId('qr-scanner')
      await waitForText(
        deskId('qr-progress'),
        new RegExp(`\\d+ frames received \\(${fragments} carry the data once\\)`)
      )
      await waitForText(scanner.getByTestId('error'), 'This frame belongs to another QR sequence', SCAN_TIMEOUT_MS)
      await panelShot(desk, scanner, 'qr-panel-scanner.png')
      await deskShot('scanning-foreign-frame-refused')
      await desk
        .getByRole('heading', { level: 1, name: 'Review: Imported transaction' })
        .waitFor({ timeout: SCAN_TIMEOUT_MS })
      expect(await reviewTxId(desk)).toBe(txId)
      await waitForText(deskId('review-summary'), 'Opens a Marlowe contract.')
      await deskShot('scanned-review')

      // Offline: signed into a witness, shown as one QR code.
      if (await deskId('sign-password').isVisible()) await deskId('sign-password').fill(PASSWORD)
      await Promise.all([desk.waitForEvent('download'), deskId('sign-offline').click()])
      const saved = deskId('witness-saved')
      await saved.getByTestId('qr-frame').waitFor()
      expect(await saved.getByTestId('qr-counter').count()).toBe(0)
      await deskShot('witness-as-qr')
      const witness = await drawnFrames(saved.getByTestId('qr-player'), 1)
      nextVideo(witnessVideo, witness)

      // Online: the camera reads the witness, which is submitted and confirmed.
      await byId('scan-witness').click()
      await byId('tx-confirmed').waitFor({ timeout: SCAN_TIMEOUT_MS + CONFIRM_TIMEOUT_MS })
      expect((await byId('tx-status').textContent())?.trim()).toBe('confirmed')
      expect(await online.host.desk['tx.status']({ txId })).toEqual({ txId, status: 'confirmed' })
      await shot('witness-scanned-confirmed')
      expect(pageErrors).toEqual([])
    } catch (e) {
      await failureShots('round-trip')
      throw e
    }
  }, 300_000)

  test('frames missed and out of order: the fountain codes recover them, and the same review opens', async () => {
    const { txId, parts, frames } = sent()
    const fragments = Number(/\/\d+-(\d+)\//.exec(parts[0]!)?.[1])
    // A third of the frames that carry a fragment once never reach the camera; the rest come shuffled. The
    // offset dropped is the first whose remaining frames Desk's own receiver completes, checked here first.
    const offset = [0, 1, 2].find((o) =>
      completes(
        shuffled(
          parts.filter((_, i) => i >= fragments || i % 3 !== o),
          7
        )
      )
    )
    expect(offset).toBeDefined()
    const kept = shuffled(
      frames.map((frame, i) => ({ frame, i })).filter(({ i }) => i >= fragments || i % 3 !== offset),
      7
    )
    expect(kept.length).toBeLessThan(parts.length)
    expect(kept.map(({ i }) => i)).not.toEqual([...kept.map(({ i }) => i)].sort((a, b) => a - b))
    nextVideo(
      bundleVideo,
      kept.map(({ frame }) => frame)
    )
    const page = pageOf('offline')
    try {
      await scanBundleAgain(page)
      await page
        .getByRole('heading', { level: 1, name: 'Review: Imported transaction' })
        .waitFor({ timeout: SCAN_TIMEOUT_MS })
      expect(await reviewTxId(page)).toBe(txId)
    } catch (e) {
      await failureShots('missed-frames')
      throw e
    }
  }, 150_000)

  test('a tampered payload: every frame well formed, the whole fails its checksum, refused on screen', async () => {
    const { parts, frames } = sent()
    const fragments = Number(/\/\d+-(\d+)\//.exec(parts[0]!)?.[1])
    // Only the frames that carry each fragment once, the first altered: the payload cannot complete without it.
    nextVideo(bundleVideo, [qrModules(alteredFrame(parts[0]!).toUpperCase()), ...frames.slice(1, fragments)])
    const page = pageOf('offline')
    try {
      const scanner = await scanBundleAgain(page)
      await waitForText(scanner.getByTestId('error'), 'the payload was altered', SCAN_TIMEOUT_MS)
      await screenshots(page, SCREENSHOT_DIR, 'qr-offline')('tampered-payload-refused')
      expect(await page.getByRole('heading', { level: 1, name: 'Review: Imported transaction' }).count()).toBe(0)
      await page.getByTestId('scan-bundle').click()
      expect(await scanner.count()).toBe(0)
    } catch (e) {
      await failureShots('tampered')
      throw e
    }
  }, 150_000)

  test('a Keystone signs a watch-only wallet’s build: sign request shown, its signature scanned back, confirmed', async () => {
    if (online === undefined) throw new Error('setup failed')
    const page = pageOf('online')
    const byId = (id: string) => page.getByTestId(id)
    try {
      // Carol's account as a watch-only wallet, as a Keystone user adds the account key the Keystone exports.
      const accountKey = encodeAccountXvk(CAROL_ACCOUNT.xvk)
      await byId('nav-wallet').click()
      await byId('add-wallet').click()
      await byId('tab-watch').click()
      await page.locator('#watch-name').fill('Carol on Keystone')
      await byId('watch-key').fill(accountKey)
      await byId('wallet-watch').click()
      await waitForText(byId('wallet-picker'), 'Carol on Keystone (watch-only)')
      const txId = await openWaitingContract(page)

      const panel = byId('keystone-sign')
      await panel.getByTestId('keystone-fingerprint').fill(XFP)
      const shown = await deskAnswer<KeystoneRequestShown>(page, 'tx.keystoneRequest', () =>
        panel.getByTestId('keystone-show').click()
      )
      await panel.getByTestId('qr-frame').waitFor()
      await panelShot(page, panel, 'qr-panel-keystone.png')

      // The Keystone's part: it reads the request, signs at the paths it names, and shows its signature.
      const decoder = new URDecoder()
      for (const part of shown.sequence.parts) if (!decoder.isComplete()) decoder.receivePart(part)
      const request = CardanoSignRequest.fromCBOR(decoder.resultUR().cbor)
      expect(request.getOrigin()).toBe('Marlowe Desk')
      expect(decodeTransaction(request.getSignData()).id).toBe(txId)
      const paths = [...new Set(request.getUtxos().map((u) => u.getKeyPath()))]
      const signature = new CardanoSignature(keystoneWitnessSet(txId, paths), request.getRequestId())
      nextVideo(witnessVideo, [qrModules(signature.toUREncoder(400).nextPart().toUpperCase())])

      await panel.getByTestId('keystone-scan').click()
      await byId('tx-confirmed').waitFor({ timeout: SCAN_TIMEOUT_MS + CONFIRM_TIMEOUT_MS })
      expect(await online.host.desk['tx.status']({ txId })).toEqual({ txId, status: 'confirmed' })
      await screenshots(page, SCREENSHOT_DIR, 'qr-online')('keystone-signed-confirmed')
    } catch (e) {
      await failureShots('keystone')
      throw e
    }
  }, 200_000)
})

function pageOf(side: 'online' | 'offline'): Page {
  const page = side === 'online' ? onlinePage : offlinePage
  if (page === undefined) throw new Error(`the round trip did not open the ${side} Desk`)
  return page
}

function sent(): NonNullable<typeof bundle> {
  if (bundle === undefined) throw new Error('the round trip did not get as far as drawing the bundle')
  return bundle
}

async function failureShots(test: string): Promise<void> {
  for (const [i, p] of pages.entries()) {
    await p
      .screenshot({
        path: join(SCREENSHOT_DIR, `qr-FAILED-${test}-${i === 0 ? 'online' : 'offline'}.png`),
        fullPage: true
      })
      .catch(() => undefined)
  }
}
