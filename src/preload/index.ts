/**
 * The only bridge between the sandboxed renderer and main: one frozen object with one function. It sends a
 * call of the API contract — a known name and wire text — over the one IPC channel, and nothing else.
 */
import { contextBridge, ipcRenderer } from 'electron'
import { DESK_CALLS, DESK_IPC_CHANNEL, type DeskCall } from '../api/contract'

const calls: ReadonlySet<string> = new Set(DESK_CALLS)

const marloweDesk = Object.freeze({
  call(name: DeskCall, requestWire: string): Promise<string> {
    if (typeof name !== 'string' || !calls.has(name)) {
      return Promise.reject(new Error(`marloweDesk.call: no call named ${JSON.stringify(String(name))}`))
    }
    if (typeof requestWire !== 'string') return Promise.reject(new Error('marloweDesk.call: the request is wire text'))
    return ipcRenderer.invoke(DESK_IPC_CHANNEL, name, requestWire) as Promise<string>
  }
})

contextBridge.exposeInMainWorld('marloweDesk', marloweDesk)
