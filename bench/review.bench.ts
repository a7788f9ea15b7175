/**
 * Transaction review throughput against CSL on the same bytes, on two kinds of transaction:
 * - the fixture: a ≈16 KB Marlowe apply transaction written by hand (the spent and the continuing MarloweData
 *   both in the witness set), with the "no script data hash" row separating the cost of hashing every datum
 *   again (≈32 KB) for it;
 * - the transactions our own builder makes on the sandbox, as a user meets them: a create minting three role
 *   tokens (escrow), an apply of a deposit to a contract whose datum makes the transaction ≈16 KB, and a
 *   withdrawal of a role payout. Each is reviewed with the context the app gives it (`chainFacts` read before
 *   timing, the sandbox's Marlowe scripts, the signer's wallet, the clock), and must review cleanly first.
 * Full reviews are compared with CSL's `Transaction.from_bytes(bytes).to_json()`, which only decodes and hashes
 * nothing; `decodeTransaction` alone with `Transaction.from_bytes` alone. Each transaction's functions are
 * measured in alternating rounds, each row the median of its windows.
 */
import * as CSL from '@emurgo/cardano-serialization-lib-nodejs'
import { reviewTransaction, type ReviewContext } from '../src/core/cardano/review'
import type { TxReview } from '../src/core/cardano/review/types'
import { decodeTransaction } from '../src/core/cardano/tx'
import { ESCROW_CHOICES, escrow } from '../src/core/marlowe/examples'
import { ADA, type Input, type Party } from '../src/core/marlowe/types'
import type { TxOutRef } from '../src/chain/provider'
import { chainFacts, marloweScripts } from '../src/engine/desk/chain-facts'
import {
  BUYER,
  COST_MODEL_V2,
  ERAS,
  FAKE_SEMANTICS,
  MEDIATOR,
  PRICE,
  SELLER,
  TX_A,
  initialDatum,
  largeChoiceContract,
  marloweApplyInputs,
  marloweApplyTx,
  scriptHash,
  slotTime
} from '../tests/core/cardano/tx/fixtures'
import { harness, testWallet, type Harness, type TestWallet } from '../tests/engine/build/support'
import { installNativeCodecs } from '../src/engine/native-codecs'
import { measureAlternating, printRows, type Measurement, type Row } from './harness'

/** Nesting that makes the fixture transaction ≈16 KB. */
const LEVELS = 28
/** Nesting that makes the builder's apply transaction ≈16 KB (it carries collateral and a reference input too). */
const BUILT_LEVELS = 19
const DAY = 86_400_000n

interface Reviewed {
  readonly name: string
  readonly bytes: Uint8Array
  readonly context: ReviewContext
}

const address = (w: TestWallet): Party => ({ type: 'Address', address: w.address })
const role = (name: string): Party => ({ type: 'Role', role: name })

function fixture(): Reviewed {
  const party = (address: string): Party => ({ type: 'Address', address })
  const before = initialDatum(
    largeChoiceContract(
      LEVELS,
      { seller: party(SELLER.enterprise), buyer: party(BUYER.enterprise), mediator: party(MEDIATOR.enterprise) },
      (i) => slotTime(i === 0 ? 10_000 : 20_000 + i * 1000)
    )
  )
  return {
    name: 'fixture apply (hand-written)',
    bytes: marloweApplyTx(TX_A, { before }),
    context: {
      resolvedInputs: marloweApplyInputs(TX_A, before),
      eraSummaries: ERAS,
      marloweScripts: { [scriptHash(FAKE_SEMANTICS)]: 'marlowe-semantics' },
      protocolParameters: {
        maxTxSize: 16_384,
        minFeeA: 44n,
        minFeeB: 155_381n,
        costModels: { PlutusV2: COST_MODEL_V2 }
      }
    }
  }
}

/** The context the app reviews a build with (`DeskContext.review`), its chain facts read now. */
async function appContext(h: Harness, tx: Uint8Array, signer: TestWallet): Promise<ReviewContext> {
  const facts = await chainFacts(h.sandbox, tx)
  if (facts.missing.length > 0) throw new Error(`unresolved inputs: ${facts.missing.join(', ')}`)
  return {
    resolvedInputs: facts.resolvedInputs,
    eraSummaries: facts.eraSummaries,
    protocolParameters: facts.protocolParameters,
    marloweScripts: marloweScripts(h.sandbox),
    wallets: [{ id: signer.name, addresses: [signer.address], keyHashes: [signer.paymentKeyHash] }],
    now: BigInt(h.clock.now()),
    networkId: h.sandbox.networkId
  }
}

/** Builds the three transactions on a fresh sandbox; the create and the apply steps before the payout are submitted. */
async function builtTransactions(): Promise<Reviewed[]> {
  const h = harness()
  try {
    const [alice, bob, carol] = [testWallet('alice'), testWallet('bob'), testWallet('carol')]
    const t0 = BigInt(h.clock.now())
    const roles = escrow({
      seller: role('Seller'),
      buyer: role('Buyer'),
      mediator: role('Mediator'),
      price: PRICE,
      token: ADA,
      paymentDeadline: t0 + DAY,
      complaintDeadline: t0 + 2n * DAY,
      disputeDeadline: t0 + 3n * DAY,
      mediationDeadline: t0 + 4n * DAY
    }).contract
    const holders = { Buyer: alice, Seller: bob, Mediator: carol }
    const created = await h.builder.create(
      { changeAddress: carol.address },
      {
        contract: roles,
        roles: {
          type: 'Mint',
          roles: Object.entries(holders).map(([name, w]) => ({
            name,
            recipients: [{ destination: { address: w.address }, quantity: 1n }]
          }))
        }
      }
    )
    const create: Reviewed = {
      name: 'create, 3 role tokens minted (escrow)',
      bytes: created.tx,
      context: await appContext(h, created.tx, carol)
    }
    await h.submit(created, [carol])

    let current: TxOutRef = created.contractId
    let datum = created.datumBytes
    let payout: TxOutRef | undefined
    const c = ESCROW_CHOICES
    const choose = (name: string, owner: string, chosen: bigint): Input => ({
      content: { type: 'IChoice', choice: { name, owner: role(owner) }, chosen }
    })
    const steps: ReadonlyArray<readonly [TestWallet, Input]> = [
      [
        alice,
        { content: { type: 'IDeposit', account: role('Seller'), party: role('Buyer'), token: ADA, amount: PRICE } }
      ],
      [alice, choose(c.reportProblem.name, 'Buyer', c.reportProblem.chosen)],
      [bob, choose(c.disputeProblem.name, 'Seller', c.disputeProblem.chosen)],
      [carol, choose(c.dismissClaim.name, 'Mediator', c.dismissClaim.chosen)]
    ]
    for (const [wallet, input] of steps) {
      const built = await h.builder.applyInputs(
        { changeAddress: wallet.address },
        { contractId: created.contractId, marloweUtxo: current, datum, inputs: [input] }
      )
      await h.submit(built, [wallet])
      if (built.output !== undefined) {
        current = built.output.ref
        datum = built.output.datumBytes
      }
      payout = built.payouts[0]?.ref
    }
    if (payout === undefined) throw new Error('the escrow paid no role payout')
    const withdrawn = await h.builder.withdraw({ changeAddress: bob.address }, { payouts: [payout] })
    const withdraw: Reviewed = {
      name: 'withdraw, one role payout',
      bytes: withdrawn.tx,
      context: await appContext(h, withdrawn.tx, bob)
    }

    const large = await h.builder.create(
      { changeAddress: alice.address },
      {
        contract: largeChoiceContract(
          BUILT_LEVELS,
          { seller: address(bob), buyer: address(alice), mediator: address(carol) },
          (i) => t0 + DAY + BigInt(i) * 3_600_000n
        )
      }
    )
    await h.submit(large, [alice])
    const deposit: Input = {
      content: { type: 'IDeposit', account: address(bob), party: address(alice), token: ADA, amount: PRICE }
    }
    const applied = await h.builder.applyInputs(
      { changeAddress: alice.address },
      { contractId: large.contractId, datum: large.datumBytes, inputs: [deposit] }
    )
    const apply: Reviewed = {
      name: `apply, a deposit to a ${(large.datumBytes.length / 1024).toFixed(1)} KB datum`,
      bytes: applied.tx,
      context: await appContext(h, applied.tx, alice)
    }
    return [create, apply, withdraw]
  } finally {
    await h.close()
  }
}

/** Why a review is not clean, or undefined: the script data hash must match and every Marlowe step succeed. */
function unclean(review: TxReview): string | undefined {
  if (review.scriptDataHash.status !== 'match') return `script data hash ${review.scriptDataHash.status}`
  const failed = review.marlowe.steps.find((s) => s.result.type !== 'success')
  if (failed !== undefined) return `Marlowe step on ${failed.input.txId}#${failed.input.index} failed`
  const danger = review.warnings.find((w) => w.severity === 'danger')
  return danger === undefined ? undefined : danger.message
}

const ms = (m: Measurement): string => `${(1000 / m.opsPerSecond).toFixed(2)} ms`

function cslJson(bytes: Uint8Array): void {
  const tx = CSL.Transaction.from_bytes(bytes)
  tx.to_json()
  tx.free()
}

function cslDecode(bytes: Uint8Array): void {
  CSL.Transaction.from_bytes(bytes).free()
}

/** CSL, the peer, reads the same transaction: its id of the bytes, fee and counts of inputs and outputs are ours. */
function sameAsCsl(tx: Reviewed, review: TxReview): void {
  const decoded = decodeTransaction(tx.bytes)
  const ours = [review.txId, decoded.body.fee, decoded.body.inputs.length, decoded.body.outputs.length].join(' ')
  const fixed = CSL.FixedTransaction.from_bytes(tx.bytes)
  const body = fixed.body()
  const parts = [fixed.transaction_hash(), body.fee(), body.inputs(), body.outputs()] as const
  const csl = [parts[0].to_hex(), parts[1].to_str(), parts[2].len(), parts[3].len()].join(' ')
  for (const part of [...parts, body, fixed]) part.free()
  if (csl !== ours) throw new Error(`${tx.name}: CSL reads id, fee, inputs, outputs ${csl}; ours ${ours}`)
}

function rowsFor(tx: Reviewed): Row[] {
  const review = reviewTransaction(tx.bytes, tx.context)
  const why = unclean(review)
  if (why !== undefined) throw new Error(`${tx.name} does not review cleanly: ${why}`)
  sameAsCsl(tx, review)
  const m = measureAlternating({
    full: () => reviewTransaction(tx.bytes, tx.context),
    decode: () => decodeTransaction(tx.bytes),
    cslJson: () => cslJson(tx.bytes),
    cslDecode: () => cslDecode(tx.bytes)
  })
  const label = `${tx.name}, ${(tx.bytes.length / 1024).toFixed(1)} KB`
  return [
    {
      what: `${label}: full review with context (${ms(m.full)})`,
      unit: 'tx/s',
      ours: m.full.opsPerSecond,
      peerName: 'CSL Transaction.from_bytes + to_json',
      peer: m.cslJson.opsPerSecond
    },
    {
      what: `${label}: decodeTransaction only, datum hashes included (${ms(m.decode)})`,
      unit: 'tx/s',
      ours: m.decode.opsPerSecond,
      peerName: 'CSL Transaction.from_bytes',
      peer: m.cslDecode.opsPerSecond
    }
  ]
}

function fixtureRows(tx: Reviewed): Row[] {
  const [full, decode] = rowsFor(tx)
  const bare: ReviewContext = { ...tx.context, protocolParameters: {} }
  const m = measureAlternating({
    noScriptDataHash: () => reviewTransaction(tx.bytes, bare),
    cslJson: () => cslJson(tx.bytes)
  })
  return [
    full!,
    {
      what: `${tx.name}: review without cost models, no script data hash (${ms(m.noScriptDataHash)})`,
      unit: 'tx/s',
      ours: m.noScriptDataHash.opsPerSecond,
      peerName: 'CSL Transaction.from_bytes + to_json',
      peer: m.cslJson.opsPerSecond
    },
    decode!
  ]
}

export async function benchReview(): Promise<void> {
  await installNativeCodecs()
  const fixtureMeasured = fixtureRows(fixture())
  const built = await builtTransactions()
  const rows = [...fixtureMeasured, ...built.flatMap(rowsFor)]
  printRows('Transaction review', rows, [
    `each of the ${built.length + 1} transactions reviews cleanly before it is timed: script data hash matches, every Marlowe step succeeds, no danger warning`,
    "CSL reads each the same: its transaction id, fee, and numbers of inputs and outputs are the review's"
  ])
}
