/** Transaction signing for the engine, the CLI and the desktop app. */
export { readTransaction, transactionOfEnvelope, type TransactionFile } from './read-transaction'
export {
  assembleTransaction,
  neededKeys,
  readWitnessFile,
  signTransaction,
  verifyWitness,
  type SignRequest,
  type SignResult
} from './sign'
