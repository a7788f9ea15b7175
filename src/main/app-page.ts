/**
 * Where the app's own page comes from, and whether a frame is that page: the dev server's origin while
 * developing, else the built `index.html` file. IPC from any other frame — an iframe, a page navigated
 * elsewhere, a file that is not ours — is refused.
 */
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

export type AppPage = { readonly kind: 'dev'; readonly url: string } | { readonly kind: 'file'; readonly path: string }

/** The dev server's URL when electron-vite runs one (never in a packaged app), else the built page. */
export function appPage(isPackaged: boolean, devUrl: string | undefined, outDir: string): AppPage {
  if (!isPackaged && devUrl !== undefined) return { kind: 'dev', url: devUrl }
  return { kind: 'file', path: join(outDir, 'renderer', 'index.html') }
}

/** The frame a message came from, as much of Electron's `WebFrameMain` as the check reads. */
export interface SenderFrame {
  readonly url: string
  readonly parent: unknown
}

/** True only for the top frame of the app's page (the URL parsed and compared, never matched as a prefix). */
export function isAppFrame(page: AppPage, frame: SenderFrame | null | undefined): boolean {
  if (frame === null || frame === undefined || frame.parent !== null) return false
  let url: URL
  try {
    url = new URL(frame.url)
  } catch {
    return false
  }
  if (page.kind === 'dev') return url.origin === new URL(page.url).origin
  const own = pathToFileURL(page.path)
  return url.protocol === 'file:' && url.host === own.host && url.pathname === own.pathname
}
