/** The independent validator check is not vacuous: it catches the mistakes the real validator would reject. */
import { afterEach, expect, test } from 'vitest'
import { swap } from '../../../src/core/marlowe/examples'
import { ADA as ADA_TOKEN, type Input, type Party } from '../../../src/core/marlowe/types'
import { CSL, withCsl } from '../../../src/csl'
import { validatorContext } from './flows'
import { checkMarloweSpend } from './marlowe-validator'
import { ADA, T0, harness, testWallet, type Harness } from './support'

const alice = testWallet('alice')
const bob = testWallet('bob')
const address = (w: { address: string }): Party => ({ type: 'Address', address: w.address })

let h: Harness
afterEach(async () => h.close())

/** Rewrites the body of a built tx (witness set kept). */
function tamper(tx: Uint8Array, edit: (body: CSL.TransactionBody) => void): Uint8Array {
  return withCsl((s) => {
    const t = s.own(CSL.Transaction.from_bytes(tx))
    const body = s.own(t.body())
    edit(body)
    return s.own(CSL.Transaction.new(body, s.own(t.witness_set()), t.auxiliary_data())).to_bytes()
  })
}

test('missing signer, shifted interval and a wrong continuing value are each reported', async () => {
  h = harness()
  const { contract } = swap({
    first: { party: address(alice), token: ADA_TOKEN, amount: 10n * ADA, depositDeadline: T0 + 86_400_000n },
    second: { party: address(bob), token: ADA_TOKEN, amount: 20n * ADA, depositDeadline: T0 + 86_400_000n }
  })
  const created = await h.builder.create({ changeAddress: alice.address }, { contract })
  await h.submit(created, [alice])
  const inputs: Input[] = [
    {
      content: { type: 'IDeposit', account: address(alice), party: address(alice), token: ADA_TOKEN, amount: 10n * ADA }
    }
  ]
  const built = await h.builder.applyInputs(
    { changeAddress: alice.address },
    { contractId: created.contractId, inputs }
  )
  const ctx = validatorContext(h)
  expect(await checkMarloweSpend(ctx, built.tx)).toEqual([])

  const unsigned = tamper(built.tx, (b) => b.set_required_signers(CSL.Ed25519KeyHashes.new()))
  expect(await checkMarloweSpend(ctx, unsigned)).toEqual([`s: ${alice.address} did not sign`])

  const shifted = tamper(built.tx, (b) => b.set_validity_start_interval_bignum(CSL.BigNum.from_str('1')))
  expect(await checkMarloweSpend(ctx, shifted)).toEqual(['d: the continuing datum differs'])

  // Half an ada less in the continuing output (edited through CSL's JSON form of the body).
  const leaky = withCsl((s) => {
    const t = s.own(CSL.Transaction.from_bytes(built.tx))
    const json = JSON.parse(s.own(t.body()).to_json()) as { outputs: { amount: { coin: string } }[] }
    json.outputs[0]!.amount.coin = String(BigInt(json.outputs[0]!.amount.coin) - 500_000n)
    const body = s.own(CSL.TransactionBody.from_json(JSON.stringify(json)))
    return s.own(CSL.Transaction.new(body, s.own(t.witness_set()), t.auxiliary_data())).to_bytes()
  })
  expect(await checkMarloweSpend(ctx, leaky)).toEqual([
    'the continuing value is not exact',
    'vo: accounts do not equal the UTxO value'
  ])
})
