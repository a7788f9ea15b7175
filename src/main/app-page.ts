/**
 * Where the app's own page comes from, and whether a frame is that page: the dev server's origin while
 * developing, else the built renderer served on the app's own scheme (`app://desk/index.html`, ./app-protocol).
 * IPC from any other frame — an iframe, a page navigated elsewhere, a `file://` page — is refused.
 */
import { join } from 'node:path'

/** The privileged scheme and host the packaged renderer is served on: one fixed origin in every install folder. */
export const APP_SCHEME = 'app'
export const APP_HOST = 'desk'
export const APP_PAGE_URL = `${APP_SCHEME}://${APP_HOST}/index.html`

export type AppPage =
  | { readonly kind: 'dev'; readonly url: string }
  /** `url` on the app scheme, answered from the files under `root` (the built renderer). */
  | { readonly kind: 'app'; readonly url: string; readonly root: string }

/** The dev server's URL when electron-vite runs one (never in a packaged app), else the built page. */
export function appPage(isPackaged: boolean, devUrl: string | undefined, outDir: string): AppPage {
  if (!isPackaged && devUrl !== undefined) return { kind: 'dev', url: devUrl }
  return { kind: 'app', url: APP_PAGE_URL, root: join(outDir, 'renderer') }
}

/** The page's origin as Chromium writes it (`app://desk` for the app's scheme, which Node gives no origin). */
export function pageOrigin(page: AppPage): string {
  return page.kind === 'dev' ? new URL(page.url).origin : `${APP_SCHEME}://${APP_HOST}`
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
  // Node gives a custom scheme's URL no origin: compare the whole address but its query and the router's hash.
  url.search = ''
  url.hash = ''
  return url.href === page.url
}
