/**
 * Witnesses made by test wallets, as a signer hands them to the service. Apart from the service tests' support so that
 * the benchmarks, bundled without vitest, can import them.
 */
import { bytesToHex } from '../../../src/core/bytes'
import { vkeyWitnessesOfWitnessSet } from '../../../src/core/cardano/witnesses'
import { CSL, withCsl } from '../../../src/csl'
import type { SignedForm } from '../../../src/engine/service'
import type { TextEnvelopeBody } from '../../../src/server/requests'
import type { TestWallet } from '../build/support'

/** What a CIP-30 wallet's `signTx(tx, true)` returns, as Runtime's PUT takes it. */
export function witnessEnvelope(tx: Uint8Array, signers: readonly TestWallet[], era = 'Conway'): TextEnvelopeBody {
  return { type: `ShelleyTxWitness ${era}Era`, description: '', cborHex: bytesToHex(witnessSetOf(tx, signers)) }
}

/** The key witnesses of `signers` for `tx`, as the service takes them from a signer. */
export function witnessed(tx: Uint8Array, signers: readonly TestWallet[]): SignedForm {
  return { witnesses: vkeyWitnessesOfWitnessSet(witnessSetOf(tx, signers)) }
}

/** A witness set as a CIP-30 wallet's `signTx(tx, true)` returns it. */
function witnessSetOf(tx: Uint8Array, signers: readonly TestWallet[]): Uint8Array {
  return withCsl((s) => {
    const fixed = s.own(CSL.FixedTransaction.from_bytes(tx))
    const set = s.own(CSL.TransactionWitnessSet.new())
    const vkeys = s.own(CSL.Vkeywitnesses.new())
    for (const w of signers) {
      const key = s.own(CSL.PrivateKey.from_extended_bytes(w.key))
      vkeys.add(s.own(CSL.make_vkey_witness(s.own(fixed.transaction_hash()), key)))
    }
    set.set_vkeys(vkeys)
    return set.to_bytes()
  })
}
