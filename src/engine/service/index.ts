/** The service operations (see service.ts) and how to open one over a SQLite file (open.ts). */
export { Follower, type SyncReport } from './follower'
export { openService, type OpenService, type OpenServiceOptions } from './open'
export { MarloweService, type ChainStatus } from './service'
export type { SubmitEnvelope } from './signed-tx'
export type * from './types'
