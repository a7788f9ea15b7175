/**
 * The create-time cost check against a real sandbox running validators it was given (always-succeeding, looping or
 * failing ones: the real Marlowe validators are never committed), through a provider that reports other protocol
 * limits when told to and keeps the evaluations: a contract over the per-transaction budget is reported with a fatal
 * `TransactionValidationError` and its funded create refused; within the limits nothing is reported; on stand-in
 * scripts a note says the check was not made; the transactions evaluated are the costliest, at most a fixed
 * number, and each is one the Marlowe validator would accept. The same through the Blockfrost adapter.
 */
import { afterEach, describe, expect, test } from 'vitest'
import { DelegatingProvider } from '../../../src/chain/delegating-provider'
import { deploymentOf } from '../../../src/chain/deployments'
import type {
  ChainProvider,
  ExUnits,
  ProtocolParameters,
  RedeemerBudget,
  TxOutRef,
  Utxo
} from '../../../src/chain/provider'
import { SandboxProvider } from '../../../src/chain/sandbox'
import { formatShelleyAddress } from '../../../src/core/cardano/address'
import { ADA as ADA_TOKEN, CLOSE, type Contract, type Party } from '../../../src/core/marlowe/types'
import { InMemoryInputReservations, MarloweTxBuilder, type SafetyError } from '../../../src/engine/build'
import { COST_NOT_CHECKED } from '../../../src/engine/build/cost-check'
import { formatRef } from '../../../src/core/cardano/refs'
import { COSTLIEST_PER_MEASURE } from '../../../src/engine/build/simulate'
import {
  failingValidator,
  loopingValidator,
  testValidators,
  writeTestValidatorDir
} from '../../chain/support/validators'
import { sandboxBlockfrost, sandboxPeer } from '../../chain/blockfrost/sandbox-peer'
import { rolesEscrow } from './flows'
import { checkMarloweSpend } from './marlowe-validator'
import { ADA, ManualClock, T0, failure, sign, testWallet } from './support'

const alice = testWallet('alice')
const bob = testWallet('bob')
const DAY = 86_400_000n
const TINY: ExUnits = { mem: 10n, steps: 1_000n }

const succeeding = testValidators('cost check')
const succeedingDir = writeTestValidatorDir(succeeding)
const loopingDir = writeTestValidatorDir({ ...succeeding, semantics: loopingValidator() })
const failingDir = writeTestValidatorDir({ ...succeeding, semantics: failingValidator() })

/** The sandbox, with other per-transaction limits if given; keeps every evaluation with its additional UTxOs. */
class Limits extends DelegatingProvider {
  readonly evaluations: { readonly tx: Uint8Array; readonly utxos: readonly Utxo[] }[] = []

  constructor(
    inner: ChainProvider,
    private readonly maxTxExUnits?: ExUnits
  ) {
    super(inner)
  }

  override async protocolParameters(): Promise<ProtocolParameters> {
    const pp = await this.inner.protocolParameters()
    return this.maxTxExUnits === undefined ? pp : { ...pp, maxTxExUnits: this.maxTxExUnits }
  }

  override evaluate(tx: Uint8Array, additionalUtxos: readonly Utxo[] = []): Promise<RedeemerBudget[]> {
    if (additionalUtxos.length > 0) this.evaluations.push({ tx, utxos: additionalUtxos })
    return this.inner.evaluate(tx, additionalUtxos)
  }
}

/** The chain as the evaluator saw it: its UTxOs and an evaluation's additional ones. */
class WithAdditional extends DelegatingProvider {
  constructor(
    inner: ChainProvider,
    private readonly additional: readonly Utxo[]
  ) {
    super(inner)
  }

  override async utxosByRef(refs: readonly TxOutRef[]): Promise<Utxo[]> {
    const extra = new Map(this.additional.map((u) => [formatRef(u.ref), u]))
    const onChain = await this.inner.utxosByRef(refs.filter((r) => !extra.has(formatRef(r))))
    return [...refs.flatMap((r) => extra.get(formatRef(r)) ?? []), ...onChain]
  }
}

let sandbox: SandboxProvider
afterEach(async () => sandbox.close())

/** A sandbox on a hand-moved clock, deploying `validators` (or the stand-ins). */
function openSandbox(validators: string | undefined): ManualClock {
  const clock = new ManualClock()
  sandbox = SandboxProvider.open({
    zeroTime: T0,
    clockTickMs: false,
    ...(validators === undefined ? {} : { validators }),
    now: clock.now
  })
  return clock
}

function setup(validators: string | undefined, maxTxExUnits?: ExUnits) {
  const clock = openSandbox(validators)
  const provider = new Limits(sandbox, maxTxExUnits)
  const builder = new MarloweTxBuilder({ provider, reservations: new InMemoryInputReservations(), now: clock.now })
  return { provider, builder }
}

const payee = (i: number): Party => ({
  type: 'Address',
  address: formatShelleyAddress({ mainnet: false, payment: { type: 'key', hash: i.toString(16).padStart(56, '0') } })
})
const aliceParty: Party = { type: 'Address', address: alice.address }

/** Pays a lovelace from Alice's account to each of `n` parties, then closes (paying Alice the rest). */
function paying(n: number, then: Contract = CLOSE): Contract {
  let contract = then
  for (let i = n; i > 0; i -= 1) {
    contract = {
      type: 'Pay',
      from: aliceParty,
      to: { type: 'Party', party: payee(i) },
      token: ADA_TOKEN,
      value: 1n,
      then: contract
    }
  }
  return contract
}

/** On a notification, a close paying 10 parties and Alice; at the timeout, a close paying Alice. */
const manyPayouts: Contract = {
  type: 'When',
  cases: [{ type: 'Case', action: { type: 'Notify', observation: true }, then: paying(10) }],
  timeout: T0 + 10n * DAY,
  timeoutContinuation: CLOSE
}

const funded = { accounts: [{ party: aliceParty, token: ADA_TOKEN, amount: 5n * ADA }] }
const fatal = (errors: readonly SafetyError[]) => errors.filter((e) => e.fatal)

describe('on a chain running the given validators', () => {
  test('over a tiny execution budget: a fatal TransactionValidationError for each costly transaction; a funded create is refused', async () => {
    const { provider, builder } = setup(succeedingDir, TINY)
    const built = await builder.create({ changeAddress: alice.address }, { contract: manyPayouts })
    const errors = fatal(built.safetyErrors)
    expect(errors.map((e) => e.error)).toEqual(['TransactionValidationError', 'TransactionValidationError'])
    expect(built.safetyErrors).toEqual(errors)
    // The close paying all eleven parties first, then the timeout's; each says which limit and by how much.
    const [close, timeout] = errors
    expect(close).toMatchObject({
      detail: 'This transaction fails to validate on the ledger.',
      transaction: { input: { tx_inputs: ['input_notify'] }, output: { payments: expect.any(Array) } },
      message: expect.stringMatching(
        /^Over the protocol's per-transaction limits\. Execution memory units: \d+ of at most 10 \(\d+ over\); Execution steps: \d+ of at most 1000 \(\d+ over\)\.$/
      )
    })
    expect((close!['transaction'] as { output: { payments: unknown[] } }).output.payments).toHaveLength(11)
    expect(timeout).toMatchObject({ transaction: { input: { tx_inputs: [] } } })
    expect(provider.evaluations).toHaveLength(2)

    const refused = await failure(
      builder.create({ changeAddress: alice.address }, { contract: manyPayouts, ...funded })
    )
    expect(refused.code).toBe('SafetyAnalysisFailed')
    // The same two transactions, Alice's account holding five ada more.
    expect(fatal(refused.details['safetyErrors'] as SafetyError[]).map((e) => e['message'])).toEqual(
      errors.map((e) => e['message'])
    )
    expect(provider.evaluations).toHaveLength(4)
  })

  test('within the limits: nothing reported, and a funded create is built', async () => {
    const { provider, builder } = setup(succeedingDir)
    const built = await builder.create({ changeAddress: alice.address }, { contract: manyPayouts })
    expect(built.safetyErrors).toEqual([])
    const fundedBuilt = await builder.create({ changeAddress: alice.address }, { contract: manyPayouts, ...funded })
    expect(fundedBuilt.safetyErrors).toEqual([])
    expect(provider.evaluations).toHaveLength(4)
  })

  test('a script running out of the budget counts as over it', async () => {
    const { builder } = setup(loopingDir)
    const built = await builder.create({ changeAddress: alice.address }, { contract: manyPayouts })
    const errors = fatal(built.safetyErrors)
    expect(errors).toHaveLength(2)
    for (const e of errors) {
      expect(e['message']).toMatch(
        /^Over the protocol's per-transaction limits\. The scripts run out of the per-transaction budget \(memory \d+, steps \d+\): .*budget/
      )
    }
  })

  test('a script failing for another reason: the check is not made for that transaction, and nothing is refused', async () => {
    const { builder } = setup(failingDir)
    const built = await builder.create({ changeAddress: alice.address }, { contract: manyPayouts, ...funded })
    expect(built.safetyErrors.map((e) => [e.error, e.fatal])).toEqual([
      [COST_NOT_CHECKED, false],
      [COST_NOT_CHECKED, false]
    ])
    expect(built.safetyErrors[0]).toMatchObject({
      detail: 'The execution cost and size of this transaction could not be checked.',
      transaction: { input: { tx_inputs: ['input_notify'] } },
      message: expect.stringMatching(/^The scripts failed on it: /)
    })
  })

  test('the transactions evaluated are the costliest, at most a fixed number per create', async () => {
    const { provider, builder } = setup(succeedingDir, TINY)
    // Twelve choices, the k-th closing with payouts to k parties and Alice.
    const contract: Contract = {
      type: 'When',
      cases: Array.from({ length: 12 }, (_, i) => ({
        type: 'Case' as const,
        action: {
          type: 'Choice' as const,
          choice: { name: `c${i + 1}`, owner: aliceParty },
          bounds: [{ from: 0n, to: 0n }]
        },
        then: paying(i + 1)
      })),
      timeout: T0 + 10n * DAY,
      timeoutContinuation: CLOSE
    }
    const built = await builder.create({ changeAddress: alice.address }, { contract })
    const chosen = fatal(built.safetyErrors).map(
      (e) =>
        (e['transaction'] as { input: { tx_inputs: { for_choice_id: { choice_name: string } }[] } }).input.tx_inputs[0]!
          .for_choice_id.choice_name
    )
    // Every step spends the same datum, so the largest datums are the same three.
    expect(chosen).toEqual(['c12', 'c11', 'c10'])
    expect(provider.evaluations.length).toBe(3)
    expect(provider.evaluations.length).toBeLessThanOrEqual(2 * COSTLIEST_PER_MEASURE)
  })

  test('each transaction evaluated is one the Marlowe validator accepts: roles, payouts, signers, times', async () => {
    const { provider, builder } = setup(succeedingDir)
    const recipients = (w: typeof alice) => [{ destination: { address: w.address }, quantity: 1n }]
    const created = await builder.create(
      { changeAddress: alice.address },
      {
        contract: rolesEscrow(),
        roles: {
          type: 'Mint',
          roles: [
            { name: 'Buyer', recipients: recipients(alice) },
            { name: 'Seller', recipients: recipients(bob) },
            { name: 'Mediator', recipients: recipients(alice) }
          ]
        }
      }
    )
    expect(created.safetyErrors).toEqual([])
    const fromCreate = provider.evaluations.length
    // An address party choosing (signing for it) after a notification, checked by the create and by the apply.
    const byAddress: Contract = {
      type: 'When',
      cases: [
        {
          type: 'Case',
          action: { type: 'Notify', observation: true },
          then: {
            type: 'When',
            cases: [
              {
                type: 'Case',
                action: {
                  type: 'Choice',
                  choice: { name: 'ok', owner: { type: 'Address', address: bob.address } },
                  bounds: [{ from: 1n, to: 1n }]
                },
                then: paying(3)
              }
            ],
            timeout: T0 + 20n * DAY,
            timeoutContinuation: CLOSE
          }
        }
      ],
      timeout: T0 + 10n * DAY,
      timeoutContinuation: CLOSE
    }
    const twoSteps = await builder.create({ changeAddress: alice.address }, { contract: byAddress })
    await sandbox.submit(sign(twoSteps.tx, [alice]))
    const beforeApply = provider.evaluations.length
    const applied = await builder.applyInputs(
      { changeAddress: alice.address },
      { contractId: twoSteps.contractId, inputs: [{ content: { type: 'INotify' } }] }
    )
    expect(applied.safetyErrors).toEqual([])
    // The choice and the timeout that may follow (the apply's own evaluation has no additional UTxOs).
    expect(provider.evaluations.length - beforeApply).toBe(2)
    expect(fromCreate).toBeGreaterThan(0)
    expect(provider.evaluations.length).toBeGreaterThan(3)
    const d = deploymentOf(sandbox)
    for (const { tx, utxos } of provider.evaluations) {
      const context = {
        provider: new WithAdditional(sandbox, utxos),
        semanticsHash: d.semantics.hash,
        payoutHash: d.payout.hash
      }
      expect(await checkMarloweSpend(context, tx)).toEqual([])
    }
  })
})

describe('through the Blockfrost adapter, as on a real network', () => {
  /** A builder over the local Blockfrost serving the sandbox, spending through the sandbox's given validators. */
  async function overBlockfrost(validators: string) {
    const clock = openSandbox(validators)
    const peer = await sandboxPeer(sandbox)
    const builder = new MarloweTxBuilder({
      provider: sandboxBlockfrost(peer),
      reservations: new InMemoryInputReservations(),
      now: clock.now,
      scripts: [deploymentOf(sandbox)]
    })
    return { peer, builder }
  }

  test('the reference script, the additional UTxOs and the budgets go through its API; within the limits nothing is reported', async () => {
    const { peer, builder } = await overBlockfrost(succeedingDir)
    try {
      const built = await builder.create({ changeAddress: alice.address }, { contract: manyPayouts, ...funded })
      expect(built.safetyErrors).toEqual([])
      expect(peer.requestsTo(/^POST .*\/utils\/txs\/evaluate\/utxos$/)).toHaveLength(2)
    } finally {
      await peer.close()
    }
  })

  test('a script running out of the budget: its answer counts as over, and a funded create is refused', async () => {
    const { peer, builder } = await overBlockfrost(loopingDir)
    try {
      const refused = await failure(
        builder.create({ changeAddress: alice.address }, { contract: manyPayouts, ...funded })
      )
      expect(refused.code).toBe('SafetyAnalysisFailed')
      const errors = refused.details['safetyErrors'] as SafetyError[]
      expect(errors.map((e) => [e.error, e.fatal])).toEqual([
        ['TransactionValidationError', true],
        ['TransactionValidationError', true]
      ])
      expect(errors[0]!['message']).toMatch(/The scripts run out of the per-transaction budget .*over budget/)
    } finally {
      await peer.close()
    }
  })
})

test('on stand-in scripts only the size is checked, a note says so, and a funded create is built', async () => {
  const { provider, builder } = setup(undefined)
  const note = {
    error: COST_NOT_CHECKED,
    detail:
      "The execution cost of the contract's transactions was not checked, only their size: this chain runs stand-in Marlowe scripts, not the Marlowe validators.",
    fatal: false
  }
  const built = await builder.create({ changeAddress: alice.address }, { contract: manyPayouts })
  expect(built.safetyErrors).toEqual([note])
  const fundedBuilt = await builder.create({ changeAddress: alice.address }, { contract: manyPayouts, ...funded })
  expect(fundedBuilt.safetyErrors).toEqual([note])
  // A contract with nothing left to run has nothing to check.
  expect((await builder.create({ changeAddress: alice.address }, { contract: CLOSE })).safetyErrors).toEqual([])
  expect(provider.evaluations).toHaveLength(0)
  for (const b of [built, fundedBuilt]) await builder.release(b.reservation.key)
  // An apply reports the same of what follows it.
  const twoSteps: Contract = {
    type: 'When',
    cases: [{ type: 'Case', action: { type: 'Notify', observation: true }, then: manyPayouts }],
    timeout: T0 + 5n * DAY,
    timeoutContinuation: CLOSE
  }
  const created = await builder.create({ changeAddress: alice.address }, { contract: twoSteps })
  await sandbox.submit(sign(created.tx, [alice]))
  const applied = await builder.applyInputs(
    { changeAddress: alice.address },
    { contractId: created.contractId, inputs: [{ content: { type: 'INotify' } }] }
  )
  expect(applied.safetyErrors).toEqual([note])
})

test('on stand-in scripts a transaction over the size limit is fatal: a close paying more roles than one transaction holds', async () => {
  const { provider, builder } = setup(undefined)
  // Each role payout is an output at the payout validator with its datum, about twice the bytes the contract
  // spends on it: the contract and its create fit in a transaction, the close paying every role does not.
  const owner: Party = { type: 'Role', role: 'a' }
  const roles = Array.from({ length: 200 }, (_, i) => `r${i}`)
  let pays: Contract = CLOSE
  for (const role of [...roles].reverse()) {
    pays = {
      type: 'Pay',
      from: owner,
      to: { type: 'Party', party: { type: 'Role', role } },
      token: ADA_TOKEN,
      value: 2n * ADA,
      then: pays
    }
  }
  const contract: Contract = {
    type: 'When',
    cases: [{ type: 'Case', action: { type: 'Notify', observation: true }, then: pays }],
    timeout: T0 + 10n * DAY,
    timeoutContinuation: CLOSE
  }
  // An existing policy: the roles are held elsewhere, and minting 200 would not fit in one transaction either.
  const policy = { type: 'UsePolicy' as const, policyId: 'ab'.repeat(28) }
  const accounts = [{ party: owner, token: ADA_TOKEN, amount: 500n * ADA }]
  const refused = await failure(builder.create({ changeAddress: alice.address }, { contract, roles: policy, accounts }))
  expect(refused.code).toBe('SafetyAnalysisFailed')
  const errors = refused.details['safetyErrors'] as SafetyError[]
  expect(fatal(errors)).toEqual([
    expect.objectContaining({
      error: 'TransactionValidationError',
      transaction: expect.objectContaining({ input: expect.objectContaining({ tx_inputs: ['input_notify'] }) }),
      message: expect.stringMatching(
        /^Over the protocol's per-transaction limits\. Transaction size in bytes: \d+ of at most 16384 \(\d+ over\)\.$/
      )
    })
  ])
  expect(errors.at(-1)?.error).toBe(COST_NOT_CHECKED)
  expect(provider.evaluations).toHaveLength(0)
  // Unfunded, nothing is paid at the close: it fits, and the create is built.
  const built = await builder.create({ changeAddress: alice.address }, { contract, roles: policy })
  expect(fatal(built.safetyErrors)).toEqual([])
})
