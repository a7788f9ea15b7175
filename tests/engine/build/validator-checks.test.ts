/**
 * The semantics validator's own checks (marlowe-core.md §4) that the sandbox's stand-in cannot make, made by the
 * engine before anything is built. Merkleized inputs (check h): the revealed continuation is built as the
 * validator wants it and confirmed; one that does not hash to the hash it names is refused. Authorisation
 * (check s): an address party with a script credential can never act. Continuation (check o and the ledger):
 * a continuing output below its min-UTxO is refused. errors.test.ts has the refusals for intervals (a), a UTxO
 * that is not the validator's (w), the spent state (i) and the semantics' own errors; the rest (payout outputs
 * r/p, the continuing datum d) holds by construction and is checked on every lifecycle build (marlowe-validator.ts).
 */
import { afterEach, describe, expect, test } from 'vitest'
import { deepMerkleize, inputForCase } from '../../../src/core/marlowe/merkle'
import { ADA as ADA_TOKEN, CLOSE, type Contract, type InputContent, type Party } from '../../../src/core/marlowe/types'
import { payoutValidatorAddress } from '../../../src/chain/deployments'
import { expectValidApply } from './flows'
import { ADA, T0, costCheckNotes, failure, harness, testWallet, type Harness } from './support'

const alice = testWallet('alice')
const bob = testWallet('bob')
const address = (w: { address: string }): Party => ({ type: 'Address', address: w.address })

let h: Harness
afterEach(async () => h.close())

/** alice deposits 10 ada, which is then paid to bob: the deposit case's continuation is merkleized. */
function merkleizedPayment() {
  const plain: Contract = {
    type: 'When',
    cases: [
      {
        type: 'Case',
        action: { type: 'Deposit', account: address(alice), party: address(alice), token: ADA_TOKEN, value: 10n * ADA },
        then: {
          type: 'Pay',
          from: address(alice),
          to: { type: 'Party', party: address(bob) },
          token: ADA_TOKEN,
          value: 10n * ADA,
          then: CLOSE
        }
      }
    ],
    timeout: T0 + 86_400_000n,
    timeoutContinuation: CLOSE
  }
  const merkleized = deepMerkleize(plain)
  if (merkleized.contract.type !== 'When') throw new Error('a When merkleizes to a When')
  return { when: merkleized.contract, continuations: merkleized.continuations }
}

const deposit: InputContent = {
  type: 'IDeposit',
  account: address(alice),
  party: address(alice),
  token: ADA_TOKEN,
  amount: 10n * ADA
}

describe('merkleized inputs (check h)', () => {
  test('the revealed continuation is built, checked as the validator checks it, and confirmed', async () => {
    h = harness()
    const { when, continuations } = merkleizedPayment()
    expect(when.cases[0]?.type).toBe('MerkleizedCase')
    const created = await h.builder.create({ changeAddress: alice.address }, { contract: when, continuations })
    expect(created.safetyErrors).toEqual(costCheckNotes(h.sandbox))
    await h.submit(created, [alice])
    const inputs = [inputForCase(when, 0, deposit, continuations)]
    const applied = await h.builder.applyInputs(
      { changeAddress: alice.address },
      { contractId: created.contractId, inputs }
    )
    await expectValidApply(h, applied, inputs)
    expect(applied.output).toBeUndefined()
    // bob is paid by the revealed continuation; closing refunds alice's min-ADA deposit.
    expect(applied.payments.map((p) => [p.to, p.amount])).toContainEqual([
      { type: 'Party', party: address(bob) },
      10n * ADA
    ])
    await h.submit(applied, [alice])
    expect(await h.sandbox.txStatus(applied.txId)).toMatchObject({ status: 'confirmed' })
  })

  test('a continuation that does not hash to the hash it names is refused before building', async () => {
    h = harness()
    const { when, continuations } = merkleizedPayment()
    const created = await h.builder.create({ changeAddress: alice.address }, { contract: when, continuations })
    await h.submit(created, [alice])
    const honest = inputForCase(when, 0, deposit, continuations)
    // The case's hash, with another contract revealed under it: the semantics alone would accept this.
    const forged = { content: deposit, merkleized: { hash: honest.merkleized!.hash, continuation: CLOSE } }
    const refused = await failure(
      h.builder.applyInputs({ changeAddress: alice.address }, { contractId: created.contractId, inputs: [forged] })
    )
    expect(refused).toMatchObject({
      kind: 'BadRequest',
      code: 'MarloweComputeTransactionFailed',
      details: { input: 0n }
    })
    expect(refused.message).toContain(honest.merkleized!.hash)
    // Nothing was reserved: the honest input builds at once.
    const applied = await h.builder.applyInputs(
      { changeAddress: alice.address },
      { contractId: created.contractId, inputs: [honest] }
    )
    await expectValidApply(h, applied, [honest])
  })
})

describe('authorisation and continuation', () => {
  test('an address party with a script credential can never act (check s)', async () => {
    h = harness()
    const script: Party = { type: 'Address', address: payoutValidatorAddress('sandbox') }
    const contract: Contract = {
      type: 'When',
      cases: [{ type: 'Case', action: { type: 'Notify', observation: true }, then: CLOSE }],
      timeout: T0 + 86_400_000n,
      timeoutContinuation: CLOSE
    }
    const choice: Contract = {
      type: 'When',
      cases: [
        {
          type: 'Case',
          action: { type: 'Choice', choice: { name: 'go', owner: script }, bounds: [{ from: 0n, to: 1n }] },
          then: contract
        }
      ],
      timeout: T0 + 86_400_000n,
      timeoutContinuation: CLOSE
    }
    const created = await h.builder.create({ changeAddress: alice.address }, { contract: choice })
    await h.submit(created, [alice])
    const e = await failure(
      h.builder.applyInputs(
        { changeAddress: alice.address },
        {
          contractId: created.contractId,
          inputs: [{ content: { type: 'IChoice', choice: { name: 'go', owner: script }, chosen: 1n } }]
        }
      )
    )
    expect(e).toMatchObject({ kind: 'BadRequest', details: { address: script.address } })
    expect(e.message).toContain('the validator can never authorise it')
  })

  test('a continuing output below its min-UTxO is refused (check o, and the ledger)', async () => {
    h = harness()
    // The creator's min-ADA deposit is paid away while the contract goes on waiting.
    const created = await h.builder.create(
      { changeAddress: alice.address },
      {
        contract: {
          type: 'When',
          cases: [
            {
              type: 'Case',
              action: { type: 'Notify', observation: true },
              then: {
                type: 'Pay',
                from: address(alice),
                to: { type: 'Party', party: address(bob) },
                token: ADA_TOKEN,
                value: { type: 'AvailableMoney', account: address(alice), token: ADA_TOKEN },
                then: {
                  type: 'When',
                  cases: [],
                  timeout: T0 + 2n * 86_400_000n,
                  timeoutContinuation: CLOSE
                }
              }
            }
          ],
          timeout: T0 + 86_400_000n,
          timeoutContinuation: CLOSE
        }
      }
    )
    await h.submit(created, [alice])
    const e = await failure(
      h.builder.applyInputs(
        { changeAddress: alice.address },
        { contractId: created.contractId, inputs: [{ content: { type: 'INotify' } }] }
      )
    )
    expect(e).toMatchObject({ kind: 'BadRequest', code: 'CalculateMinUtxoFailed' })
  })
})
