/** The UI secret and sessions on their own: one use per secret, a fresh one announced, idle sessions forgotten. */
import { describe, expect, test } from 'vitest'
import { sessionCookie, sessionIdOf, UiSessions } from '../../src/server/ui-sessions'

describe('UiSessions', () => {
  test('a secret opens one session, and the next secret is announced', () => {
    const announced: string[] = []
    const sessions = new UiSessions({ onSecretRenewed: (secret) => announced.push(secret) })
    const first = sessions.secret
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(sessions.exchange('')).toBeUndefined()
    expect(sessions.exchange(first.slice(1))).toBeUndefined()
    expect(announced).toEqual([])
    const id = sessions.exchange(first)
    expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(sessions.exchange(first)).toBeUndefined()
    expect(announced).toEqual([sessions.secret])
    expect(sessions.secret).not.toBe(first)
    expect(sessions.admits(id)).toBe(true)
    expect(sessions.admits(undefined)).toBe(false)
    expect(sessions.admits(first)).toBe(false)
  })

  test('a session unused for the idle time is forgotten; using it keeps it alive', () => {
    let now = 0
    const sessions = new UiSessions({ idleMs: 1000, now: () => now })
    const kept = sessions.exchange(sessions.secret)
    const idle = sessions.exchange(sessions.secret)
    now = 900
    expect(sessions.admits(kept)).toBe(true)
    now = 1000
    expect(sessions.admits(idle)).toBe(false)
    expect(sessions.admits(kept)).toBe(true)
    now = 2000
    expect(sessions.admits(kept)).toBe(false)
  })
})

describe('the session cookie', () => {
  const id = 'a'.repeat(43)

  test('is HttpOnly, SameSite=Strict, for the whole origin, named for its port', () => {
    expect(sessionCookie(3780, id)).toBe(`marlowe-desk-session-3780=${id}; HttpOnly; SameSite=Strict; Path=/`)
  })

  test('is read for this port only, and only in the shape the server makes', () => {
    expect(sessionIdOf(`theme=dark; marlowe-desk-session-3780=${id}`, 3780)).toBe(id)
    expect(sessionIdOf(`marlowe-desk-session-3781=${id}`, 3780)).toBeUndefined()
    expect(sessionIdOf('marlowe-desk-session-3780=short', 3780)).toBeUndefined()
    expect(sessionIdOf(undefined, 3780)).toBeUndefined()
  })
})
