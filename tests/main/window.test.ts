/**
 * The Electron main process, run in Node with `electron` mocked (no Electron binary can run here): the
 * window is locked down, navigation and new windows are refused, permissions denied, one instance only.
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { beforeEach, describe, expect, it, vi } from 'vitest'

interface Listener {
  (...args: unknown[]): unknown
}

const state = vi.hoisted(() => ({
  windows: [] as Array<{
    options: Record<string, unknown>
    handlers: Map<string, Listener>
    openHandler?: Listener
    loaded?: string
  }>,
  appHandlers: new Map<string, Listener>(),
  permissionHandler: undefined as Listener | undefined,
  gotLock: true,
  quit: vi.fn(),
  ready: undefined as (() => void) | undefined
}))

vi.mock('electron', () => {
  class BrowserWindow {
    readonly record: (typeof state.windows)[number]
    readonly webContents: { setWindowOpenHandler: (h: Listener) => void; on: (e: string, h: Listener) => void }
    constructor(options: Record<string, unknown>) {
      this.record = { options, handlers: new Map() }
      state.windows.push(this.record)
      this.webContents = {
        setWindowOpenHandler: (h) => {
          this.record.openHandler = h
        },
        on: (e, h) => {
          this.record.handlers.set(e, h)
        }
      }
    }
    once(): void {}
    show(): void {}
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
      whenReady: () => new Promise<void>((r) => (state.ready = r))
    },
    session: {
      defaultSession: {
        setPermissionRequestHandler: (h: Listener) => {
          state.permissionHandler = h
        }
      }
    }
  }
})

async function startMain(): Promise<void> {
  vi.resetModules()
  await import('../../src/main/index')
  state.ready?.()
  await new Promise((r) => setTimeout(r, 0))
}

beforeEach(() => {
  state.windows.length = 0
  state.appHandlers.clear()
  state.permissionHandler = undefined
  state.gotLock = true
  state.quit.mockReset()
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

  it('refuses navigation, new windows and every permission', async () => {
    await startMain()
    const w = state.windows[0]!
    expect(w.openHandler?.({ url: 'https://example.com' })).toEqual({ action: 'deny' })
    const event = { preventDefault: vi.fn() }
    w.handlers.get('will-navigate')?.(event, 'https://example.com')
    expect(event.preventDefault).toHaveBeenCalled()
    const callback = vi.fn()
    state.permissionHandler?.({}, 'media', callback)
    expect(callback).toHaveBeenCalledWith(false)
  })

  it('quits when another instance is already running', async () => {
    state.gotLock = false
    await startMain()
    expect(state.quit).toHaveBeenCalled()
    expect(state.windows).toHaveLength(0)
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
