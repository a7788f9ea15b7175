/**
 * The service operations (see service.ts), how to open one over a SQLite file or an opened store (open.ts), and its
 * views (types.ts): plain data and the core's Marlowe model. Runtime's JSON of them is written in src/server.
 */
export { Follower, type SyncReport } from './follower'
export { openService, type OpenService, type OpenServiceOptions, type ServiceStoreOption } from './open'
export { MarloweService, nextStepsOf, safetyErrorsOf, type ChainStatus } from './service'
export type { SignedForm } from './signed-tx'
export { ContractSources, type ImportedSources } from './sources'
export type * from './types'
export { tokenKey, type RoleTokenFilter } from './role-token-filter'
export { readableRows } from './unreadable'
export { contractQuery } from './parties'
