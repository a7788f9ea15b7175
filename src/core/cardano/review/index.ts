/** Transaction review: one function from bytes (and optional context) to the plain-data model a signer reads. */
export { reviewTransaction } from './review'
export { TxDecodeError } from '../tx'
export type * from './types'
export { WARNING_CODES } from './types'
export { ledgerOrder } from './redeemer-targets'
export { metadataView } from './metadata-view'
export { scriptFee, referenceScriptFee } from './fees'
export { MARLOWE_VALIDATOR_HASHES } from './marlowe-scripts'
