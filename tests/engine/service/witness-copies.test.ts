/**
 * Copies of one signature are verified once (issue 13): a 909 KB witness set of 9,000 copies of one witness had
 * every copy verified before the copies were dropped (4.4 s of the serving thread). The real verification is
 * counted, not timed: it still runs, once per distinct witness.
 */
import { afterAll, describe, expect, test, vi } from 'vitest'
import { bytesToHex, concatBytes, hexToBytes } from '../../../src/core/bytes'
import { vkeyWitnessesOfWitnessSet } from '../../../src/core/cardano/witnesses'
import { signedTransaction } from '../../../src/engine/service/signed-tx'
import * as sign from '../../../src/engine/sign'
import { testWallet } from '../build/support'
import { serviceHarness, witnessEnvelope } from './support'

vi.mock('../../../src/engine/sign', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../src/engine/sign')>()
  return { ...actual, verifyWitness: vi.fn(actual.verifyWitness) }
})

const alice = testWallet('alice')
const bob = testWallet('bob')
const h = await serviceHarness()
afterAll(async () => {
  await h.close()
  await h.sandbox.close()
})

/** A witness set `{0: [w, w, …]}` written by hand (CSL would keep one copy of each). */
function copiesOf(witnesses: readonly Uint8Array[], copies: number): Uint8Array {
  const all = Array.from({ length: copies }, (_, i) => witnesses[i % witnesses.length]!)
  return concatBytes([Uint8Array.of(0xa1, 0x00, 0x99, copies >> 8, copies & 0xff), ...all])
}

describe('a witness set holding copies of its witnesses', () => {
  test('each distinct witness is verified once, and the transaction carries it once', async () => {
    await h.sandbox.fund(alice.address, 50_000_000n)
    const built = await h.service.createContract(
      { changeAddress: alice.address },
      { contract: { type: 'Close' }, tags: {}, metadata: {} }
    )
    const tx = built.unsigned.tx
    const stored = { txId: built.contractId.slice(0, 64), era: 'Conway' as const, unsignedTx: tx }
    const witnesses = vkeyWitnessesOfWitnessSet(hexToBytes(witnessEnvelope(tx, [alice, bob]).cborHex))
    const verify = vi.mocked(sign.verifyWitness)
    verify.mockClear()

    const signed = signedTransaction(stored, {
      witnesses: vkeyWitnessesOfWitnessSet(
        copiesOf(
          witnesses.map((w) => w.cbor),
          9_000
        )
      )
    })

    expect(verify).toHaveBeenCalledTimes(2)
    expect(new Set(verify.mock.calls.map(([, w]) => bytesToHex(w.vkey)))).toEqual(
      new Set(witnesses.map((w) => bytesToHex(w.vkey)))
    )
    expect(signed.length).toBeLessThan(tx.length + 2 * 110)
  })

  test('a bad copy among good ones is still found', async () => {
    const built = await h.service.createContract(
      { changeAddress: alice.address },
      { contract: { type: 'Close' }, tags: {}, metadata: {} }
    )
    const other = await h.service.createContract(
      { changeAddress: alice.address },
      { contract: { type: 'Close' }, tags: {}, metadata: {} }
    )
    const stored = { txId: built.contractId.slice(0, 64), era: 'Conway' as const, unsignedTx: built.unsigned.tx }
    const [good] = vkeyWitnessesOfWitnessSet(hexToBytes(witnessEnvelope(built.unsigned.tx, [alice]).cborHex))
    const [foreign] = vkeyWitnessesOfWitnessSet(hexToBytes(witnessEnvelope(other.unsigned.tx, [bob]).cborHex))
    expect(() =>
      signedTransaction(stored, {
        witnesses: vkeyWitnessesOfWitnessSet(copiesOf([good!.cbor, good!.cbor, foreign!.cbor], 3_000))
      })
    ).toThrow(/does not sign transaction/)
  })
})
