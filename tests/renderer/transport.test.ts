// @vitest-environment happy-dom
/** The two transports and how the one to use is chosen; the token leaves the address bar. */
import { describe, expect, test } from 'vitest'
import { DeskError } from '../../src/api/contract'
import { chooseTransport, httpTransport, takeAccessToken } from '../../src/renderer/src/api/transport'

describe('HTTP transport', () => {
  test('posts the wire text to /api/<call> with the bearer token and returns the answer as it came', async () => {
    const seen: Array<{ url: string; init: RequestInit | undefined }> = []
    const fetchFn = async (url: string | URL | Request, init?: RequestInit): Promise<Response> => {
      seen.push({ url: String(url), init })
      return new Response('{"ok":true,"value":{}}', { status: 200 })
    }
    const transport = httpTransport('http://127.0.0.1:3780', 's3cret', fetchFn as typeof fetch)
    expect(await transport.call('wallets.list', '{}')).toBe('{"ok":true,"value":{}}')
    expect(seen).toEqual([
      {
        url: 'http://127.0.0.1:3780/api/wallets.list',
        init: {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: 'Bearer s3cret' },
          body: '{}'
        }
      }
    ])
  })

  test('a refused token and an unreachable engine are readable errors', async () => {
    const answering = (code: number) => async (): Promise<Response> => new Response('no', { status: code })
    const refused = httpTransport('http://h', 'bad', answering(401) as typeof fetch).call('app.status', '{}')
    await expect(refused).rejects.toMatchObject({ code: 'unauthorized', message: expect.stringContaining('refused') })
    const missing = httpTransport('http://h', undefined, answering(401) as typeof fetch).call('app.status', '{}')
    await expect(missing).rejects.toMatchObject({ message: expect.stringContaining('#token=') })
    const notFound = httpTransport('http://h', 't', answering(404) as typeof fetch).call('app.status', '{}')
    await expect(notFound).rejects.toBeInstanceOf(DeskError)
    await expect(notFound).rejects.toMatchObject({ code: 'engine-unreachable' })
  })
})

describe('choosing the transport', () => {
  test('the token is read from the fragment, kept for the tab, and removed from the address', () => {
    window.history.replaceState(null, '', '/ui/?x=1#token=abc%2Fdef')
    expect(takeAccessToken(window)).toBe('abc/def')
    expect(window.location.hash).toBe('')
    expect(window.location.search).toBe('?x=1')
    expect(takeAccessToken(window)).toBe('abc/def')
  })

  test('the preload’s bridge is used when it is there', async () => {
    const calls: string[] = []
    const bridge = { call: async (name: string, wire: string) => (calls.push(`${name} ${wire}`), 'answer') }
    Reflect.set(window, 'marloweDesk', bridge)
    try {
      expect(await chooseTransport(window).call('app.status', '{}')).toBe('answer')
      expect(calls).toEqual(['app.status {}'])
    } finally {
      Reflect.deleteProperty(window, 'marloweDesk')
    }
  })
})
