/**
 * A synthetic Marlowe history for the chain-index benchmark: `contracts` contracts, each created and then moved
 * by three Notify inputs to its close (four transactions a contract), one transaction per block, the creates of
 * every contract first, then each round of applies. The transactions are written directly in CBOR: what the
 * index reads of them (inputs, outputs at the semantics script with their datums in the witness set, the
 * redeemer, the validity interval) is as Desk and Runtime write it; fees, keys and scripts are left out, since
 * nothing here is submitted to a ledger.
 */
import type { BlockPoint, ChainTx } from '../src/chain/provider'
import { blake2b, blake2bHex } from '../src/core/blake2b'
import { concatBytes, hexToBytes } from '../src/core/bytes'
import { encodeByteString, encodeHead } from '../src/core/cardano/cbor/writer'
import { encodeMarloweData, encodeRedeemer } from '../src/core/marlowe/plutus/marlowe-data'
import { ADA, CLOSE, type Contract, type Party } from '../src/core/marlowe/types'

const STEPS = 3
export const TRUE = Uint8Array.of(0xf5)
export const NULL = Uint8Array.of(0xf6)

export const uint = (n: bigint | number): Uint8Array => encodeHead(0, n)
export const array = (items: readonly Uint8Array[]): Uint8Array => concatBytes([encodeHead(4, items.length), ...items])
export const map = (entries: ReadonlyArray<readonly [number, Uint8Array]>): Uint8Array =>
  concatBytes([encodeHead(5, entries.length), ...entries.flatMap(([k, v]) => [uint(k), v])])

/** Waits for `left` more Notify inputs, then closes. */
export function notifies(left: number, deadline: bigint): Contract {
  if (left === 0) return CLOSE
  return {
    type: 'When',
    cases: [{ type: 'Case', action: { type: 'Notify', observation: true }, then: notifies(left - 1, deadline) }],
    timeout: deadline,
    timeoutContinuation: CLOSE
  }
}

export interface SyntheticHistory {
  readonly txs: readonly ChainTx[]
  readonly tip: BlockPoint
}

/** `semanticsHash`: the script the contracts live at; `owner`: the address party holding each min-ADA deposit. */
export function syntheticHistory(contracts: number, semanticsHash: string, owner: Party): SyntheticHistory {
  const address = concatBytes([Uint8Array.of(0x70), hexToBytes(semanticsHash)])
  const deadline = 4_000_000_000_000n
  const state = { accounts: [[{ account: owner, token: ADA }, 2_000_000n] as const], choices: [], boundValues: [] }
  const datums = Array.from({ length: STEPS + 1 }, (_, step) =>
    encodeMarloweData({
      params: { rolesCurrency: '' },
      state: { ...state, minTime: BigInt(step) },
      contract: notifies(STEPS - step, deadline)
    })
  )
  const redeemer = encodeRedeemer([{ content: { type: 'INotify' } }])
  const txs: ChainTx[] = []
  let previousHash = '00'.repeat(32)
  const last = new Array<Uint8Array>(contracts)
  for (let step = 0; step <= STEPS; step += 1) {
    for (let c = 0; c < contracts; c += 1) {
      const slot = BigInt(txs.length + 1) * 20n
      const spent = step === 0 ? blake2b(Uint8Array.of(c >> 16, c >> 8, c), 32) : last[c]!
      const continues = step < STEPS
      const datum = datums[step]!
      const output = map([
        [0, encodeByteString(address)],
        [1, uint(2_000_000n)],
        [2, array([uint(0), encodeByteString(blake2b(datum, 32))])]
      ])
      const body = map([
        [0, array([array([encodeByteString(spent), uint(0)])])],
        [1, array(continues ? [output] : [])],
        [2, uint(200_000n)],
        ...(step === 0
          ? []
          : ([
              [3, uint(slot + 100n)],
              [8, uint(slot)]
            ] as const))
      ])
      const witnesses = map([
        ...(continues ? ([[4, array([datum])]] as const) : []),
        ...(step === 0 ? [] : ([[5, array([array([uint(0), uint(0), redeemer, array([uint(1), uint(1)])])])]] as const))
      ])
      const cbor = concatBytes([encodeHead(4, 4), body, witnesses, TRUE, NULL])
      const txId = blake2bHex(body, 32)
      last[c] = hexToBytes(txId)
      const blockHash = blake2bHex(concatBytes([hexToBytes(previousHash), hexToBytes(txId)]), 32)
      previousHash = blockHash
      txs.push({ txId, block: { slot, blockNo: BigInt(txs.length + 1), blockHash }, cbor })
    }
  }
  return { txs, tip: txs[txs.length - 1]!.block }
}
