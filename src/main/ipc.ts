/**
 * The one IPC handler: every call from the renderer arrives on `DESK_IPC_CHANNEL` as `(name, requestWire)`,
 * is checked for where it came from and what it is, and goes to the desk's dispatcher. A message that fails
 * these checks is not the app's own page talking, so it is refused outright (the invoke rejects).
 */
import { DESK_IPC_CHANNEL } from '../api/contract'
import { handleDeskCall, isDeskCall, type DeskHandlers, type DispatchOptions } from '../engine/desk'
import type { SenderFrame } from './app-page'

/** The part of Electron's `IpcMainInvokeEvent` the handler reads. */
export interface InvokeEvent {
  readonly senderFrame: SenderFrame | null
}

/** The part of Electron's `ipcMain` used here. */
export interface IpcMainLike {
  handle(channel: string, listener: (event: InvokeEvent, ...args: unknown[]) => Promise<string>): void
}

export function registerDeskIpc(
  ipcMain: IpcMainLike,
  desk: DeskHandlers,
  isTrusted: (frame: SenderFrame | null) => boolean,
  options: DispatchOptions = {}
): void {
  ipcMain.handle(DESK_IPC_CHANNEL, async (event, ...args) => {
    if (!isTrusted(event.senderFrame)) throw new Error('refused: the message did not come from the app’s own page')
    const [name, requestWire] = args
    if (args.length !== 2 || !isDeskCall(name) || typeof requestWire !== 'string') {
      throw new Error('refused: a desk call is (name, requestWire) with a known name and wire text')
    }
    return handleDeskCall(desk, name, requestWire, options)
  })
}
