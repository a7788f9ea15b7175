/**
 * Minimum-UTxO lovelace: for the outputs we create (ledger rule: (160 + output bytes) × coinsPerUtxoByte) and
 * Runtime's worst-case bound on the Marlowe output's deposit (`Safety.hs: minAdaUpperBound`).
 */
import type { ProtocolParameters } from '../../chain/provider'
import type { Value } from '../../core/cardano/value'
import { datumHash } from '../../core/marlowe/plutus/hash'
import type { Contract, State } from '../../core/marlowe/types'
import { contractTokens } from '../../core/marlowe/analysis'
import { outputSize, type OutputShape } from '../../core/cardano/output-size'
import { checkLedgerQuantity } from './csl-convert'
import { addValues, assetList, sumValues, tokenValue, withLovelace } from './values'

/** The output shape the bound assumes: a script address with a script stake credential, and a datum hash. */
const WORST_ADDRESS =
  'addr1x8ur42seq20ytdzm33fhjf3c2pxskxf3gzxq706qk7p5muhc824pjq57gk69hrzn0ynrs5zdpvvnzsyvpul5pdurfheq28w2dx'
/** Runtime attaches the datum `B ""` (CBOR 0x40) to the worst-case output. */
const WORST_DATUM_HASH = datumHash(new Uint8Array([0x40]))
const BIG = 2n ** 63n
const LEDGER_OVERHEAD = 160n

export type { OutputShape }

/** The output's size as CSL would write it (core outputSize), its quantities checked as CSL would check them. */
function outputBytes(shape: OutputShape): number {
  checkLedgerQuantity(shape.value.lovelace)
  for (const q of assetList(shape.value)) checkLedgerQuantity(q.quantity)
  return outputSize(shape)
}

/** Min-UTxO of the output exactly as given (its own lovelace included in the size). */
function minUtxoAsIs(pp: ProtocolParameters, shape: OutputShape): bigint {
  return (LEDGER_OVERHEAD + BigInt(outputBytes(shape))) * pp.coinsPerUtxoByte
}

/** The lovelace an output needs: its own if enough, else the least amount that satisfies the ledger. */
export function requiredLovelace(pp: ProtocolParameters, shape: OutputShape): bigint {
  let lovelace = shape.value.lovelace
  for (let i = 0; i < 5; i += 1) {
    const min = minUtxoAsIs(pp, { ...shape, value: withLovelace(shape.value, lovelace) })
    if (min <= lovelace) return lovelace
    lovelace = min
  }
  return lovelace
}

/** Raises an output's lovelace to its minimum. */
export function withMinLovelace(pp: ProtocolParameters, shape: OutputShape): Value {
  return withLovelace(shape.value, requiredLovelace(pp, shape))
}

/** Runtime's `minAdaBound`: the min-UTxO of a Marlowe-shaped output holding `value`. */
export function minAdaBound(pp: ProtocolParameters, value: Value): bigint | undefined {
  let lovelace = value.lovelace
  for (let counter = 5; counter > 0; counter -= 1) {
    const min = minUtxoAsIs(pp, {
      address: WORST_ADDRESS,
      value: withLovelace(value, lovelace),
      datumHash: WORST_DATUM_HASH
    })
    if (min <= lovelace) return min
    lovelace = min
  }
  return undefined
}

/**
 * Runtime's `minAdaUpperBound`: the deposit that keeps the Marlowe output above the ledger minimum whatever the
 * contract comes to hold, taking every token it mentions at 2^63 plus what the initial accounts hold.
 */
export function minAdaUpperBound(pp: ProtocolParameters, state: State, contract: Contract): bigint | undefined {
  const worst = addValues(
    sumValues(contractTokens(contract).map((t) => tokenValue(t, BIG))),
    sumValues(state.accounts.map(([key, amount]) => tokenValue(key.token, amount)))
  )
  return minAdaBound(pp, worst)
}
