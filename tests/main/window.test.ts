/**
 * The Electron main process, run in Node with `electron` mocked (no Electron binary can run here) and the
 * engine stubbed: one locked-down window loaded from the app's own scheme, navigation of any frame, new windows,
 * webviews and permissions refused (but the camera for the app's page), no DevTools once packaged, one instance only, the engine opened under the
 * app's data directory behind one IPC handler, closed on quit.
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
  devToolsClosed: number
  setWindowOpenHandler(h: Listener): void
  on(e: string, h: Listener): void
  closeDevTools(): void
}

function fakeContents(): FakeContents {
  return {
    handlers: new Map(),
    devToolsClosed: 0,
    setWindowOpenHandler(h) {
      this.openHandler = h
    },
    on(e, h) {
      this.handlers.set(e, h)
    },
    closeDevTools() {
      this.devToolsClosed += 1
    }
  }
}

type ProtocolHandler = (request: Request) => Promise<Response>

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
  /** The privileged schemes registered, and whether the app was ready then. */
  schemes: [] as Array<{ registration: unknown; afterReady: boolean }>,
  protocolHandlers: new Map<string, ProtocolHandler>(),
  isReady: false,
  packaged: true,
  gotLock: true,
  quit: vi.fn(),
  ready: undefined as (() => void) | undefined,
  opened: [] as Array<[string, string]>,
  closed: 0,
  /** The URLs handed to the system browser. */
  external: [] as string[]
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
      get isPackaged() {
        return state.packaged
      },
      requestSingleInstanceLock: () => state.gotLock,
      quit: state.quit,
      on: (e: string, h: Listener) => state.appHandlers.set(e, h),
      whenReady: () => new Promise<void>((r) => (state.ready = r)),
      getPath: (name: string) => `/fake/${name}`,
      getVersion: () => '1.2.3'
    },
    ipcMain: { handle: (channel: string, h: Listener) => state.ipcHandlers.set(channel, h) },
    shell: {
      openExternal: async (url: string) => {
        state.external.push(url)
      }
    },
    protocol: {
      registerSchemesAsPrivileged: (schemes: unknown[]) => {
        for (const registration of schemes) state.schemes.push({ registration, afterReady: state.isReady })
      },
      handle: (scheme: string, h: ProtocolHandler) => state.protocolHandlers.set(scheme, h)
    },
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
  state.isReady = true
  state.ready?.()
  await settle()
}

/** A key press as Electron's before-input-event reports it. */
function key(
  code: string,
  key: string,
  modifiers: { control?: boolean; shift?: boolean; alt?: boolean; meta?: boolean }
) {
  return { type: 'keyDown', code, key, control: false, shift: false, alt: false, meta: false, ...modifiers }
}

beforeEach(() => {
  state.windows.length = 0
  state.appHandlers.clear()
  state.ipcHandlers.clear()
  state.permissionHandler = undefined
  state.permissionCheck = undefined
  state.schemes.length = 0
  state.protocolHandlers.clear()
  state.isReady = false
  state.packaged = true
  state.gotLock = true
  state.quit.mockReset()
  state.opened.length = 0
  state.closed = 0
  state.external.length = 0
})

describe('main window', () => {
  it('opens one sandboxed, context-isolated window without Node', async () => {
    await startMain()
    expect(state.windows).toHaveLength(1)
    const prefs = state.windows[0]!.options['webPreferences'] as Record<string, unknown>
    expect(prefs).toMatchObject({ sandbox: true, contextIsolation: true, nodeIntegration: false, webSecurity: true })
    expect(String(prefs['preload'])).toMatch(/preload[/\\]index\.js$/)
  })

  it('loads the built page from the app scheme, registered privileged before ready, never from file://', async () => {
    await startMain()
    expect(state.windows[0]!.loaded).toBe('app://desk/index.html')
    expect(state.schemes).toEqual([
      {
        registration: { scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true }) },
        afterReady: false
      }
    ])
    expect([...state.protocolHandlers.keys()]).toEqual(['app'])
  })

  it('serves the built renderer on that scheme, with its CSP, and nothing beside it', async () => {
    await startMain()
    const handle = state.protocolHandlers.get('app')!
    // Here main runs from src/main, so its renderer directory is src/renderer: its index.html is the page.
    const page = await handle(new Request('app://desk/index.html'))
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'")
    expect(await page.text()).toBe(readFileSync(resolve(__dirname, '../../src/renderer/index.html'), 'utf8'))
    for (const url of ['app://desk/..%2fmain%2findex.ts', 'app://desk/%2e%2e/main/index.ts', 'file:///etc/passwd']) {
      expect((await handle(new Request(url))).status, url).toBe(404)
    }
  })

  it('in development loads the dev server as before, with DevTools, and serves no scheme', async () => {
    state.packaged = false
    process.env['ELECTRON_RENDERER_URL'] = 'http://localhost:5173'
    try {
      await startMain()
    } finally {
      delete process.env['ELECTRON_RENDERER_URL']
    }
    expect(state.windows[0]!.loaded).toBe('http://localhost:5173')
    expect(state.windows[0]!.options['webPreferences']).toMatchObject({ devTools: true })
    expect(state.protocolHandlers.size).toBe(0)
    expect(state.windows[0]!.contents.handlers.has('before-input-event')).toBe(false)
  })

  it('packaged: DevTools switched off, their shortcuts swallowed, and closed should they open', async () => {
    await startMain()
    const { options, contents } = state.windows[0]!
    expect(options['webPreferences']).toMatchObject({ devTools: false })
    const input = contents.handlers.get('before-input-event')
    expect(input).toBeDefined()
    for (const press of [
      key('F12', 'F12', {}),
      key('KeyI', 'I', { control: true, shift: true }),
      key('KeyJ', 'J', { control: true, shift: true }),
      key('KeyC', 'C', { control: true, shift: true }),
      key('KeyI', 'ˆ', { meta: true, alt: true }),
      key('KeyJ', '∆', { meta: true, alt: true }),
      key('KeyC', 'C', { meta: true, shift: true }),
      // A layout where the letter sits elsewhere: matched by its meaning.
      key('KeyG', 'i', { control: true, shift: true })
    ]) {
      const event = { preventDefault: vi.fn() }
      input?.(event, press)
      expect(event.preventDefault, JSON.stringify(press)).toHaveBeenCalled()
    }
    for (const press of [
      key('KeyI', 'i', {}),
      key('KeyI', 'I', { shift: true }),
      key('KeyC', 'c', { control: true }),
      key('KeyV', 'v', { meta: true }),
      key('KeyR', 'r', { control: true, shift: true }),
      { ...key('F12', 'F12', {}), type: 'keyUp' }
    ]) {
      const event = { preventDefault: vi.fn() }
      input?.(event, press)
      expect(event.preventDefault, JSON.stringify(press)).not.toHaveBeenCalled()
    }
    contents.handlers.get('devtools-opened')?.()
    expect(contents.devToolsClosed).toBe(1)
  })

  it('refuses navigation, new windows, webviews and every permission', async () => {
    await startMain()
    const w = state.windows[0]!.contents
    expect(w.openHandler?.({ url: 'https://example.com' })).toEqual({ action: 'deny' })
    for (const e of ['will-navigate', 'will-frame-navigate', 'will-attach-webview']) {
      const event = { preventDefault: vi.fn() }
      w.handlers.get(e)?.(event, 'https://example.com')
      expect(event.preventDefault, e).toHaveBeenCalled()
    }
    const callback = vi.fn()
    state.permissionHandler?.({}, 'media', callback)
    expect(callback).toHaveBeenCalledWith(false)
    expect(state.permissionCheck?.({}, 'clipboard-read')).toBe(false)
  })

  it("grants the camera, video only, to the app's own page in its top frame, and nothing else", async () => {
    await startMain()
    const request = (permission: string, details: Record<string, unknown>): unknown => {
      const callback = vi.fn()
      state.permissionHandler?.({}, permission, callback, details)
      expect(callback).toHaveBeenCalledTimes(1)
      return callback.mock.calls[0]?.[0]
    }
    const app = { requestingUrl: 'app://desk/index.html#/offline', isMainFrame: true }
    expect(request('media', { ...app, mediaTypes: ['video'] })).toBe(true)
    expect(request('media', { ...app, mediaTypes: ['video', 'audio'] })).toBe(false)
    expect(request('media', { ...app, mediaTypes: ['audio'] })).toBe(false)
    expect(request('media', { ...app, mediaTypes: [] })).toBe(false)
    expect(request('media', { ...app, isMainFrame: false, mediaTypes: ['video'] })).toBe(false)
    expect(request('media', { requestingUrl: 'https://example.com/', isMainFrame: true, mediaTypes: ['video'] })).toBe(
      false
    )
    expect(request('display-capture', { ...app, mediaTypes: ['video'] })).toBe(false)
    expect(request('geolocation', app)).toBe(false)
    const check = (permission: string, origin: string, details: Record<string, unknown>): unknown =>
      state.permissionCheck?.({}, permission, origin, details)
    expect(check('media', 'app://desk', { mediaType: 'video', isMainFrame: true })).toBe(true)
    expect(check('media', 'app://desk', { mediaType: 'audio', isMainFrame: true })).toBe(false)
    expect(check('media', 'app://desk', { mediaType: 'video', isMainFrame: false })).toBe(false)
    expect(check('media', 'https://example.com', { mediaType: 'video', isMainFrame: true })).toBe(false)
    expect(check('clipboard-read', 'app://desk', { isMainFrame: true })).toBe(false)
  })

  it('opens a block explorer page in the system browser, never in a window, and nothing else', async () => {
    await startMain()
    const w = state.windows[0]!.contents
    const tx = `https://preprod.cardanoscan.io/transaction/${'ab'.repeat(32)}`
    const address = 'https://cardanoscan.io/address/addr1vx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzers66hrl8'
    for (const url of [tx, address]) expect(w.openHandler?.({ url })).toEqual({ action: 'deny' })
    const refused = [
      'https://example.com',
      'http://cardanoscan.io/transaction/' + 'ab'.repeat(32),
      'https://cardanoscan.io.evil.example/transaction/' + 'ab'.repeat(32),
      `https://cardanoscan.io/transaction/${'ab'.repeat(32)}?next=https://example.com`,
      'https://cardanoscan.io/',
      'file:///etc/passwd',
      'javascript:alert(1)'
    ]
    for (const url of refused) expect(w.openHandler?.({ url })).toEqual({ action: 'deny' })
    expect(state.external).toEqual([tx, address])
  })

  it('locks down every web contents the app creates, not only the window', async () => {
    await startMain()
    const other = fakeContents()
    state.appHandlers.get('web-contents-created')?.({}, other)
    expect(other.openHandler?.({ url: 'https://example.com' })).toEqual({ action: 'deny' })
    for (const e of ['will-navigate', 'will-frame-navigate', 'will-attach-webview']) {
      const event = { preventDefault: vi.fn() }
      other.handlers.get(e)?.(event, 'https://example.com')
      expect(event.preventDefault, e).toHaveBeenCalled()
    }
    expect(other.handlers.has('before-input-event')).toBe(true)
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
