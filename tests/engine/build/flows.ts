/** Shared steps of the lifecycle tests: minting test tokens, balances, and the independent validator check. */
import { expect } from 'vitest'
import { deploymentOf } from '../../../src/chain/deployments'
import type { Value } from '../../../src/core/cardano/value'
import { decodeRedeemer } from '../../../src/core/marlowe/plutus/marlowe-data'
import { escrow } from '../../../src/core/marlowe/examples'
import { ADA as ADA_TOKEN, CLOSE, type Contract, type Input, type Party } from '../../../src/core/marlowe/types'
import type { ApplyBuild, CreateBuild, WithdrawBuild } from '../../../src/engine/build'
import { sumValues } from '../../../src/engine/build/values'
import { checkCreate, checkMarloweSpend, checkPayoutSpends, decodeTx, type ValidatorContext } from './marlowe-validator'
import { ADA, T0, type Harness, type TestWallet } from './support'

export function validatorContext(h: Harness): ValidatorContext {
  const d = deploymentOf(h.sandbox)
  return { provider: h.sandbox, semanticsHash: d.semantics.hash, payoutHash: d.payout.hash }
}

export async function balance(h: Harness, address: string): Promise<Value> {
  return sumValues((await h.sandbox.utxosAt([address])).map((u) => u.value))
}

export function quantity(v: Value, policyId: string, assetName: string): bigint {
  return v.assets[policyId]?.[assetName] ?? 0n
}

/** Mints `amount` of a test token (name `name`) to `wallet` through a create whose contract is Close. */
export async function mintTestToken(h: Harness, wallet: TestWallet, name: string, amount: bigint): Promise<string> {
  const built = await h.builder.create(
    { changeAddress: wallet.address },
    {
      contract: CLOSE,
      roles: {
        type: 'Mint',
        roles: [{ name, recipients: [{ destination: { address: wallet.address }, quantity: amount }] }]
      }
    }
  )
  await h.submit(built, [wallet])
  return built.rolesCurrency
}

/** The create's datum, read back from the tx bytes, is what the builder says it made; the state is valid. */
export function expectValidCreate(h: Harness, built: CreateBuild): void {
  const { issues, datum } = checkCreate(validatorContext(h), built.tx)
  expect(issues).toEqual([])
  expect(datum).toEqual(built.datum)
}

/** What the real semantics validator would check passes, and the redeemer decodes to the inputs we sent. */
export async function expectValidApply(h: Harness, built: ApplyBuild, inputs: readonly Input[]): Promise<void> {
  expect(await checkMarloweSpend(validatorContext(h), built.tx)).toEqual([])
  const d = decodeTx(built.tx)
  const spend = d.redeemers.find((r) => r.tag === 'spend')
  expect(spend).toBeDefined()
  expect(
    decodeRedeemer(spend!.data, (hash) => inputs.find((i) => i.merkleized?.hash === hash)?.merkleized?.continuation)
  ).toEqual(inputs)
}

export async function expectValidWithdraw(h: Harness, built: WithdrawBuild): Promise<void> {
  expect(await checkPayoutSpends(validatorContext(h), built.tx)).toEqual([])
}

/** The Playground escrow between roles Buyer, Seller and Mediator: 100 ada, deadlines a day apart from `start`. */
export function rolesEscrow(start: bigint = T0): Contract {
  const role = (name: string): Party => ({ type: 'Role', role: name })
  const day = 86_400_000n
  return escrow({
    seller: role('Seller'),
    buyer: role('Buyer'),
    mediator: role('Mediator'),
    price: 100n * ADA,
    token: ADA_TOKEN,
    paymentDeadline: start + day,
    complaintDeadline: start + 2n * day,
    disputeDeadline: start + 3n * day,
    mediationDeadline: start + 4n * day
  }).contract
}
