// @vitest-environment happy-dom
/** The two transports and how the one to use is chosen; the UI secret leaves the address bar for a session. */
import { describe, expect, test } from 'vitest'
import { DeskError } from '../../src/api/contract'
import { chooseTransport, httpTransport, openSession } from '../../src/renderer/src/api/transport'

type Seen = Array<{ url: string; init: RequestInit | undefined }>

function recordingFetch(seen: Seen, answer: () => Response): typeof fetch {
  return (async (url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    seen.push({ url: String(url), init })
    return answer()
  }) as typeof fetch
}

describe('HTTP transport', () => {
  test('posts the wire text to /api/<call> with the session cookie only, and returns the answer as it came', async () => {
    const seen: Seen = []
    const fetchFn = recordingFetch(seen, () => new Response('{"ok":true,"value":{}}', { status: 200 }))
    const transport = httpTransport('http://127.0.0.1:3780', fetchFn)
    expect(await transport.call('wallets.list', '{}')).toBe('{"ok":true,"value":{}}')
    expect(seen).toEqual([
      {
        url: 'http://127.0.0.1:3780/api/wallets.list',
        init: {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          credentials: 'same-origin',
          body: '{}'
        }
      }
    ])
  })

  test('calls wait for the session to begin', async () => {
    const seen: Seen = []
    let begin: (start: 'opened') => void = () => undefined
    const session = new Promise<'opened'>((resolve) => (begin = resolve))
    const fetchFn = recordingFetch(seen, () => new Response('{}', { status: 200 }))
    const answer = httpTransport('http://h', fetchFn, session).call('app.status', '{}')
    await Promise.resolve()
    expect(seen).toHaveLength(0)
    begin('opened')
    expect(await answer).toBe('{}')
    expect(seen).toHaveLength(1)
  })

  test('a refusal says why and what to open; an unreachable engine is a readable error', async () => {
    const answering = (code: number) => async (): Promise<Response> => new Response('no', { status: code })
    const call = (code: number, start: 'opened' | 'refused' | 'none') =>
      httpTransport('http://h', answering(code) as typeof fetch, Promise.resolve(start)).call('app.status', '{}')
    await expect(call(401, 'refused')).rejects.toMatchObject({
      code: 'unauthorized',
      message: expect.stringContaining('already used')
    })
    await expect(call(401, 'none')).rejects.toMatchObject({ message: expect.stringContaining('no session') })
    await expect(call(403, 'opened')).rejects.toMatchObject({ message: expect.stringContaining('has ended') })
    for (const start of ['opened', 'refused', 'none'] as const) {
      await expect(call(401, start)).rejects.toMatchObject({
        message: expect.stringContaining('marlowe-desk serve --ui` printed')
      })
    }
    const notFound = call(404, 'opened')
    await expect(notFound).rejects.toBeInstanceOf(DeskError)
    await expect(notFound).rejects.toMatchObject({ code: 'engine-unreachable' })
  })
})

describe('opening the session', () => {
  test('the secret leaves the address before it is exchanged, and is sent once in a POST body', async () => {
    window.history.replaceState(null, '', '/ui/?x=1#secret=abc-DEF_1')
    const seen: Seen = []
    const fetchFn = recordingFetch(seen, () => new Response(null, { status: 204 }))
    const opening = openSession(window, fetchFn)
    expect(window.location.hash).toBe('')
    expect(window.location.href).not.toContain('abc-DEF_1')
    expect(window.location.search).toBe('?x=1')
    expect(await opening).toBe('opened')
    expect(seen).toEqual([
      {
        url: `${window.location.origin}/ui/session`,
        init: {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          credentials: 'same-origin',
          body: '{"secret":"abc-DEF_1"}'
        }
      }
    ])
    // A reload finds no secret: the cookie, if any, is the session.
    expect(await openSession(window, fetchFn)).toBe('none')
    expect(seen).toHaveLength(1)
  })

  test('a refused secret or a failed exchange is "refused"', async () => {
    window.history.replaceState(null, '', '/ui/#secret=used')
    expect(await openSession(window, (async () => new Response('', { status: 401 })) as typeof fetch)).toBe('refused')
    window.history.replaceState(null, '', '/ui/#secret=again')
    const failing = (async () => Promise.reject(new Error('offline'))) as typeof fetch
    expect(await openSession(window, failing)).toBe('refused')
  })
})

describe('choosing the transport', () => {
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
