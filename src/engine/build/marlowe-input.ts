/**
 * The contract's current UTxO and datum, checked as the semantics validator checks its own input: at a known
 * semantics script, with a datum whose state matches the value it locks.
 */
import type { MarloweDeployment } from '../../chain/deployments'
import type { Utxo } from '../../chain/provider'
import { parseShelleyAddress } from '../../core/cardano/address'
import { datumHash } from '../../core/marlowe/plutus/hash'
import { PlutusDataError } from '../../core/marlowe/plutus/data'
import { PlutusDecodeError, decodeMarloweData } from '../../core/marlowe/plutus/marlowe-data'
import type { MarloweData } from '../../core/marlowe/types'
import { engineFailure } from './build-errors'
import type { BuildContext } from './context'
import { formatRef } from '../../core/cardano/refs'
import type { ApplyRequest } from './types'
import { stateProblem } from './validator-rules'

export interface Loaded {
  readonly utxo: Utxo
  readonly scripts: MarloweDeployment
  readonly datum: MarloweData
  readonly datumBytes: Uint8Array
}

export async function loadMarloweOutput(ctx: BuildContext, request: ApplyRequest): Promise<Loaded> {
  const ref = request.marloweUtxo ?? request.contractId
  const [utxo] = await ctx.provider.utxosByRef([ref])
  if (utxo === undefined) {
    throw engineFailure('BadRequest', 'ScriptOutputNotFound', `The contract has no unspent output at ${formatRef(ref)}`)
  }
  const payment = parseShelleyAddress(utxo.address).payment
  const scripts = ctx.scripts.find((s) => payment.type === 'script' && s.semantics.hash === payment.hash)
  if (scripts === undefined) {
    throw engineFailure(
      'BadRequest',
      'LoadMarloweContextErrorVersionMismatch',
      `${formatRef(ref)} is not at a known Marlowe validator address`
    )
  }
  // The provider's resolution may be re-encoded (a different hash); the caller's stored bytes then serve.
  const datumBytes = [utxo.datum, request.datum].find((d) => d !== undefined && datumHash(d) === utxo.datumHash)
  if (datumBytes === undefined) {
    throw engineFailure(
      'Internal',
      'ExtractMarloweTransactionError',
      `No datum matching the hash of ${formatRef(ref)}`,
      {
        tag: 'NoTransactionDatum'
      }
    )
  }
  let datum: MarloweData
  try {
    datum = decodeMarloweData(datumBytes)
  } catch (e) {
    if (!(e instanceof PlutusDecodeError || e instanceof PlutusDataError)) throw e
    throw engineFailure(
      'Internal',
      'ExtractMarloweTransactionError',
      `The datum at ${formatRef(ref)} is not a Marlowe datum: ${String(e)}`,
      {
        tag: 'InvalidTransactionDatum'
      }
    )
  }
  const problem = stateProblem(datum.state, utxo.value)
  if (problem !== undefined) {
    throw engineFailure(
      'BadRequest',
      'InvalidMarloweState',
      `The validator would refuse the contract's state: ${problem}`,
      {
        tag: 'InvalidMarloweState'
      }
    )
  }
  return { utxo, scripts, datum, datumBytes }
}
