/**
 * The app's window and the rules every web contents follows: sandboxed, isolated, no Node, no navigation away
 * from the app's page, no new windows, no webviews.
 */
import { BrowserWindow, type WebContents } from 'electron'
import type { AppPage } from './app-page'

/** Applied to every web contents the app creates (`app.on('web-contents-created')`). */
export function lockDown(contents: WebContents): void {
  contents.setWindowOpenHandler(() => ({ action: 'deny' }))
  contents.on('will-navigate', (event) => event.preventDefault())
  contents.on('will-attach-webview', (event) => event.preventDefault())
}

export function createWindow(page: AppPage, preloadPath: string): BrowserWindow {
  const win = new BrowserWindow({
    width: 1200,
    height: 800,
    show: false,
    webPreferences: {
      preload: preloadPath,
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      webSecurity: true
    }
  })
  win.once('ready-to-show', () => win.show())
  lockDown(win.webContents)
  if (page.kind === 'dev') void win.loadURL(page.url)
  else void win.loadFile(page.path)
  return win
}
