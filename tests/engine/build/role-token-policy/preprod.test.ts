/**
 * A create that mints its roles on preprod, built over the Blockfrost adapter and its local peer: the tx mints
 * with our policy for the seed it spends, the script in the witness set. The peer's node evaluates with a
 * sandbox ledger given the peer's UTxOs, so the budgets are our policy's real ones on this very tx.
 */
import { afterEach, describe, expect, test } from 'vitest'
import type { Utxo } from '../../../../src/chain/provider'
import type { SandboxProvider } from '../../../../src/chain/sandbox'
import { bytesToHex, hexToBytes, utf8Encode } from '../../../../src/core/bytes'
import { decodeTransaction } from '../../../../src/core/cardano/tx'
import { CLOSE, type Contract } from '../../../../src/core/marlowe/types'
import { InMemoryInputReservations, MarloweTxBuilder } from '../../../../src/engine/build'
import { roleTokenPolicy } from '../../../../src/engine/build/role-token-policy/policy'
import { addressUtxo, amount, provider as blockfrostOn, seededPeer } from '../../../chain/blockfrost/fixtures'
import type { BlockfrostPeer } from '../../../chain/blockfrost/peer'
import { openSandbox } from '../../../chain/support/sandbox'
import { ADA, testWallet } from '../support'

const alice = testWallet('alice')
const bob = testWallet('bob')
const WALLET_TX = 'a1'.repeat(32)
const hex = (name: string): string => bytesToHex(utf8Encode(name)!)

/** alice's UTxOs on the peer's chain, as the peer serves them and as a ledger holds them. */
const WALLET: readonly Utxo[] = [
  { ref: { txId: WALLET_TX, index: 0 }, address: alice.address, value: { lovelace: 100n * ADA, assets: {} } },
  { ref: { txId: WALLET_TX, index: 1 }, address: alice.address, value: { lovelace: 5n * ADA, assets: {} } }
]

/** Bob may notify, then the contract closes; the role token names him. */
const contract: Contract = {
  type: 'When',
  cases: [{ type: 'Case', action: { type: 'Notify', observation: true }, then: CLOSE }],
  timeout: 1_900_000_000_000n,
  timeoutContinuation: CLOSE
}

let peer: BlockfrostPeer
let evaluator: SandboxProvider
afterEach(async () => {
  await peer.close()
  await evaluator.close()
})

async function preprodPeer(): Promise<BlockfrostPeer> {
  const p = await seededPeer()
  p.state.addressUtxos.set(
    alice.address,
    WALLET.map((u) => addressUtxo(alice.address, u.ref.txId, u.ref.index, { amount: amount(`${u.value.lovelace}`) }))
  )
  ;({ sandbox: evaluator } = openSandbox())
  p.state.evaluate = async ({ tx }) => {
    const budgets = await evaluator.evaluate(hexToBytes(tx), WALLET)
    const result = budgets.map((b) => ({
      validator: { purpose: b.tag, index: BigInt(b.index) },
      budget: { memory: b.exUnits.mem, cpu: b.exUnits.steps }
    }))
    return { status: 200, body: { jsonrpc: '2.0', method: 'evaluateTransaction', result, id: null } }
  }
  return p
}

describe('creating with minted roles on preprod', () => {
  test('mints with our policy for the seed the tx spends, the script in the witness set', async () => {
    peer = await preprodPeer()
    const provider = blockfrostOn(peer)
    expect(provider.network).toBe('preprod')
    const builder = new MarloweTxBuilder({ provider, reservations: new InMemoryInputReservations() })

    const created = await builder.create(
      { changeAddress: alice.address },
      {
        contract,
        roles: {
          type: 'Mint',
          roles: [{ name: 'Bob', recipients: [{ destination: { address: bob.address }, quantity: 1n }] }]
        }
      }
    )

    const { body, witnessSet } = decodeTransaction(created.tx)
    // Runtime's seed choice: the smallest UTxO that can hold the tokens alone, here the 5-ada one.
    const seed = WALLET[1]!.ref
    const policy = roleTokenPolicy(seed, [{ assetName: hex('Bob'), quantity: 1n }])
    expect(created.rolesCurrency).toBe(policy.policyId)
    expect(created.datum.params.rolesCurrency).toBe(policy.policyId)
    expect(body.inputs).toContainEqual(seed)
    expect(body.mint).toEqual([{ policyId: policy.policyId, assets: [{ assetName: hex('Bob'), quantity: 1n }] }])
    expect(witnessSet.plutusScripts.map((s) => ({ language: s.language, hash: s.hash }))).toEqual([
      { language: 'PlutusV2', hash: policy.policyId }
    ])
    expect(bytesToHex(witnessSet.plutusScripts[0]!.bytes)).toBe(bytesToHex(policy.script))

    const [redeemer] = witnessSet.redeemers
    expect(witnessSet.redeemers).toHaveLength(1)
    expect(redeemer).toMatchObject({ tag: 'mint', index: 0, dataBytes: new Uint8Array([0xd8, 0x79, 0x80]) })
    expect(redeemer!.exUnits).toEqual((await evaluator.evaluate(created.tx, WALLET))[0]!.exUnits)
    expect(body.collateral).toHaveLength(1)
    expect(body.outputs.some((o) => o.value.multiAsset.some((p) => p.policyId === policy.policyId))).toBe(true)
  })
})
