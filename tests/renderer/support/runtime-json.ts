/**
 * Runtime's resource JSON for a contract, as the engine sends it (`contracts.get`, `contracts.next`), written with
 * the core's encoders and next-step discovery — so the screens are tested on the real shapes and real steps.
 */
import type { AppStatus, ContractDetail, WalletSummary } from '../../../src/api/contract'
import type { JsonObject } from '../../../src/core/json/lossless'
import { encodeContract, encodeNextSteps, encodeState } from '../../../src/core/marlowe/json/encode'
import { next } from '../../../src/core/marlowe/next'
import type { Contract, Party, State } from '../../../src/core/marlowe/types'

export const CONTRACT_ID = `${'c0'.repeat(32)}#1`
export const ROLES = 'fe'.repeat(28)

export function contractDetail(
  contract: Contract,
  state: State,
  nextTimeout?: bigint,
  unclaimedPayouts: readonly JsonObject[] = []
): ContractDetail {
  const header = {
    contractId: CONTRACT_ID,
    roleTokenMintingPolicyId: ROLES,
    version: 'v1',
    tags: { 'desk.test': null },
    metadata: {},
    status: 'confirmed',
    block: { slotNo: 1234n, blockNo: 56n, blockHeaderHash: 'ab'.repeat(32) }
  }
  const stateJson: JsonObject = {
    ...header,
    initialContract: encodeContract(contract),
    initialState: encodeState(state),
    currentContract: encodeContract(contract),
    state: encodeState(state),
    utxo: CONTRACT_ID,
    assets: { lovelace: 2_000_000n, tokens: {} },
    txBody: null,
    unclaimedPayouts: [...unclaimedPayouts]
  }
  return { state: stateJson, transactions: [], ...(nextTimeout === undefined ? {} : { nextTimeout }) }
}

/** What `contracts.next` answers at `now`, for the wallet's parties. */
export function nextJson(contract: Contract, state: State, now: bigint, parties: readonly Party[]): JsonObject {
  const result = next({ timeInterval: { from: now, to: now + 60_000n } }, state, contract, parties)
  if (result.type !== 'Next') throw new Error('the test contract has no next steps at that time')
  return encodeNextSteps(result)
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
