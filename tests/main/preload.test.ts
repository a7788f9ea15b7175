/**
 * The preload, run in Node with `electron` mocked: it exposes exactly one frozen object with one function,
 * which sends only known calls with wire text over the one channel.
 */
import { beforeAll, describe, expect, test, vi } from 'vitest'
import { DESK_IPC_CHANNEL } from '../../src/api/contract'

const state = vi.hoisted(() => ({
  exposed: [] as Array<[string, unknown]>,
  invoked: [] as unknown[][]
}))

vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, api: unknown) => state.exposed.push([key, api]) },
  ipcRenderer: {
    invoke: async (...args: unknown[]) => {
      state.invoked.push(args)
      return '{"ok":true,"value":{}}'
    }
  }
}))

interface Bridge {
  call(name: unknown, requestWire: unknown): Promise<string>
}

let bridge: Bridge

beforeAll(async () => {
  await import('../../src/preload/index')
  bridge = state.exposed[0]![1] as Bridge
})

describe('preload', () => {
  test('exposes exactly one frozen object, marloweDesk, with one function', () => {
    expect(state.exposed.map(([key]) => key)).toEqual(['marloweDesk'])
    expect(Object.isFrozen(bridge)).toBe(true)
    expect(Object.keys(bridge)).toEqual(['call'])
    expect(() => Object.assign(bridge, { send: () => undefined })).toThrow()
  })

  test('a known call goes over the one channel with its wire text', async () => {
    expect(await bridge.call('wallets.list', '{}')).toBe('{"ok":true,"value":{}}')
    expect(state.invoked).toEqual([[DESK_IPC_CHANNEL, 'wallets.list', '{}']])
  })

  test('unknown names and non-text requests never reach IPC', async () => {
    state.invoked.length = 0
    await expect(bridge.call('wallets.export', '{}')).rejects.toThrow(/no call named/)
    await expect(bridge.call('__proto__', '{}')).rejects.toThrow(/no call named/)
    await expect(bridge.call(1, '{}')).rejects.toThrow(/no call named/)
    await expect(bridge.call('app.status', { toTime: 1 })).rejects.toThrow(/wire text/)
    expect(state.invoked).toEqual([])
  })
})
