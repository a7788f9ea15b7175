import * as CSL from '@emurgo/cardano-serialization-lib-nodejs'
import { describe, expect, it } from 'vitest'
import type { EraSummary, ProtocolParameters, Utxo } from '../../../../src/chain/provider'
import { bytesToHex } from '../../../../src/core/bytes'
import {
  reviewTransaction,
  type ResolvedOutput,
  type ReviewProtocolParameters,
  type SlotEra,
  type TxReview
} from '../../../../src/core/cardano/review'
import { parseJson, stringifyJson, type JsonValue } from '../../../../src/core/json/lossless'
import { MARLOWE_VALIDATOR_HASHES } from '../../../../src/core/cardano/review/marlowe-scripts'
import { hex, unhex } from '../cbor/encode'
import { craft } from '../tx/craft'
import {
  ANCHOR_HASH,
  COST_MODEL_V2,
  ERAS,
  NFT_POLICY,
  OTHER,
  OWN,
  POOL_ID,
  SPEND_DATUM,
  TOKEN_POLICY,
  TX_A,
  TX_B,
  TX_C,
  TX_E,
  V2_SCRIPT,
  babbageOutputsTx,
  datumHashHex,
  governanceTx,
  marloweApplyTx,
  mintTx,
  paymentInputs,
  paymentTx,
  plutusSpendInputs,
  plutusSpendTx,
  rewardAddress,
  scriptAddress,
  scriptHash,
  slotTime
} from '../tx/fixtures'

const utf8 = (s: string): string => bytesToHex(new TextEncoder().encode(s))
const ME = [{ id: 'me', keyHashes: [OWN.hash] }]
const PARAMS: ReviewProtocolParameters = {
  maxTxSize: 16_384,
  minFeeA: 44n,
  minFeeB: 155_381n,
  priceMem: { numerator: 577n, denominator: 10_000n },
  priceSteps: { numerator: 721n, denominator: 10_000_000n },
  minFeeRefScriptCostPerByte: { numerator: 15n, denominator: 1n },
  collateralPercentage: 150,
  costModels: { PlutusV2: COST_MODEL_V2 }
}

/** The model survives the lossless JSON codec unchanged: plain data, bigints, no undefined fields. */
function expectSerialisable(review: TxReview): void {
  const text = stringifyJson(review as unknown as JsonValue)
  expect(parseJson(text)).toEqual(review)
}

describe('reviewTransaction: a payment from an own wallet', () => {
  const bytes = paymentTx()
  const review = reviewTransaction(bytes, { resolvedInputs: paymentInputs(), wallets: ME, protocolParameters: PARAMS })

  it('names the transaction, its size and fee', () => {
    expect(review.txId).toBe(CSL.FixedTransaction.from_bytes(bytes).transaction_hash().to_hex())
    expect(review.era).toBe('conway')
    expect(review.size).toEqual({ bytes: BigInt(bytes.length), max: 16_384n })
    expect(review.fee).toEqual({
      fee: 200_000n,
      minimum: 44n * BigInt(bytes.length) + 155_381n,
      referenceScriptBytes: 0n
    })
    expect(review.isValid).toBe(true)
  })

  it('resolves inputs and marks what is own', () => {
    expect(review.inputs[0]).toMatchObject({
      ref: { txId: TX_A, index: 0n },
      resolved: true,
      owner: 'own',
      wallet: 'me',
      address: {
        text: OWN.enterprise,
        kind: 'enterprise',
        networkId: 0n,
        payment: { type: 'key', hash: OWN.hash, wallet: 'me' }
      },
      value: {
        lovelace: 6_000_000n,
        assets: [{ policyId: TOKEN_POLICY, assetName: utf8('Token'), assetNameText: 'Token', quantity: 10n }]
      }
    })
    expect(review.outputs.map((o) => [o.index, o.address.owner, o.value.lovelace])).toEqual([
      [0n, 'foreign', 5_000_000n],
      [1n, 'own', 3_000_000n]
    ])
  })

  it('computes the net effect: own inputs minus own outputs', () => {
    expect(review.netEffect).toEqual([
      {
        wallet: 'me',
        lovelace: 6_000_000n + 2_200_000n - 3_000_000n,
        assets: [{ policyId: TOKEN_POLICY, assetName: utf8('Token'), assetNameText: 'Token', quantity: 10n }],
        withdrawn: 0n,
        complete: true
      }
    ])
  })

  it('shows signatures, metadata and validity', () => {
    expect(review.witnesses.needed).toEqual([{ keyHash: OWN.hash, reasons: ['input'], signed: true, wallet: 'me' }])
    expect(review.metadata).toMatchObject({
      format: 'shelley',
      entries: [{ label: 674n, json: { msg: ['hello', 'world'] } }],
      messages: ['hello', 'world']
    })
    expect(review.metadata?.declaredHash).toBe(review.metadata?.computedHash)
    expect(review.validity).toEqual({ end: { slot: 1000n } })
    expect(review.warnings).toEqual([])
    expectSerialisable(review)
  })
})

describe('reviewTransaction: a Plutus V2 spend', () => {
  const review = reviewTransaction(plutusSpendTx(), {
    resolvedInputs: plutusSpendInputs(),
    wallets: ME,
    eraSummaries: ERAS,
    protocolParameters: PARAMS
  })

  it('points the redeemer at the input it spends, in sorted input order', () => {
    expect(review.redeemers).toEqual([
      {
        tag: 'spend',
        index: 1n,
        target: { kind: 'input', ref: { txId: TX_C, index: 0n } },
        exUnits: { mem: 1_000_000n, steps: 500_000_000n },
        fee: 57_700n + 36_050n,
        data: { constructor: 0n, fields: [] }
      }
    ])
    expect(review.inputs[0]).toMatchObject({ owner: 'script', redeemer: 0n })
    expect(review.inputs[0]?.datum).toEqual({
      form: 'hash',
      hash: datumHashHex(SPEND_DATUM),
      source: 'witness-set',
      bytes: hex(SPEND_DATUM),
      content: { type: 'plutus-data', json: { constructor: 0n, fields: [{ int: 42n }, { bytes: 'ab' }] } }
    })
  })

  it('recomputes the script data hash', () => {
    expect(review.scriptDataHash).toMatchObject({ status: 'match', languages: ['PlutusV2'] })
    expect(review.scriptDataHash.computed).toBe(review.scriptDataHash.declared)
  })

  it('shows collateral, reference inputs, required signers and scripts', () => {
    expect(review.collateral).toMatchObject({
      total: 600_000n,
      atRisk: 600_000n,
      required: 600_000n,
      return: { index: 1n, value: { lovelace: 4_400_000n }, address: { owner: 'own' } }
    })
    expect(review.referenceInputs).toMatchObject([{ ref: { txId: TX_E, index: 0n }, owner: 'foreign' }])
    expect(review.requiredSigners).toEqual([{ keyHash: OWN.hash, signed: true, wallet: 'me' }])
    expect(review.scripts).toEqual([
      { hash: scriptHash(V2_SCRIPT), language: 'PlutusV2', size: 15n, source: 'witness-set' }
    ])
    expect(review.networkId).toBe(0n)
  })

  it('shows validity as slots and UTC', () => {
    expect(review.validity).toEqual({
      start: { slot: 100n, posixMs: slotTime(100), utc: new Date(Number(slotTime(100))).toISOString() },
      end: { slot: 5000n, posixMs: slotTime(5000), utc: new Date(Number(slotTime(5000))).toISOString() },
      marloweInterval: { from: slotTime(100), to: slotTime(5000) - 1n }
    })
    // Its script is not Marlowe's: the one note says why there is no Marlowe section.
    expect(review.warnings.map((w) => w.code)).toEqual(['scripts-not-marlowe'])
    expectSerialisable(review)
  })

  it('tries the languages unresolved reference scripts may add', () => {
    const offline = reviewTransaction(plutusSpendTx(), { protocolParameters: PARAMS })
    expect(offline.scriptDataHash).toMatchObject({ status: 'match', languages: ['PlutusV2'] })
    const noModels = reviewTransaction(plutusSpendTx(), {})
    expect(noModels.scriptDataHash).toMatchObject({ status: 'not-checked', reason: 'no cost models in the context' })
    const otherModel = reviewTransaction(plutusSpendTx(), {
      resolvedInputs: plutusSpendInputs(),
      protocolParameters: { costModels: { PlutusV1: [1n] } }
    })
    expect(otherModel.scriptDataHash).toMatchObject({ status: 'not-checked', reason: 'no PlutusV2 cost model' })
  })
})

describe('reviewTransaction: minting, outputs, certificates and governance', () => {
  it('shows mint and burn per policy, and CIP-25 metadata', () => {
    const review = reviewTransaction(mintTx(), { wallets: ME })
    expect(review.mint).toEqual([
      {
        policyId: NFT_POLICY,
        known: false,
        language: 'Native',
        assets: [
          { assetName: utf8('Old'), assetNameText: 'Old', quantity: -2n },
          { assetName: utf8('NFT1'), assetNameText: 'NFT1', quantity: 1n }
        ]
      }
    ])
    expect(review.metadata?.cip25).toEqual([
      {
        policyId: NFT_POLICY,
        assetName: utf8('NFT1'),
        assetNameText: 'NFT1',
        name: 'First NFT',
        image: 'ipfs://QmHash',
        mediaType: 'image/png'
      }
    ])
    expect(review.witnesses.needed).toEqual([
      { keyHash: OWN.hash, reasons: ['native-script'], signed: true, wallet: 'me' }
    ])
    const named = reviewTransaction(mintTx(), { knownPolicies: { [NFT_POLICY]: 'My NFTs' } })
    expect(named.mint[0]).toMatchObject({ policyName: 'My NFTs', known: true })
    expectSerialisable(named)
  })

  it('shows inline datums and reference scripts of outputs', () => {
    const review = reviewTransaction(babbageOutputsTx())
    expect(review.outputs[0]).toMatchObject({
      format: 'map',
      datum: { form: 'inline', source: 'inline', hash: datumHashHex(SPEND_DATUM), bytes: hex(SPEND_DATUM) },
      scriptRef: { language: 'PlutusV2', hash: scriptHash(V2_SCRIPT), size: 15n }
    })
    expect(review.outputs[1]).toMatchObject({
      format: 'legacy',
      address: { owner: 'script', text: scriptAddress(scriptHash(V2_SCRIPT)) },
      datum: { form: 'hash', source: 'missing' }
    })
  })

  it('shows certificates, withdrawals in ledger order, votes and proposals, each with its redeemer', () => {
    const review = reviewTransaction(governanceTx(), { wallets: ME })
    expect(review.era).toBe('conway')
    expect(review.certificates.map((c) => [c.index, c.kind, c.redeemer])).toEqual([
      [0n, 'stake-registration', undefined],
      [1n, 'stake-delegation', 1n],
      [2n, 'registration', undefined],
      [3n, 'vote-delegation', undefined],
      [4n, 'drep-registration', undefined],
      [5n, 'unregistration', undefined],
      [6n, 'pool-retirement', undefined]
    ])
    expect(review.certificates[1]).toMatchObject({ poolId: POOL_ID, credential: { type: 'script' } })
    expect(review.certificates[2]).toMatchObject({ deposit: 2_000_000n, credential: { wallet: 'me' } })
    // Script credentials sort before key credentials, so the reward redeemer (index 0) runs the script one.
    const scriptReward = rewardAddress(CSL.Credential.from_scripthash(CSL.ScriptHash.from_hex(scriptHash(V2_SCRIPT))))
    expect(review.withdrawals.map((w) => [w.address.text, w.amount, w.redeemer])).toEqual([
      [scriptReward, 2_000_000n, 0n],
      [rewardAddress(CSL.Credential.from_keyhash(CSL.Ed25519KeyHash.from_hex(OWN.hash))), 1_000_000n, undefined]
    ])
    expect(review.withdrawals[1]?.address).toMatchObject({ kind: 'reward', owner: 'own', wallet: 'me' })
    expect(review.governance).toMatchObject({
      votes: [
        { voter: { kind: 'drep-key', hash: OWN.hash }, votes: [{ actionId: { txId: TX_E, index: 1n }, vote: 'yes' }] },
        { voter: { kind: 'pool', hash: POOL_ID }, votes: [{ vote: 'abstain' }] }
      ],
      proposals: [
        { index: 0n, action: 'info', deposit: 100_000_000_000n, anchor: { dataHash: ANCHOR_HASH }, redeemer: 3n }
      ],
      donation: 5_000_000n,
      currentTreasuryValue: 1_000_000_000_000n
    })
    expect(review.redeemers.map((r) => r.target)).toEqual([
      { kind: 'withdrawal', address: scriptReward },
      { kind: 'certificate', index: 1n },
      { kind: 'voter', voter: { kind: 'drep-key', hash: OWN.hash } },
      { kind: 'proposal', index: 0n }
    ])
    expect(review.netEffect[0]?.withdrawn).toBe(1_000_000n)
    const reasons = new Map(review.witnesses.needed.map((n) => [n.keyHash, n.reasons]))
    expect(reasons.get(OWN.hash)).toEqual(['withdrawal', 'certificate', 'vote'])
    expect(reasons.get(POOL_ID)).toEqual(['certificate', 'vote'])
    expectSerialisable(review)
  })
})

describe('reviewTransaction: context', () => {
  it('takes the chain provider shapes as they are', () => {
    const utxo: Utxo = { ref: { txId: TX_A, index: 0 }, address: OWN.enterprise, value: { lovelace: 1n, assets: {} } }
    const era: EraSummary = { start: { slot: 0n, time: 0n }, slotLength: 1000n }
    const params: ProtocolParameters = {
      minFeeA: 44n,
      minFeeB: 155_381n,
      coinsPerUtxoByte: 4310n,
      maxTxSize: 16_384,
      maxValueSize: 5000,
      keyDeposit: 2_000_000n,
      poolDeposit: 500_000_000n,
      priceMem: { numerator: 577n, denominator: 10_000n },
      priceSteps: { numerator: 721n, denominator: 10_000_000n },
      minFeeRefScriptCostPerByte: { numerator: 15n, denominator: 1n },
      collateralPercentage: 150,
      maxCollateralInputs: 3,
      maxTxExUnits: { mem: 1n, steps: 1n },
      costModels: {},
      protocolVersion: { major: 10, minor: 0 }
    }
    const resolved: ResolvedOutput = utxo
    const slotEra: SlotEra = era
    const reviewParams: ReviewProtocolParameters = params
    const review = reviewTransaction(paymentTx(), {
      resolvedInputs: [resolved],
      eraSummaries: [slotEra],
      protocolParameters: reviewParams
    })
    expect(review.inputs[0]?.resolved).toBe(true)
    expect(review.validity.end?.utc).toBe('1970-01-01T00:16:40.000Z')
  })

  it('takes own addresses as text, and marks unreadable context addresses', () => {
    const review = reviewTransaction(paymentTx(), {
      wallets: [{ id: 'w', addresses: [OTHER.enterprise] }],
      resolvedInputs: [
        { ref: { txId: TX_B, index: 1 }, address: 'not an address', value: { lovelace: 1n, assets: {} } }
      ]
    })
    expect(review.outputs[0]?.address).toMatchObject({ owner: 'own', wallet: 'w' })
    expect(review.inputs[1]?.address).toEqual({ text: 'not an address', kind: 'unreadable', owner: 'foreign' })
  })

  it('does not depend on the order or case of the context', () => {
    const upper = paymentInputs().map((u) => ({ ...u, ref: { ...u.ref, txId: u.ref.txId.toUpperCase() } }))
    const review = reviewTransaction(paymentTx(), { resolvedInputs: upper.reverse() })
    expect(review.inputs.every((i) => i.resolved)).toBe(true)
  })

  it('leaves inputs unresolved offline', () => {
    const review = reviewTransaction(marloweApplyTx(TX_A))
    expect(review.inputs.map((i) => [i.resolved, i.owner])).toEqual([
      [false, 'unknown'],
      [false, 'unknown']
    ])
    expect(review.netEffect).toEqual([])
    expect(review.inputs.map((i) => i.ref.txId)).toEqual([TX_A, TX_B])
    expect(TX_C).not.toBe(TX_B)
  })
})

describe('Marlowe validators of every network', () => {
  /** A transaction paying 2 ada to the enterprise address `header` + the sandbox's stand-in semantics hash. */
  const payingStandIn = (header: '70' | '71'): Uint8Array =>
    craft([
      [0, { tag: 258, value: [[unhex(TX_A), 0]] }],
      [1, [[unhex(`${header}${MARLOWE_VALIDATOR_HASHES.sandbox.semantics}`), 2_000_000]]],
      [2, 200_000]
    ])

  it("names the sandbox's validators in a test network's transaction, whichever network the reviewer is on", () => {
    for (const networkId of [0, 1, undefined]) {
      const context = networkId === undefined ? {} : { networkId }
      expect(reviewTransaction(payingStandIn('70'), context).outputs[0]?.address.scriptName).toBe('marlowe-semantics')
    }
  })

  it('never takes the always-succeeding stand-ins for Marlowe on mainnet, whatever the context claims', () => {
    for (const networkId of [0, 1, undefined]) {
      const context = networkId === undefined ? {} : { networkId }
      expect(reviewTransaction(payingStandIn('71'), context).outputs[0]?.address.scriptName).toBeUndefined()
    }
  })
})
