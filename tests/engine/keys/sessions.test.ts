import { describe, expect, it } from 'vitest'
import { Sessions, type SessionSecret } from '../../../src/engine/keys/sessions'
import { ManualTime } from './support'

const IDLE = 60_000

function secret(): SessionSecret & { kind: 'single-key' } {
  return { kind: 'single-key', verificationKey: new Uint8Array(32), signingKey: new Uint8Array(32).fill(7) }
}

function setup() {
  const time = new ManualTime()
  const autoLocked: string[] = []
  const sessions = new Sessions({
    clock: time.clock,
    schedule: time.schedule,
    idleMs: IDLE,
    onAutoLock: (id) => autoLocked.push(id)
  })
  return { time, sessions, autoLocked }
}

describe('unlocked wallet sessions', () => {
  it('locks a wallet after the idle time, zeroing its secret', () => {
    const { time, sessions, autoLocked } = setup()
    const held = secret()
    sessions.start('a', held)
    time.advance(IDLE - 1)
    expect(sessions.isOpen('a')).toBe(true)
    time.advance(1)
    expect(sessions.isOpen('a')).toBe(false)
    expect(held.signingKey.every((byte) => byte === 0)).toBe(true)
    expect(autoLocked).toEqual(['a'])
    expect(time.pendingTasks).toBe(0)
  })

  it('counts each use as activity', () => {
    const { time, sessions, autoLocked } = setup()
    sessions.start('a', secret())
    time.advance(IDLE - 10)
    expect(sessions.use('a')).toBeDefined()
    time.advance(IDLE - 10)
    expect(sessions.isOpen('a')).toBe(true)
    time.advance(10)
    expect(sessions.isOpen('a')).toBe(false)
    expect(autoLocked).toEqual(['a'])
  })

  it('tells when a wallet will lock, moved on by each use', () => {
    const { time, sessions } = setup()
    const start = time.clock.now()
    expect(sessions.locksAt('a')).toBeUndefined()
    sessions.start('a', secret())
    expect(sessions.locksAt('a')).toBe(start + IDLE)
    time.advance(10)
    expect(sessions.locksAt('a')).toBe(start + IDLE)
    sessions.use('a')
    expect(sessions.locksAt('a')).toBe(start + 10 + IDLE)
    time.advance(IDLE + 10)
    expect(sessions.locksAt('a')).toBeUndefined()
  })

  it('does not count a status check as activity', () => {
    const { time, sessions } = setup()
    sessions.start('a', secret())
    time.advance(IDLE - 10)
    expect(sessions.isOpen('a')).toBe(true)
    time.advance(10)
    expect(sessions.isOpen('a')).toBe(false)
  })

  it('locks on use when the clock shows the idle time passed though no timer ran (sleep)', () => {
    const { time, sessions, autoLocked } = setup()
    const held = secret()
    sessions.start('a', held)
    time.jump(IDLE)
    expect(sessions.use('a')).toBeUndefined()
    expect(held.signingKey.every((byte) => byte === 0)).toBe(true)
    expect(autoLocked).toEqual(['a'])
  })

  it('locks by hand without reporting an auto-lock, and cancels the timer', () => {
    const { time, sessions, autoLocked } = setup()
    const held = secret()
    sessions.start('a', held)
    expect(sessions.end('a')).toBe(true)
    expect(sessions.end('a')).toBe(false)
    expect(held.signingKey.every((byte) => byte === 0)).toBe(true)
    expect(time.pendingTasks).toBe(0)
    time.advance(IDLE)
    expect(autoLocked).toEqual([])
  })

  it('replaces a session on a second unlock, zeroing the first secret', () => {
    const { time, sessions, autoLocked } = setup()
    const first = secret()
    const second = secret()
    sessions.start('a', first)
    time.advance(IDLE / 2)
    sessions.start('a', second)
    expect(first.signingKey.every((byte) => byte === 0)).toBe(true)
    time.advance(IDLE / 2)
    expect(sessions.use('a')).toBe(second)
    expect(time.pendingTasks).toBe(1)
    time.advance(IDLE)
    expect(autoLocked).toEqual(['a'])
  })

  it('locks every wallet at once', () => {
    const { sessions } = setup()
    const a = secret()
    const b = secret()
    sessions.start('a', a)
    sessions.start('b', b)
    sessions.endAll()
    expect([sessions.isOpen('a'), sessions.isOpen('b')]).toEqual([false, false])
    expect([...a.signingKey, ...b.signingKey].every((byte) => byte === 0)).toBe(true)
  })
})
