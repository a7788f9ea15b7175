/** The only bridge between the sandboxed renderer and main: one frozen object. */
import { contextBridge } from 'electron'

contextBridge.exposeInMainWorld('marloweDesk', Object.freeze({ apiVersion: 1 }))
