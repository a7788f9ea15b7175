/** The roles escrow's steps through a service: created by carol, inputs applied by a wallet, each followed. */
import type { Input } from '../../../src/core/marlowe/types'
import type { OpenService } from '../../../src/engine/service'
import { rolesEscrow } from '../build/flows'
import { testWallet, type TestWallet } from '../build/support'
import { escrowRoles, witnessEnvelope } from './support'

/** The roles escrow created by carol (roles to alice, bob and carol), signed, submitted and followed. */
export async function createEscrow(h: Pick<OpenService, 'service' | 'follower'>): Promise<string> {
  const created = await h.service.createContract(
    { changeAddress: testWallet('carol').address },
    {
      contract: rolesEscrow(),
      roles: escrowRoles(),
      tags: { 'desk.test': 'from another builder' },
      metadata: { '674': { msg: ['an escrow'] } }
    }
  )
  await h.service.submit(
    { kind: 'create', contractId: created.contractId },
    witnessEnvelope(created.unsigned.tx, [testWallet('carol')])
  )
  await h.follower.sync()
  return created.contractId
}

/** Applies `inputs` as `wallet`: built, signed, submitted and followed; the transaction's id. */
export async function applyAs(
  h: Pick<OpenService, 'service' | 'follower'>,
  contractId: string,
  wallet: TestWallet,
  inputs: Input[]
): Promise<string> {
  const built = await h.service.applyInputs(
    contractId,
    { changeAddress: wallet.address },
    { inputs, tags: {}, metadata: {} }
  )
  await h.service.submit(
    { kind: 'apply', contractId, transactionId: built.transactionId },
    witnessEnvelope(built.unsigned.tx, [wallet])
  )
  await h.follower.sync()
  return built.transactionId
}
