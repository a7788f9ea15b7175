/** Every roles form of a create: an existing policy, minting with several recipients, open roles, staking. */
import { afterEach, describe, expect, test } from 'vitest'
import { deploymentOf, semanticsValidatorAddress } from '../../../src/chain/deployments'
import { bytesToHex, utf8Encode } from '../../../src/core/bytes'
import { encodePlutusData } from '../../../src/core/marlowe/plutus/data'
import { datumHash } from '../../../src/core/marlowe/plutus/hash'
import { ADA as ADA_TOKEN, CLOSE, type Contract, type Input, type Party } from '../../../src/core/marlowe/types'
import { scriptAddress } from '../../../src/engine/build/scripts'
import { balance, expectValidApply, expectValidCreate, mintTestToken, quantity } from './flows'
import { decodeTx } from './marlowe-validator'
import { ADA, T0, costCheckNotes, harness, testWallet, type Harness } from './support'

const DAY = 86_400_000n
const alice = testWallet('alice')
const bob = testWallet('bob')
const dave = testWallet('dave')
const hex = (s: string): string => bytesToHex(utf8Encode(s)!)
const role = (name: string): Party => ({ type: 'Role', role: name })

let h: Harness
afterEach(async () => h.close())

/** Buyer deposits 10 ada into Seller's account; then anyone may notify to close. */
const depositThenNotify: Contract = {
  type: 'When',
  cases: [
    {
      type: 'Case',
      action: { type: 'Deposit', account: role('Seller'), party: role('Buyer'), token: ADA_TOKEN, value: 10n * ADA },
      then: {
        type: 'When',
        cases: [{ type: 'Case', action: { type: 'Notify', observation: true }, then: CLOSE }],
        timeout: T0 + 2n * DAY,
        timeoutContinuation: CLOSE
      }
    }
  ],
  timeout: T0 + DAY,
  timeoutContinuation: CLOSE
}
const buyerDeposit: Input[] = [
  { content: { type: 'IDeposit', account: role('Seller'), party: role('Buyer'), token: ADA_TOKEN, amount: 10n * ADA } }
]

describe('roles', () => {
  test('an existing policy: nothing minted, the policy is the roles currency', async () => {
    h = harness()
    const policy = await mintTestToken(h, alice, 'Buyer', 1n)
    const created = await h.builder.create(
      { changeAddress: bob.address },
      { contract: depositThenNotify, roles: { type: 'UsePolicy', policyId: policy } }
    )
    expectValidCreate(h, created)
    expect(created.rolesCurrency).toBe(policy)
    expect(decodeTx(created.tx).mint).toEqual({ lovelace: 0n, assets: {} })
    // Seller has no token anywhere: Runtime does not check existing policies' distribution.
    expect(created.safetyErrors).toEqual(costCheckNotes(h.sandbox))
    await h.submit(created, [bob])
    const paid = await h.builder.applyInputs(
      { changeAddress: alice.address },
      { contractId: created.contractId, inputs: buyerDeposit }
    )
    await expectValidApply(h, paid, buyerDeposit)
    await h.submit(paid, [alice])
  })

  test('minting to several holders with quantities; safety reports unused and missing roles', async () => {
    h = harness()
    const created = await h.builder.create(
      { changeAddress: alice.address },
      {
        contract: depositThenNotify,
        roles: {
          type: 'Mint',
          roles: [
            {
              name: 'Buyer',
              recipients: [
                { destination: { address: alice.address }, quantity: 2n },
                { destination: { address: bob.address }, quantity: 3n },
                { destination: { address: dave.address }, quantity: 0n }
              ]
            },
            { name: 'Extra', recipients: [{ destination: { address: bob.address }, quantity: 1n }] }
          ]
        }
      }
    )
    expect(created.safetyErrors.map((e) => [e.error, e['role-name']])).toEqual([
      ['MissingRoleToken', 'Seller'],
      ['ExtraRoleToken', 'Extra'],
      ...costCheckNotes(h.sandbox).map((e) => [e.error, undefined])
    ])
    expect(decodeTx(created.tx).mint).toEqual({
      lovelace: 0n,
      assets: { [created.rolesCurrency]: { [hex('Buyer')]: 5n, [hex('Extra')]: 1n } }
    })
    await h.submit(created, [alice])
    expect(quantity(await balance(h, alice.address), created.rolesCurrency, hex('Buyer'))).toBe(2n)
    expect(quantity(await balance(h, bob.address), created.rolesCurrency, hex('Buyer'))).toBe(3n)
    expect(quantity(await balance(h, dave.address), created.rolesCurrency, hex('Buyer'))).toBe(0n)
  })

  test('open roles: the thread token stays with the contract; the first input releases the role to its taker', async () => {
    h = harness()
    const created = await h.builder.create(
      { changeAddress: alice.address },
      {
        contract: depositThenNotify,
        threadTokenName: 'Thread',
        roles: {
          type: 'Mint',
          roles: [
            { name: 'Buyer', recipients: [{ destination: { openRole: true }, quantity: 1n }] },
            { name: 'Seller', recipients: [{ destination: { address: bob.address }, quantity: 1n }] }
          ]
        }
      }
    )
    expectValidCreate(h, created)
    const policy = created.rolesCurrency
    expect(quantity(created.assets, policy, hex('Thread'))).toBe(1n)
    expect(created.datum.state.accounts).toContainEqual([
      { account: { type: 'Address', address: alice.address }, token: { currencySymbol: policy, tokenName: 'Thread' } },
      1n
    ])
    const d = decodeTx(created.tx)
    const openRoleAddress = scriptAddress(false, deploymentOf(h.sandbox).openRole.hash)
    const openOutput = d.outputs.find((o) => o.address === openRoleAddress)!
    const threadDatum = encodePlutusData(utf8Encode('Thread')!)
    expect(openOutput.datumHash).toBe(datumHash(threadDatum))
    expect(d.datums.get(datumHash(threadDatum))).toEqual(threadDatum)
    expect(quantity(openOutput.value, policy, hex('Buyer'))).toBe(1n)
    await h.submit(created, [alice])

    // dave holds no Buyer token: the deposit takes it from the open-role validator and dave keeps it.
    const paid = await h.builder.applyInputs(
      { changeAddress: dave.address },
      { contractId: created.contractId, inputs: buyerDeposit }
    )
    await expectValidApply(h, paid, buyerDeposit)
    expect(paid.spent.length).toBeGreaterThanOrEqual(3)
    await h.submit(paid, [dave])
    expect(quantity(await balance(h, dave.address), policy, hex('Buyer'))).toBe(1n)
    expect(quantity(await balance(h, openRoleAddress), policy, hex('Buyer'))).toBe(0n)
  })

  test('check z: a transaction that releases an open role and pays a party is refused before building', async () => {
    h = harness()
    // Buyer's deposit pays Seller at once: the payout would sit beside the open-role validator's input.
    const payAtOnce: Contract = {
      type: 'When',
      cases: [
        {
          type: 'Case',
          action: {
            type: 'Deposit',
            account: role('Seller'),
            party: role('Buyer'),
            token: ADA_TOKEN,
            value: 10n * ADA
          },
          then: {
            type: 'Pay',
            from: role('Seller'),
            to: { type: 'Party', party: role('Seller') },
            token: ADA_TOKEN,
            value: 10n * ADA,
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
        contract: payAtOnce,
        threadTokenName: 'Thread',
        roles: {
          type: 'Mint',
          roles: [
            { name: 'Buyer', recipients: [{ destination: { openRole: true }, quantity: 1n }] },
            { name: 'Seller', recipients: [{ destination: { address: bob.address }, quantity: 1n }] }
          ]
        }
      }
    )
    await h.submit(created, [alice])
    const refused = await h.builder
      .applyInputs({ changeAddress: dave.address }, { contractId: created.contractId, inputs: buyerDeposit })
      .then(
        () => undefined,
        (e: unknown) => e
      )
    expect(refused).toMatchObject({ kind: 'BadRequest' })
    expect((refused as Error).message).toContain('cannot also make payouts')
  })

  test('open roles under an existing policy: the wallet supplies the role and thread tokens', async () => {
    h = harness()
    const minted = await h.builder.create(
      { changeAddress: alice.address },
      {
        contract: CLOSE,
        roles: {
          type: 'Mint',
          roles: [
            { name: 'Buyer', recipients: [{ destination: { address: alice.address }, quantity: 1n }] },
            { name: 'Thread', recipients: [{ destination: { address: alice.address }, quantity: 1n }] }
          ]
        }
      }
    )
    await h.submit(minted, [alice])
    const policy = minted.rolesCurrency
    const created = await h.builder.create(
      { changeAddress: alice.address },
      {
        contract: depositThenNotify,
        threadTokenName: 'Thread',
        roles: { type: 'UsePolicy', policyId: policy, openRoles: ['Buyer'] }
      }
    )
    expectValidCreate(h, created)
    expect(decodeTx(created.tx).mint).toEqual({ lovelace: 0n, assets: {} })
    expect(quantity(created.assets, policy, hex('Thread'))).toBe(1n)
    // Seller is used but not distributed: Runtime reports nothing for an existing policy's other roles.
    expect(created.safetyErrors).toEqual(costCheckNotes(h.sandbox))
    await h.submit(created, [alice])
    expect(quantity(await balance(h, alice.address), policy, hex('Buyer'))).toBe(0n)
    const paid = await h.builder.applyInputs(
      { changeAddress: dave.address },
      { contractId: created.contractId, inputs: buyerDeposit }
    )
    await expectValidApply(h, paid, buyerDeposit)
    await h.submit(paid, [dave])
    expect(quantity(await balance(h, dave.address), policy, hex('Buyer'))).toBe(1n)
  })

  test('a stake address puts its credential on the Marlowe output, and the contract continues there', async () => {
    h = harness()
    const stake = 'stake_test1uzhr5zn6akj2affzua8ylcm8t872spuf5cf6tzjrvnmwemcehgcjm'
    const contract: Contract = {
      type: 'When',
      cases: [{ type: 'Case', action: { type: 'Notify', observation: true }, then: depositThenNotify }],
      timeout: T0 + DAY,
      timeoutContinuation: CLOSE
    }
    const created = await h.builder.create(
      { changeAddress: alice.address },
      { contract, stakeAddress: stake, roles: { type: 'UsePolicy', policyId: 'ab'.repeat(28) } }
    )
    expect(created.marloweAddress).not.toBe(semanticsValidatorAddress(deploymentOf(h.sandbox)))
    expect(decodeTx(created.tx).outputs[0]!.address).toBe(created.marloweAddress)
    await h.submit(created, [alice])
    const notify: Input[] = [{ content: { type: 'INotify' } }]
    const next = await h.builder.applyInputs(
      { changeAddress: alice.address },
      { contractId: created.contractId, inputs: notify }
    )
    await expectValidApply(h, next, notify)
    expect(decodeTx(next.tx).outputs[0]!.address).toBe(created.marloweAddress)
    await h.submit(next, [alice])
  })
})
