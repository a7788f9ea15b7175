/**
 * The app's window and the rules every web contents follows: sandboxed, isolated, no Node, no navigation of
 * any frame away from the app's page, no new windows (an explorer link opens in the system browser instead),
 * no webviews, and in a packaged app no DevTools.
 */
import { BrowserWindow, shell, type Input, type WebContents } from 'electron'
import { isExplorerUrl } from '../core/cardano/explorer'
import type { AppPage } from './app-page'

export interface WindowRules {
  /**
   * DevTools only while developing (`!app.isPackaged`): in an installed app they would give anyone at the keyboard
   * a console on the page, and with it every desk call, outside the app's screens.
   */
  readonly devTools: boolean
}

/** Letters that open DevTools, the console or the element picker with Ctrl+Shift (Cmd+Alt or Cmd+Shift on macOS). */
const DEVTOOLS_LETTERS: ReadonlySet<string> = new Set(['i', 'j', 'c'])

/** Whether a key press is one of Chromium's or Electron's default menu's DevTools shortcuts. */
function opensDevTools(input: Pick<Input, 'type' | 'key' | 'code' | 'control' | 'shift' | 'alt' | 'meta'>): boolean {
  if (input.type !== 'keyDown') return false
  if (input.key === 'F12' || input.code === 'F12') return true
  // By the key's meaning or its place, so that no keyboard layout gets a way around.
  const letter = DEVTOOLS_LETTERS.has(input.key.toLowerCase()) || /^Key[IJC]$/.test(input.code)
  return letter && ((input.control && input.shift) || (input.meta && (input.alt || input.shift)))
}

/** Applied to every web contents the app creates (`app.on('web-contents-created')`). */
export function lockDown(contents: WebContents, rules: WindowRules): void {
  // A link with target=_blank lands here: only a block explorer's page leaves, and never in an app window.
  contents.setWindowOpenHandler(({ url }) => {
    if (isExplorerUrl(url)) void shell.openExternal(url)
    return { action: 'deny' }
  })
  contents.on('will-navigate', (event) => event.preventDefault())
  // will-navigate is the main frame's only: this one is every frame's, iframes included.
  contents.on('will-frame-navigate', (event) => event.preventDefault())
  contents.on('will-attach-webview', (event) => event.preventDefault())
  if (rules.devTools) return
  contents.on('before-input-event', (event, input) => {
    if (opensDevTools(input)) event.preventDefault()
  })
  // The webPreferences switch already refuses them; should anything open them anyway, close them at once.
  contents.on('devtools-opened', () => contents.closeDevTools())
}

export function createWindow(page: AppPage, preloadPath: string, rules: WindowRules): BrowserWindow {
  const win = new BrowserWindow({
    width: 1200,
    height: 800,
    show: false,
    webPreferences: {
      preload: preloadPath,
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      webSecurity: true,
      devTools: rules.devTools
    }
  })
  win.once('ready-to-show', () => win.show())
  lockDown(win.webContents, rules)
  void win.loadURL(page.url)
  return win
}
