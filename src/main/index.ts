/**
 * Electron main: one instance, one locked-down window, every permission denied but the camera for the app's page, the built page served on the
 * app's own scheme, and the engine behind one IPC handler that only the app's own page may call. The logic
 * lives in the modules beside this file.
 */
import { join } from 'node:path'
import { app, BrowserWindow, ipcMain, protocol, session } from 'electron'
import { APP_SCHEME, appPage, isAppFrame } from './app-page'
import { APP_SCHEME_REGISTRATION, appProtocolHandler } from './app-protocol'
import { openDeskEngine, type DeskEngine } from './engine'
import { registerDeskIpc } from './ipc'
import { permissionCheckHandler, permissionRequestHandler } from './permissions'
import { createWindow, lockDown } from './window'

const page = appPage(app.isPackaged, process.env['ELECTRON_RENDERER_URL'], join(__dirname, '..'))
const preloadPath = join(__dirname, '../preload/index.js')
const rules = { devTools: !app.isPackaged }

async function start(): Promise<DeskEngine> {
  session.defaultSession.setPermissionRequestHandler(permissionRequestHandler(page))
  session.defaultSession.setPermissionCheckHandler(permissionCheckHandler(page))
  const engine = await openDeskEngine(app.getPath('userData'), app.getVersion())
  registerDeskIpc(ipcMain, engine.desk, (frame) => isAppFrame(page, frame))
  if (page.kind === 'app') protocol.handle(APP_SCHEME, appProtocolHandler(page.root))
  createWindow(page, preloadPath, rules)
  return engine
}

if (!app.requestSingleInstanceLock()) {
  app.quit()
} else {
  // Only possible before ready: the scheme's privileges are fixed when Chromium starts.
  protocol.registerSchemesAsPrivileged([APP_SCHEME_REGISTRATION])
  app.on('web-contents-created', (_event, contents) => lockDown(contents, rules))
  app.on('second-instance', () => {
    const win = BrowserWindow.getAllWindows()[0]
    if (win === undefined) return
    if (win.isMinimized()) win.restore()
    win.focus()
  })
  const engine = app.whenReady().then(start)
  engine.catch((e: unknown) => {
    console.error('marlowe-desk: the engine could not start', e)
    app.quit()
  })
  app.on('window-all-closed', () => app.quit())
  let closed = false
  app.on('will-quit', (event) => {
    if (closed) return
    // Close the engine (lock wallets, flush files) before the process ends.
    event.preventDefault()
    closed = true
    void engine
      .then((e) => e.close())
      .catch(() => undefined)
      .finally(() => app.quit())
  })
}
