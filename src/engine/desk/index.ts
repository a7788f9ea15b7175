/** The desk: the API contract of the desktop app implemented on the engine, and its one dispatcher. */
export { createDesk, type CreateDeskOptions } from './desk'
export type { BuildStore } from './context'
export { handleDeskCall, isDeskCall, type DispatchOptions } from './dispatch'
export type { DeskHandlers } from './handlers'
