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
export { parseStakeAddress } from './stake'
export { type Simulation, type SimulationInput, simulateTransactions } from './simulate'
export { type AssembleInput, type Assembled, assemble } from './assemble'
export { buildCostCandidates, type CostCandidate, type CostSetup } from './cost-check'
export { policyScriptIn } from './burn'
export { transactionMetadataFromJson, metadatumFromJson, roleTokenMetadatum } from './metadata'
export { SlotClock } from './slots'
