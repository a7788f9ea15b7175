/**
 * The desk: the API contract of the desktop app implemented on the engine, and its one dispatcher; and what
 * a host (src/host) needs to run it: the settings file, progress, and the desk's failures.
 */
export { createDesk, type CreateDeskOptions } from './desk'
export type { HardwareDevices } from './device-calls'
export type { BuildStore } from './context'
export { handleDeskCall, isDeskCall, type DispatchOptions } from './dispatch'
export { deskFailure, knownErrorBody } from './errors'
export type { DeskHandlers, HandlersOf, SettingsCall } from './handlers'
export { ActivityTracker, type StageFn } from './progress'
export { loadSettings, saveSettings } from './settings-file'
export { reviewBundleOf } from './chain-facts'
