/**
 * A 10-ada deposit into an address-party contract, built on a sandbox desk and exported both ways an offline
 * machine gets it: as a review bundle (with the outputs it spends) and as a bare unsigned transaction file.
 */
import type { WalletSummary } from '../../../src/api/contract'
import { stringifyContract, stringifyInputs } from '../../../src/core/marlowe/json'
import { ADA as ADA_TOKEN, CLOSE, type Contract, type Party } from '../../../src/core/marlowe/types'
import { ADA, T0 } from '../build/support'
import { PASSWORD, type DeskHarness } from './support'

export interface DepositFiles {
  readonly txId: string
  readonly bundleText: string
  readonly unsignedText: string
}

export const DEPOSIT_AMOUNT = 10n * ADA

/** Opens the contract (signed and confirmed), then builds the deposit that closes it and exports it. */
export async function depositFiles(h: DeskHarness, wallet: WalletSummary): Promise<DepositFiles> {
  const party: Party = { type: 'Address', address: wallet.address }
  const contract: Contract = {
    type: 'When',
    cases: [
      {
        type: 'Case',
        action: { type: 'Deposit', account: party, party, token: ADA_TOKEN, value: DEPOSIT_AMOUNT },
        then: CLOSE
      }
    ],
    timeout: T0 + 86_400_000n,
    timeoutContinuation: CLOSE
  }
  const created = await h.ok('contracts.create', {
    walletId: wallet.id,
    contractJson: stringifyContract(contract),
    roles: [],
    tags: []
  })
  await h.ok('tx.signAndSubmit', { txId: created.txId, walletId: wallet.id, password: PASSWORD })
  await h.opened.follower.sync()
  const paid = await h.ok('contracts.apply', {
    walletId: wallet.id,
    contractId: created.contractId!,
    inputsJson: stringifyInputs([
      { content: { type: 'IDeposit', account: party, party, token: ADA_TOKEN, amount: DEPOSIT_AMOUNT } }
    ])
  })
  return {
    txId: paid.txId,
    bundleText: (await h.ok('tx.exportBundle', { txId: paid.txId })).text,
    unsignedText: (await h.ok('tx.exportUnsigned', { txId: paid.txId })).text
  }
}
