/**
 * The one IPC handler and its sender check, without Electron: only the top frame of the app's own page may
 * call, only with a known call name and wire text; anything else is refused before the desk sees it. Through a
 * real desk, no answer carries key material.
 */
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, describe, expect, test } from 'vitest'
import { DESK_CALLS, DESK_IPC_CHANNEL, type DeskResult } from '../../src/api/contract'
import { decodeWire, encodeWire } from '../../src/api/wire'
import { sandboxWallet } from '../../src/chain/sandbox'
import { bytesToHex } from '../../src/core/bytes'
import type { DeskHandlers } from '../../src/engine/desk'
import { appPage, isAppFrame, type AppPage, type SenderFrame } from '../../src/main/app-page'
import { registerDeskIpc, type InvokeEvent } from '../../src/main/ipc'
import { deskHarness, PASSWORD, type DeskHarness } from '../engine/desk/support'

type Handler = (event: InvokeEvent, ...args: unknown[]) => Promise<string>

const OUT = '/opt/Marlowe Desk/resources/app.asar/out'
const PACKAGED_PAGE = appPage(true, 'http://localhost:5173', OUT)
const PAGE_URL = 'app://desk/index.html'
/** Where the page came from before it had its own scheme: no longer the app. */
const FILE_URL = pathToFileURL(join(OUT, 'renderer', 'index.html')).href
const top = (url: string): SenderFrame => ({ url, parent: null })

/** Registers the handler on a fake ipcMain and returns it. */
function handlerFor(desk: DeskHandlers, page: AppPage = PACKAGED_PAGE): Handler {
  const handlers = new Map<string, Handler>()
  registerDeskIpc({ handle: (channel, h) => handlers.set(channel, h) }, desk, (frame) => isAppFrame(page, frame), {
    logError: () => undefined
  })
  expect([...handlers.keys()]).toEqual([DESK_IPC_CHANNEL])
  return handlers.get(DESK_IPC_CHANNEL)!
}

/** A desk whose every call answers a sandbox status with the time it was asked for (valid for sandbox.advance). */
const echoDesk = Object.fromEntries(
  DESK_CALLS.map((name) => [
    name,
    async (request: { readonly toTime?: bigint }) => ({
      version: '0.1.0',
      network: 'sandbox',
      tip: { slot: 1n, blockNo: 1n, time: request.toTime ?? 0n },
      chainTime: request.toTime ?? 0n
    })
  ])
) as unknown as DeskHandlers

describe('the app page', () => {
  test('packaged: the built renderer on the app scheme, whatever the dev URL says', () => {
    expect(PACKAGED_PAGE).toEqual({ kind: 'app', url: PAGE_URL, root: join(OUT, 'renderer') })
    expect(appPage(false, 'http://localhost:5173', OUT)).toEqual({ kind: 'dev', url: 'http://localhost:5173' })
    expect(appPage(false, undefined, OUT)).toEqual(PACKAGED_PAGE)
  })

  test('only the top frame of that page is the app', () => {
    expect(isAppFrame(PACKAGED_PAGE, top(PAGE_URL))).toBe(true)
    expect(isAppFrame(PACKAGED_PAGE, top(`${PAGE_URL}#/contracts?x=1`))).toBe(true)
    for (const url of [
      FILE_URL,
      `${FILE_URL}#/contracts`,
      `${PAGE_URL}.evil.html`,
      'app://desk/other.html',
      'app://desk/',
      'app://desk/assets/index.html',
      'app://desk.evil/index.html',
      'app://evil.desk/index.html',
      'app://user@desk/index.html',
      'app://desk:8080/index.html',
      'app:desk/index.html',
      'other://desk/index.html',
      'https://desk/index.html',
      pathToFileURL('/tmp/index.html').href,
      'https://example.com/out/renderer/index.html',
      'http://localhost:5173/',
      'not a url',
      ''
    ]) {
      expect(isAppFrame(PACKAGED_PAGE, top(url)), url).toBe(false)
    }
    expect(isAppFrame(PACKAGED_PAGE, { url: PAGE_URL, parent: {} })).toBe(false)
    expect(isAppFrame(PACKAGED_PAGE, null)).toBe(false)
    const dev: AppPage = { kind: 'dev', url: 'http://localhost:5173/' }
    expect(isAppFrame(dev, top('http://localhost:5173/#/wallet'))).toBe(true)
    expect(isAppFrame(dev, top('http://localhost:5174/'))).toBe(false)
    expect(isAppFrame(dev, top('http://localhost:5173.evil.com/'))).toBe(false)
    expect(isAppFrame(dev, top(PAGE_URL))).toBe(false)
  })
})

describe('registerDeskIpc', () => {
  const handle = handlerFor(echoDesk)

  test('the app page gets the desk’s answer as wire text', async () => {
    const answer = await handle({ senderFrame: top(PAGE_URL) }, 'sandbox.advance', encodeWire({ toTime: 5n }))
    expect(decodeWire(answer)).toEqual({
      ok: true,
      value: { version: '0.1.0', network: 'sandbox', tip: { slot: 1n, blockNo: 1n, time: 5n }, chainTime: 5n }
    })
  })

  test('foreign senders are refused', async () => {
    for (const senderFrame of [
      top('https://example.com/'),
      { url: PAGE_URL, parent: { url: PAGE_URL } },
      top(pathToFileURL('/home/me/Downloads/index.html').href),
      top(FILE_URL),
      null
    ]) {
      await expect(handle({ senderFrame }, 'app.status', '{}')).rejects.toThrow(/refused/)
    }
  })

  test('unknown call names and malformed payloads are refused', async () => {
    const event = { senderFrame: top(PAGE_URL) }
    for (const args of [
      ['wallets.export', '{}'],
      ['constructor', '{}'],
      [42, '{}'],
      ['app.status'],
      ['app.status', {}],
      ['app.status', undefined],
      ['app.status', '{}', 'extra']
    ]) {
      await expect(handle(event, ...args), JSON.stringify(args)).rejects.toThrow(/refused/)
    }
  })

  test('wire text that is not a valid request is a DeskResult error, not a rejection', async () => {
    const event = { senderFrame: top(PAGE_URL) }
    for (const wire of ['{', '{"walletId": 7}', '[]']) {
      const answer = decodeWire(await handle(event, 'wallets.balance', wire)) as DeskResult<unknown>
      expect(answer).toMatchObject({ ok: false, error: { code: 'InvalidRequest' } })
    }
  })
})

describe('through a real desk', () => {
  let h: DeskHarness
  afterAll(() => h?.close())

  test('no answer carries a phrase, a signing key or a password', async () => {
    h = await deskHarness()
    const handle = handlerFor(h.desk)
    const event = { senderFrame: top(PAGE_URL) }
    const answers: string[] = []
    const send = async (name: string, request: unknown): Promise<unknown> => {
      const answer = await handle(event, name, encodeWire(request))
      answers.push(answer)
      return decodeWire(answer)
    }
    const alice = sandboxWallet('alice')
    const restored = (await send('wallets.restore', {
      name: 'alice',
      password: PASSWORD,
      mnemonic: alice.mnemonic
    })) as {
      value: { id: string }
    }
    const walletId = restored.value.id
    await send('wallets.unlock', { walletId, password: PASSWORD })
    await send('wallets.list', {})
    await send('wallets.balance', { walletId })
    await send('wallets.unlock', { walletId, password: 'wrong password' })
    await send('wallets.restore', { name: 'again', password: PASSWORD, mnemonic: alice.mnemonic })
    await send('wallets.lock', { walletId })
    const all = answers.join('\n')
    expect(all).toContain(walletId)
    expect(all).not.toContain(alice.mnemonic.split(' ').slice(0, 3).join(' '))
    expect(all).not.toContain(bytesToHex(alice.paymentSigningKey.subarray(0, 32)))
    expect(all).not.toContain(PASSWORD)
  })
})
