/** Transaction builders for Marlowe: create, apply inputs, withdraw (see builder.ts). */
export { MarloweTxBuilder } from './builder'
export { evaluating } from './build-errors'
export {
  InMemoryInputReservations,
  type InputReservations,
  type Reservation,
  type ReservedRefs,
  type ReserveOutcome
} from './reservations'
export { checkContract, type RolesCheck, type SafetyError } from './safety'
export type { RoleTokenFile, RoleTokenMetadata } from './metadata'
export { formatRef, parseRef } from '../../core/cardano/refs'
export type * from './types'
