/** Every typed failure of the builders, provoked on the sandbox, with Runtime's error code and details. */
import { afterEach, describe, expect, test } from 'vitest'
import { deploymentOf, semanticsValidatorAddress } from '../../../src/chain/deployments'
import { swap } from '../../../src/core/marlowe/examples'
import { encodeMarloweData } from '../../../src/core/marlowe/plutus/marlowe-data'
import {
  ADA as ADA_TOKEN,
  CLOSE,
  type Contract,
  type Input,
  type Party,
  type State
} from '../../../src/core/marlowe/types'
import { assemble } from '../../../src/engine/build/assemble'
import { mintTestToken } from './flows'
import { ADA, T0, costCheckNotes, failure, harness, testWallet, type Harness } from './support'

const DAY = 86_400_000n
const alice = testWallet('alice')
const bob = testWallet('bob')
const address = (w: { address: string }): Party => ({ type: 'Address', address: w.address })
const payIn = (w: { address: string }, amount: bigint): Input => ({
  content: { type: 'IDeposit', account: address(w), party: address(w), token: ADA_TOKEN, amount }
})

let h: Harness
afterEach(async () => h.close())

/** alice's swap against bob, created and confirmed; deadlines a day and two days after T0. */
async function swapContract(): Promise<{ contractId: { txId: string; index: number }; contract: Contract }> {
  const { contract } = swap({
    first: { party: address(alice), token: ADA_TOKEN, amount: 10n * ADA, depositDeadline: T0 + DAY },
    second: { party: address(bob), token: ADA_TOKEN, amount: 20n * ADA, depositDeadline: T0 + 2n * DAY }
  })
  const created = await h.builder.create({ changeAddress: alice.address }, { contract })
  await h.submit(created, [alice])
  return { contractId: created.contractId, contract }
}

describe('create', () => {
  test('InsufficientMinAdaDeposit names the required deposit', async () => {
    h = harness()
    const e = await failure(h.builder.create({ changeAddress: alice.address }, { contract: CLOSE, minUTxODeposit: 1n }))
    expect(e.code).toBe('InsufficientMinAdaDeposit')
    expect(e.kind).toBe('BadRequest')
    const required = e.details['minimumRequiredDeposit']
    expect(typeof required).toBe('bigint')
    // The bound itself is accepted.
    const ok = await h.builder.create(
      { changeAddress: alice.address },
      { contract: CLOSE, minUTxODeposit: required as bigint }
    )
    expect(ok.minUTxODeposit).toBe(required)
  })

  test('CoinSelectionFailed/InsufficientLovelace when the wallet cannot cover the outputs', async () => {
    h = harness()
    const e = await failure(
      h.builder.create(
        { changeAddress: alice.address },
        { contract: CLOSE, accounts: [{ party: address(bob), token: ADA_TOKEN, amount: 1_000_000n * ADA }] }
      )
    )
    expect(e.code).toBe('CoinSelectionFailed')
    expect(e.details).toMatchObject({
      tag: 'CoinSelectionFailed',
      coinSelectionFailed: { tag: 'InsufficientLovelace', available: 10_000n * ADA }
    })
  })

  test('CoinSelectionFailed/InsufficientTokens names the missing tokens', async () => {
    h = harness()
    const policy = 'ab'.repeat(28)
    const e = await failure(
      h.builder.create(
        { changeAddress: alice.address },
        {
          contract: CLOSE,
          accounts: [{ party: address(alice), token: { currencySymbol: policy, tokenName: 'X' }, amount: 5n }]
        }
      )
    )
    expect(e.code).toBe('CoinSelectionFailed')
    expect(e.details).toEqual({
      tag: 'CoinSelectionFailed',
      coinSelectionFailed: { tag: 'InsufficientTokens', tokens: { [policy]: { X: 5n } } }
    })
  })

  test('SafetyAnalysisFailed when initial accounts meet any safety error', async () => {
    h = harness()
    const contract: Contract = {
      type: 'Pay',
      from: address(alice),
      to: { type: 'Party', party: { type: 'Role', role: 'Nobody' } },
      token: ADA_TOKEN,
      value: 1n,
      then: CLOSE
    }
    const e = await failure(
      h.builder.create(
        { changeAddress: alice.address },
        { contract, accounts: [{ party: address(bob), token: ADA_TOKEN, amount: 2n * ADA }] }
      )
    )
    expect(e.code).toBe('SafetyAnalysisFailed')
    expect(e.details['safetyErrors']).toEqual([
      {
        error: 'MissingRolesCurrency',
        detail: 'Roles are present in the contract, but no roles currency was specified.',
        fatal: true
      }
    ])
    // Without initial accounts the same errors are only reported (with the cost check, made only for those).
    const built = await h.builder.create({ changeAddress: alice.address }, { contract })
    expect(built.safetyErrors.map((s) => s.error)).toEqual([
      'MissingRolesCurrency',
      ...costCheckNotes(h.sandbox).map((s) => s.error)
    ])
  })

  test('addresses of the wrong network are refused', async () => {
    h = harness()
    const mainnetAddress = 'addr1vx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzers66hrl8'
    const e = await failure(h.builder.create({ changeAddress: mainnetAddress }, { contract: CLOSE }))
    expect(e.code).toBe('BadRequest')
    expect(e.message).toMatch(/^Invalid change address value: .* is not a testnet address$/)
    const extra = await failure(
      h.builder.create({ changeAddress: alice.address, extraAddresses: [mainnetAddress] }, { contract: CLOSE })
    )
    expect(extra.message).toMatch(/^Invalid addresses header value/)
    const stake = await failure(
      h.builder.create(
        { changeAddress: alice.address },
        { contract: CLOSE, stakeAddress: 'stake1uyehkck0lajq8gr28t9uxnuvgcqrc6070x3k9r8048z8y5gh6ffgw' }
      )
    )
    expect(stake.message).toMatch(/^Invalid stake address value/)
  })
})

describe('apply inputs', () => {
  test('RoleTokenNotFound when the wallet lacks the role token', async () => {
    h = harness()
    const contract: Contract = {
      type: 'When',
      cases: [
        { type: 'Case', action: { type: 'Notify', observation: true }, then: CLOSE },
        {
          type: 'Case',
          action: {
            type: 'Choice',
            choice: { name: 'ok', owner: { type: 'Role', role: 'Boss' } },
            bounds: [{ from: 0n, to: 1n }]
          },
          then: CLOSE
        }
      ],
      timeout: T0 + DAY,
      timeoutContinuation: CLOSE
    }
    const created = await h.builder.create(
      { changeAddress: alice.address },
      {
        contract,
        roles: {
          type: 'Mint',
          roles: [{ name: 'Boss', recipients: [{ destination: { address: alice.address }, quantity: 1n }] }]
        }
      }
    )
    await h.submit(created, [alice])
    const e = await failure(
      h.builder.applyInputs(
        { changeAddress: bob.address },
        {
          contractId: created.contractId,
          inputs: [
            { content: { type: 'IChoice', choice: { name: 'ok', owner: { type: 'Role', role: 'Boss' } }, chosen: 1n } }
          ]
        }
      )
    )
    expect(e.code).toBe('RoleTokenNotFound')
    expect(e.details).toEqual({
      tag: 'RoleTokenNotFound',
      assetId: { policyId: created.rolesCurrency, assetName: 'Boss' }
    })
  })

  test('MarloweComputeTransactionFailed: no match, useless, ambiguous interval', async () => {
    h = harness()
    const { contractId } = await swapContract()
    const noMatch = await failure(
      h.builder.applyInputs({ changeAddress: alice.address }, { contractId, inputs: [payIn(alice, 9n * ADA)] })
    )
    expect(noMatch.code).toBe('MarloweComputeTransactionFailed')
    expect(noMatch.details).toEqual({ tag: 'MarloweComputeTransactionFailed', transactionError: 'TEApplyNoMatchError' })
    const useless = await failure(h.builder.applyInputs({ changeAddress: alice.address }, { contractId, inputs: [] }))
    expect(useless.details['transactionError']).toBe('TEUselessTransaction')
    const ambiguous = await failure(
      h.builder.applyInputs(
        { changeAddress: alice.address },
        { contractId, inputs: [payIn(alice, 10n * ADA)], invalidHereafter: T0 + DAY + 60_000n }
      )
    )
    expect(ambiguous.details['transactionError']).toBe('TEAmbiguousTimeIntervalError')
  })

  test('interval errors: lower bound after the tip, beyond the horizon, inverted, in the past', async () => {
    h = harness()
    const { contractId } = await swapContract()
    const tip = await h.sandbox.tip()
    const now = h.sandbox.slotToTime(tip.slot)
    const tooHigh = await failure(
      h.builder.applyInputs(
        { changeAddress: alice.address },
        { contractId, inputs: [payIn(alice, 10n * ADA)], invalidBefore: now + 60_000n }
      )
    )
    expect(tooHigh.code).toBe('ValidityLowerBoundTooHigh')
    const horizon = await failure(
      h.builder.applyInputs(
        { changeAddress: alice.address },
        { contractId, inputs: [payIn(alice, 10n * ADA)], invalidHereafter: now + 1000n * DAY }
      )
    )
    expect(horizon.code).toBe('SlotConversionFailed')
    const inverted = await failure(
      h.builder.applyInputs(
        { changeAddress: alice.address },
        { contractId, inputs: [payIn(alice, 10n * ADA)], invalidBefore: now, invalidHereafter: now - 5_000n }
      )
    )
    expect(inverted.details['transactionError']).toEqual({
      context: { invalidInterval: { from: now, to: now - 5_001n } },
      error: 'TEIntervalError'
    })
    // After alice's deposit the state's minTime is `now`; an interval ending before it is in the past.
    const paid = await h.builder.applyInputs(
      { changeAddress: alice.address },
      { contractId, inputs: [payIn(alice, 10n * ADA)] }
    )
    await h.submit(paid, [alice])
    const past = await failure(
      h.builder.applyInputs(
        { changeAddress: bob.address },
        {
          contractId,
          marloweUtxo: paid.output!.ref,
          inputs: [payIn(bob, 20n * ADA)],
          invalidBefore: now - 10_000n,
          invalidHereafter: now - 5_000n
        }
      )
    )
    expect(past.code).toBe('MarloweComputeTransactionFailed')
    expect(past.details['transactionError']).toEqual({
      context: { intervalInPastError: { from: now - 10_000n, minTime: now, to: now - 5_001n } },
      error: 'TEIntervalError'
    })
  })

  test('ScriptOutputNotFound for a spent contract output; version mismatch for a non-Marlowe UTxO', async () => {
    h = harness()
    const { contractId } = await swapContract()
    const paid = await h.builder.applyInputs(
      { changeAddress: alice.address },
      { contractId, inputs: [payIn(alice, 10n * ADA)] }
    )
    await h.submit(paid, [alice])
    const spent = await failure(
      h.builder.applyInputs({ changeAddress: alice.address }, { contractId, inputs: [payIn(alice, 10n * ADA)] })
    )
    expect(spent.code).toBe('ScriptOutputNotFound')
    const [walletUtxo] = await h.sandbox.utxosAt([alice.address])
    const notMarlowe = await failure(
      h.builder.applyInputs({ changeAddress: alice.address }, { contractId: walletUtxo!.ref, inputs: [] })
    )
    expect(notMarlowe.code).toBe('LoadMarloweContextErrorVersionMismatch')
  })

  const aliceAda = { account: address(alice), token: ADA_TOKEN }
  const aliceChoice = { name: 'c', owner: address(alice) }
  /** A state the validator refuses on its input (checks v, b, ea, ec, eb), with the value it is locked with. */
  test.each<[string, State, bigint, RegExp]>([
    [
      'v: the accounts do not add up to the value',
      { accounts: [[aliceAda, 3n * ADA]], choices: [], boundValues: [], minTime: 0n },
      2n * ADA,
      /accounts do not add up/
    ],
    [
      'b: a balance that is not positive',
      {
        accounts: [
          [aliceAda, 3n * ADA],
          [{ account: address(bob), token: ADA_TOKEN }, 0n]
        ],
        choices: [],
        boundValues: [],
        minTime: 0n
      },
      3n * ADA,
      /an account balance is not positive/
    ],
    [
      'ea: an account twice',
      {
        accounts: [
          [aliceAda, 2n * ADA],
          [aliceAda, 1n * ADA]
        ],
        choices: [],
        boundValues: [],
        minTime: 0n
      },
      3n * ADA,
      /an account appears twice/
    ],
    [
      'ec: a choice twice',
      {
        accounts: [[aliceAda, 3n * ADA]],
        choices: [
          [aliceChoice, 1n],
          [aliceChoice, 2n]
        ],
        boundValues: [],
        minTime: 0n
      },
      3n * ADA,
      /a choice appears twice/
    ],
    [
      'eb: a bound value twice',
      {
        accounts: [[aliceAda, 3n * ADA]],
        choices: [],
        boundValues: [
          ['x', 1n],
          ['x', 2n]
        ],
        minTime: 0n
      },
      3n * ADA,
      /a bound value appears twice/
    ]
  ])('InvalidMarloweState before building, %s', async (_check, state, locked, message) => {
    h = harness()
    const pp = await h.sandbox.protocolParameters()
    const [funds] = await h.sandbox.utxosAt([alice.address])
    const datum = encodeMarloweData({ params: { rolesCurrency: '' }, state, contract: CLOSE })
    const forged = assemble({
      pp,
      plan: {
        scriptSpends: [],
        walletSpends: [],
        outputs: [
          {
            address: semanticsValidatorAddress(deploymentOf(h.sandbox)),
            value: { lovelace: locked, assets: {} },
            datum
          }
        ],
        requiredSigners: [],
        metadata: new Map()
      },
      walletInputs: [funds!],
      changeAddress: alice.address,
      exUnits: new Map()
    })
    const id = await h.submit({ tx: forged.tx, reservation: { key: 'none' } }, [alice])
    const e = await failure(
      h.builder.applyInputs({ changeAddress: alice.address }, { contractId: { txId: id, index: 0 }, datum, inputs: [] })
    )
    expect(e.code).toBe('InvalidMarloweState')
    expect(e.message).toMatch(message)
  })

  test('CoinSelectionFailed/NoCollateralFound when the named collateral cannot serve', async () => {
    h = harness()
    const policy = await mintTestToken(h, alice, 'Tok', 10n)
    const { contractId } = await swapContract()
    const tokenUtxo = (await h.sandbox.utxosAt([alice.address])).find((u) => u.value.assets[policy] !== undefined)!
    const e = await failure(
      h.builder.applyInputs(
        { changeAddress: alice.address, collateral: [tokenUtxo.ref] },
        { contractId, inputs: [payIn(alice, 10n * ADA)] }
      )
    )
    expect(e.code).toBe('CoinSelectionFailed')
    expect(e.details).toEqual({
      tag: 'CoinSelectionFailed',
      coinSelectionFailed: { tag: 'NoCollateralFound', txOutRefs: [`${tokenUtxo.ref.txId}#${tokenUtxo.ref.index}`] }
    })
  })
})

describe('withdraw', () => {
  test('EmptyPayouts and PayoutNotFound', async () => {
    h = harness()
    const empty = await failure(h.builder.withdraw({ changeAddress: alice.address }, { payouts: [] }))
    expect(empty.code).toBe('EmptyPayouts')
    const ref = { txId: 'cd'.repeat(32), index: 3 }
    const missing = await failure(h.builder.withdraw({ changeAddress: alice.address }, { payouts: [ref] }))
    expect(missing.code).toBe('PayoutNotFound')
    expect(missing.details).toEqual({ tag: 'PayoutNotFound', txOutRef: `${'cd'.repeat(32)}#3` })
  })

  test('RoleTokenNotFound when withdrawing without the role token', async () => {
    h = harness()
    const contract: Contract = {
      type: 'When',
      cases: [
        {
          type: 'Case',
          action: { type: 'Notify', observation: true },
          then: {
            type: 'Pay',
            from: address(alice),
            to: { type: 'Party', party: { type: 'Role', role: 'R' } },
            token: ADA_TOKEN,
            value: 1n * ADA,
            then: CLOSE
          }
        }
      ],
      timeout: T0 + DAY,
      timeoutContinuation: CLOSE
    }
    const created = await h.builder.create(
      { changeAddress: alice.address },
      {
        contract,
        roles: {
          type: 'Mint',
          roles: [{ name: 'R', recipients: [{ destination: { address: alice.address }, quantity: 1n }] }]
        }
      }
    )
    await h.submit(created, [alice])
    const paid = await h.builder.applyInputs(
      { changeAddress: bob.address },
      { contractId: created.contractId, inputs: [{ content: { type: 'INotify' } }] }
    )
    await h.submit(paid, [bob])
    const payout = paid.payouts[0]!.ref
    const e = await failure(h.builder.withdraw({ changeAddress: bob.address }, { payouts: [payout] }))
    expect(e.code).toBe('RoleTokenNotFound')
    expect(e.details).toEqual({
      tag: 'RoleTokenNotFound',
      assetId: { policyId: created.rolesCurrency, assetName: 'R' }
    })
    const ok = await h.builder.withdraw({ changeAddress: alice.address }, { payouts: [payout, payout] })
    expect(ok.payouts.length).toBe(1)
    await h.submit(ok, [alice])
  })
})
