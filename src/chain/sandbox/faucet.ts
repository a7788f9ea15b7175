/**
 * The faucet pays with a real transaction from the faucet wallet (not a synthetic `addUtxo`): the new output has
 * a real transaction id, shows up in `txStatus`, goes through the same checks and queue as every other
 * transaction, and the faucet's own funds go down.
 */
import { CSL, withCsl, type CslScope } from '../../csl'
import { ChainError, type ProtocolParameters, type Utxo } from '../provider'
import { txBuilderConfig } from './csl-config'
import { SANDBOX_FAUCET, signWithSandboxWallets } from './wallets'

/** Room for the fee and a change output next to the payment. */
const FEE_MARGIN = 2_000_000n

function big(s: CslScope, n: bigint): CSL.BigNum {
  return s.own(CSL.BigNum.from_str(n.toString()))
}

function address(s: CslScope, bech32: string): CSL.Address {
  try {
    return s.own(CSL.Address.from_bech32(bech32))
  } catch (e) {
    throw new ChainError(
      'Rejected',
      `the faucet cannot pay to ${JSON.stringify(bech32)}: not an address (${String(e)})`
    )
  }
}

/** A signed transaction paying `lovelace` to `to` (output 0) from the faucet's largest pure-ada UTxO. */
export function faucetTransaction(
  params: ProtocolParameters,
  faucetUtxos: readonly Utxo[],
  to: string,
  lovelace: bigint
): Uint8Array {
  if (lovelace <= 0n) throw new ChainError('Rejected', `the faucet pays a positive amount, not ${lovelace} lovelace`)
  const source = faucetUtxos
    .filter((u) => Object.keys(u.value.assets).length === 0 && u.value.lovelace >= lovelace + FEE_MARGIN)
    .sort((a, b) => (a.value.lovelace > b.value.lovelace ? -1 : a.value.lovelace < b.value.lovelace ? 1 : 0))[0]
  if (source === undefined) {
    throw new ChainError(
      'Rejected',
      `the faucet has no UTxO holding ${lovelace + FEE_MARGIN} lovelace for this payment`
    )
  }
  const unsigned = withCsl((s) => {
    const tb = s.own(CSL.TransactionBuilder.new(txBuilderConfig(s, params)))
    const faucet = address(s, SANDBOX_FAUCET.address)
    const input = s.own(
      CSL.TransactionInput.new(s.own(CSL.TransactionHash.from_hex(source.ref.txId)), source.ref.index)
    )
    tb.add_regular_input(faucet, input, s.own(CSL.Value.new(big(s, source.value.lovelace))))
    try {
      tb.add_output(s.own(CSL.TransactionOutput.new(address(s, to), s.own(CSL.Value.new(big(s, lovelace))))))
    } catch (e) {
      if (e instanceof ChainError) throw e
      throw new ChainError('Rejected', `the faucet cannot pay ${lovelace} lovelace to ${to}: ${String(e)}`)
    }
    tb.add_change_if_needed(faucet)
    return s.own(tb.build_tx()).to_bytes()
  })
  return signWithSandboxWallets(unsigned, [SANDBOX_FAUCET])
}
