/**
 * The Electron main process, run in Node with `electron` mocked (no Electron binary can run here) and the
 * engine stubbed: one locked-down window, navigation, new windows, webviews and permissions refused, one
 * instance only, the engine opened under the app's data directory behind one IPC handler, closed on quit.
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { DESK_IPC_CHANNEL } from '../../src/api/contract'

interface Listener {
  (...args: unknown[]): unknown
}

interface FakeContents {
  readonly handlers: Map<string, Listener>
  openHandler?: Listener
  setWindowOpenHandler(h: Listener): void
  on(e: string, h: Listener): void
}

function fakeContents(): FakeContents {
  return {
    handlers: new Map(),
    setWindowOpenHandler(h) {
      this.openHandler = h
    },
    on(e, h) {
      this.handlers.set(e, h)
    }
  }
}

const state = vi.hoisted(() => ({
  windows: [] as Array<{
    options: Record<string, unknown>
    contents: FakeContents
    loaded?: string
    focused: number
    restored: number
    minimized: boolean
  }>,
  appHandlers: new Map<string, Listener>(),
  ipcHandlers: new Map<string, Listener>(),
  permissionHandler: undefined as Listener | undefined,
  permissionCheck: undefined as Listener | undefined,
  gotLock: true,
  quit: vi.fn(),
  ready: undefined as (() => void) | undefined,
  opened: [] as Array<[string, string]>,
  closed: 0
}))

vi.mock('electron', () => {
  class BrowserWindow {
    readonly record: (typeof state.windows)[number]
    readonly webContents: FakeContents
    constructor(options: Record<string, unknown>) {
      this.webContents = fakeContents()
      this.record = { options, contents: this.webContents, focused: 0, restored: 0, minimized: true }
      state.windows.push(this.record)
    }
    static getAllWindows(): BrowserWindow[] {
      return state.windows.map((record) => Object.assign(Object.create(BrowserWindow.prototype), { record }))
    }
    once(): void {}
    show(): void {}
    isMinimized(): boolean {
      return this.record.minimized
    }
    restore(): void {
      this.record.restored += 1
    }
    focus(): void {
      this.record.focused += 1
    }
    loadFile(path: string): Promise<void> {
      this.record.loaded = path
      return Promise.resolve()
    }
    loadURL(url: string): Promise<void> {
      this.record.loaded = url
      return Promise.resolve()
    }
  }
  return {
    BrowserWindow,
    app: {
      isPackaged: true,
      requestSingleInstanceLock: () => state.gotLock,
      quit: state.quit,
      on: (e: string, h: Listener) => state.appHandlers.set(e, h),
      whenReady: () => new Promise<void>((r) => (state.ready = r)),
      getPath: (name: string) => `/fake/${name}`,
      getVersion: () => '1.2.3'
    },
    ipcMain: { handle: (channel: string, h: Listener) => state.ipcHandlers.set(channel, h) },
    session: {
      defaultSession: {
        setPermissionRequestHandler: (h: Listener) => {
          state.permissionHandler = h
        },
        setPermissionCheckHandler: (h: Listener) => {
          state.permissionCheck = h
        }
      }
    }
  }
})

vi.mock('../../src/main/engine', () => ({
  openDeskEngine: async (dataDir: string, version: string) => {
    state.opened.push([dataDir, version])
    return { desk: {}, close: async () => void (state.closed += 1) }
  }
}))

const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 0))

async function startMain(): Promise<void> {
  vi.resetModules()
  await import('../../src/main/index')
  state.ready?.()
  await settle()
}

beforeEach(() => {
  state.windows.length = 0
  state.appHandlers.clear()
  state.ipcHandlers.clear()
  state.permissionHandler = undefined
  state.permissionCheck = undefined
  state.gotLock = true
  state.quit.mockReset()
  state.opened.length = 0
  state.closed = 0
})

describe('main window', () => {
  it('opens one sandboxed, context-isolated window without Node', async () => {
    await startMain()
    expect(state.windows).toHaveLength(1)
    const prefs = state.windows[0]!.options['webPreferences'] as Record<string, unknown>
    expect(prefs).toMatchObject({ sandbox: true, contextIsolation: true, nodeIntegration: false, webSecurity: true })
    expect(String(prefs['preload'])).toMatch(/preload[/\\]index\.js$/)
    expect(state.windows[0]!.loaded).toMatch(/renderer[/\\]index\.html$/)
  })

  it('refuses navigation, new windows, webviews and every permission', async () => {
    await startMain()
    const w = state.windows[0]!.contents
    expect(w.openHandler?.({ url: 'https://example.com' })).toEqual({ action: 'deny' })
    for (const e of ['will-navigate', 'will-attach-webview']) {
      const event = { preventDefault: vi.fn() }
      w.handlers.get(e)?.(event, 'https://example.com')
      expect(event.preventDefault, e).toHaveBeenCalled()
    }
    const callback = vi.fn()
    state.permissionHandler?.({}, 'media', callback)
    expect(callback).toHaveBeenCalledWith(false)
    expect(state.permissionCheck?.({}, 'clipboard-read')).toBe(false)
  })

  it('locks down every web contents the app creates, not only the window', async () => {
    await startMain()
    const other = fakeContents()
    state.appHandlers.get('web-contents-created')?.({}, other)
    expect(other.openHandler?.({ url: 'https://example.com' })).toEqual({ action: 'deny' })
    const event = { preventDefault: vi.fn() }
    other.handlers.get('will-navigate')?.(event, 'https://example.com')
    expect(event.preventDefault).toHaveBeenCalled()
  })

  it('quits when another instance is already running, and focuses the window for a second one', async () => {
    state.gotLock = false
    await startMain()
    expect(state.quit).toHaveBeenCalled()
    expect(state.windows).toHaveLength(0)
    expect(state.opened).toEqual([])

    state.gotLock = true
    await startMain()
    state.appHandlers.get('second-instance')?.()
    expect(state.windows[0]).toMatchObject({ restored: 1, focused: 1 })
  })
})

describe('the engine behind IPC', () => {
  it('opens the engine in the app data directory and registers exactly one handler', async () => {
    await startMain()
    expect(state.opened).toEqual([['/fake/userData', '1.2.3']])
    expect([...state.ipcHandlers.keys()]).toEqual([DESK_IPC_CHANNEL])
  })

  it('closes the engine before the app quits', async () => {
    await startMain()
    const event = { preventDefault: vi.fn() }
    state.appHandlers.get('will-quit')?.(event)
    expect(event.preventDefault).toHaveBeenCalled()
    await settle()
    expect(state.closed).toBe(1)
    expect(state.quit).toHaveBeenCalledTimes(1)
    // The second will-quit (from that quit) goes through.
    const again = { preventDefault: vi.fn() }
    state.appHandlers.get('will-quit')?.(again)
    expect(again.preventDefault).not.toHaveBeenCalled()
  })
})

describe('renderer page', () => {
  it('carries a strict Content-Security-Policy', () => {
    const html = readFileSync(resolve(__dirname, '../../src/renderer/index.html'), 'utf8')
    const csp = /Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1] ?? ''
    expect(csp).toContain("default-src 'self'")
    expect(csp).toContain("script-src 'self'")
    expect(csp).toContain("object-src 'none'")
    expect(csp).not.toContain('unsafe-inline')
    expect(csp).not.toContain('unsafe-eval')
  })
})
