/**
 * A contract as the engine answers `contracts.get` and `contracts.next` (src/api/contract.ts: the core's Marlowe
 * model), with the core's own next-step discovery — so the screens are tested on the real shapes and real steps.
 * Also the app status and the wallet most screen tests use.
 */
import type { AppStatus, ContractDetail, PayoutInfo, WalletSummary } from '../../../src/api/contract'
import { next, type NextSteps } from '../../../src/core/marlowe/next'
import type { Contract, Party, State } from '../../../src/core/marlowe/types'

export const CONTRACT_ID = `${'c0'.repeat(32)}#1`
export const ROLES = 'fe'.repeat(28)

export function contractDetail(
  contract: Contract,
  state: State,
  nextTimeout?: bigint,
  unclaimedPayouts: readonly PayoutInfo[] = []
): ContractDetail {
  return {
    contract: {
      contractId: CONTRACT_ID,
      rolesCurrency: ROLES,
      tags: { 'desk.test': null },
      metadata: {},
      status: 'confirmed',
      block: { slot: 1234n, blockNo: 56n, blockHash: 'ab'.repeat(32) },
      initialContract: contract,
      initialState: state,
      current: { contract, state, utxo: CONTRACT_ID },
      assets: { lovelace: 2_000_000n, assets: [] },
      unclaimedPayouts
    },
    transactions: [],
    ...(nextTimeout === undefined ? {} : { nextTimeout })
  }
}

/** What `contracts.next` answers at `now`, for the wallet's parties. */
export function nextSteps(contract: Contract, state: State, now: bigint, parties: readonly Party[]): NextSteps {
  const result = next({ timeInterval: { from: now, to: now + 60_000n } }, state, contract, parties)
  if (result.type !== 'Next') throw new Error('the test contract has no next steps at that time')
  return result
}

export function status(chainTime: bigint, network: AppStatus['network'] = 'sandbox'): AppStatus {
  return { version: '0.1.0', network, tip: { slot: 100n, blockNo: 5n, time: chainTime }, chainTime }
}

export const WALLET: WalletSummary = {
  id: '11'.repeat(20),
  name: 'Test wallet',
  kind: 'mnemonic',
  locked: false,
  address: 'addr_test1vqg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygxrcya6'
}
