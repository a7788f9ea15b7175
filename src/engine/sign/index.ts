/** Transaction signing for the engine, the CLI and the desktop app. */
export { readTransaction, type TransactionFile } from './read-transaction'
export { requiredKeys, type OutRef, type RequiredKeys, type ResolvedAddresses } from './required-keys'
export {
  assembleTransaction,
  readWitnessFile,
  signTransaction,
  verifyWitness,
  type SignRequest,
  type SignResult
} from './sign'
