/** cardano-submit-api: a submit-only client, and `withSubmitter` to pair it with a query provider. */
export { SubmitApiClient, type SubmitApiOptions } from './submit-api-client'
export { withSubmitter, type TxSubmitter } from './with-submitter'
