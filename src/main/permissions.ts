/**
 * The one permission the app grants: the camera, video only, to the app's own page in its top frame, so the
 * offline screens can read animated QR codes. Every other permission, and the camera for any other page or
 * frame, or with the microphone, is refused.
 */
import type { PermissionCheckHandlerHandlerDetails, PermissionRequest } from 'electron'
import { isAppFrame, pageOrigin, type AppPage } from './app-page'

type RequestDetails = Partial<PermissionRequest> & {
  readonly mediaTypes?: readonly string[]
}
type CheckDetails = Partial<Pick<PermissionCheckHandlerHandlerDetails, 'isMainFrame' | 'mediaType'>>

/** `session.setPermissionRequestHandler`: a camera request of the app's page is granted, nothing else. */
export function permissionRequestHandler(
  page: AppPage
): (contents: unknown, permission: string, callback: (granted: boolean) => void, details?: RequestDetails) => void {
  return (_contents, permission, callback, details) => {
    const media = details?.mediaTypes ?? []
    const videoOnly = media.length > 0 && media.every((m) => m === 'video')
    const fromApp =
      details?.requestingUrl !== undefined &&
      isAppFrame(page, { url: details.requestingUrl, parent: details.isMainFrame === true ? null : {} })
    callback(permission === 'media' && videoOnly && fromApp)
  }
}

/** `session.setPermissionCheckHandler`: whether the app's page may use the camera it was granted. */
export function permissionCheckHandler(
  page: AppPage
): (contents: unknown, permission: string, requestingOrigin?: string, details?: CheckDetails) => boolean {
  return (_contents, permission, requestingOrigin, details) =>
    permission === 'media' &&
    details?.mediaType === 'video' &&
    details.isMainFrame === true &&
    requestingOrigin !== undefined &&
    requestingOrigin === pageOrigin(page)
}
