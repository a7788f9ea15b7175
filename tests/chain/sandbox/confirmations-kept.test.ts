/**
 * What the sandbox ledger keeps of its history (issue 14): past the recent blocks, only the transactions something
 * still refers to — an output unspent, the chain index's, genesis — and the datums unspent outputs name, so that
 * its snapshot stops growing once the old transactions are spent, and a restored ledger answers as the one it was
 * saved from.
 */
import { describe, expect, test } from 'vitest'
import { semanticsValidatorAddress } from '../../../src/chain/deployments'
import type { Utxo } from '../../../src/chain/provider'
import { sandboxWallet, signWithSandboxWallets } from '../../../src/chain/sandbox'
import { SandboxLedger } from '../../../src/chain/sandbox/ledger'
import { SANDBOX_BLAZE_PARAMS, toProtocolParameters } from '../../../src/chain/sandbox/params'
import { T0 } from '../support/sandbox'
import { ADA, buildTx, intDatum } from '../support/txkit'

const RECENT = 20
const alice = sandboxWallet('alice')
const bob = sandboxWallet('bob')
const params = toProtocolParameters(SANDBOX_BLAZE_PARAMS)

/** Alice pays `to` from her largest UTxO (herself: her change is all that is left unspent of it). */
async function pay(ledger: SandboxLedger, to?: { address: string; datum?: Uint8Array }): Promise<string> {
  const [largest] = ledger
    .utxosAt([alice.address])
    .filter((u: Utxo) => Object.keys(u.value.assets).length === 0 && u.datum === undefined)
    .sort((a, b) => Number(b.value.lovelace - a.value.lovelace))
  const outputs = to === undefined ? [] : [{ lovelace: 3n * ADA, ...to }]
  const tx = buildTx({ params, inputs: [largest!], changeAddress: alice.address, outputs })
  return (await ledger.submit(signWithSandboxWallets(tx, [alice]))).txId
}

const kept = (ledger: SandboxLedger): number => ledger.snapshot(0n).transactions.size

describe('confirmed transactions past the recent blocks', () => {
  test('the snapshot does not grow with history once the old transactions are spent', async () => {
    const ledger = SandboxLedger.genesis(T0, { recentBlocks: RECENT })
    const toBob = await pay(ledger, { address: bob.address })
    const toScript = await pay(ledger, { address: semanticsValidatorAddress('sandbox'), datum: intDatum(7n) })
    const spent = await pay(ledger)
    for (let i = 0; i < 3 * RECENT; i += 1) await pay(ledger)
    const after = kept(ledger)
    for (let i = 0; i < 4 * RECENT; i += 1) await pay(ledger)
    expect(kept(ledger)).toBeLessThanOrEqual(after)
    // Bounded by the recent blocks, twice over at most, and what is still referred to.
    expect(kept(ledger)).toBeLessThan(3 * RECENT)

    // Still referred to: bob's output is unspent, the script payment is in the chain index.
    expect(ledger.confirmation(toBob)).toBeDefined()
    expect(ledger.confirmation(toScript)).toBeDefined()
    // Every output spent, long ago: forgotten, as a node following the recent blocks would have it.
    expect(ledger.confirmation(spent)).toBeUndefined()
    const recent = await pay(ledger)
    expect(ledger.confirmation(recent)).toEqual(ledger.tip)
  })

  test('the datums kept are those unspent outputs name by hash', async () => {
    const ledger = SandboxLedger.genesis(T0, { recentBlocks: RECENT })
    const script = semanticsValidatorAddress('sandbox')
    await pay(ledger, { address: script, datum: intDatum(7n) })
    await pay(ledger, { address: bob.address, datum: intDatum(8n) })
    const bobs = ledger.utxosAt([bob.address]).find((u) => u.datumHash !== undefined)
    expect(bobs!.datum).toEqual(intDatum(8n))
    // Bob spends his output: nothing names its datum any more.
    const spend = buildTx({ params, inputs: [bobs!], changeAddress: bob.address })
    await ledger.submit(signWithSandboxWallets(spend, [bob]))
    for (let i = 0; i < RECENT; i += 1) await pay(ledger)
    const datums = ledger.snapshot(0n).datums.map(([, bytes]) => bytes)
    expect(datums).toEqual([intDatum(7n)])
    expect(ledger.utxosAt([script]).find((u) => u.datumHash !== undefined)?.datum).toEqual(intDatum(7n))
  })

  test('a restored ledger answers as the one it was saved from, and forgets the same from then on', async () => {
    const ledger = SandboxLedger.genesis(T0, { recentBlocks: RECENT })
    const ids = [await pay(ledger, { address: bob.address })]
    for (let i = 0; i < 2 * RECENT + 5; i += 1) ids.push(await pay(ledger))
    const restored = SandboxLedger.restore(ledger.snapshot(0n), { recentBlocks: RECENT })
    for (const id of ids) expect(restored.confirmation(id)).toEqual(ledger.confirmation(id))
    expect(restored.utxosAt([alice.address, bob.address])).toEqual(ledger.utxosAt([alice.address, bob.address]))
    for (let i = 0; i < RECENT; i += 1) {
      const [a, b] = [await pay(ledger), await pay(restored)]
      expect(b).toBe(a)
    }
    expect(restored.snapshot(0n).transactions).toEqual(ledger.snapshot(0n).transactions)
  })
})
