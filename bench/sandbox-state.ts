/**
 * Saved sandbox ledgers of a given size for the sandbox-scale benchmark, written without running each transaction
 * through the ledger (a saved ledger is read back without validation, so what it holds is what matters): the
 * sandbox genesis, then `contracts` Marlowe contracts, each created at the stand-in semantics validator and
 * moved on by `applies` Notify inputs, one transaction per block. Each step's output keeps the contract's UTxO at
 * the validator with its datum hash, the datum in the witness set, as Desk and Runtime write them; every
 * transaction goes into the chain index. Fees, keys and collateral are left out.
 */
import { SANDBOX_REFERENCE_SCRIPTS } from '../src/chain/sandbox'
import { SandboxLedger } from '../src/chain/sandbox/ledger'
import { encodeTxIn } from '../src/chain/sandbox/outputs'
import { LedgerStore } from '../src/chain/sandbox/ledger-store'
import type { BlockRef, LedgerSnapshot } from '../src/chain/sandbox/state-file'
import { blake2b, blake2bHex } from '../src/core/blake2b'
import { bytesToHex, concatBytes, hexToBytes } from '../src/core/bytes'
import { encodeByteString, encodeHead } from '../src/core/cardano/cbor/writer'
import { encodeMarloweData, encodeRedeemer } from '../src/core/marlowe/plutus/marlowe-data'
import { ADA, type Party } from '../src/core/marlowe/types'
import { array, map, notifies, NULL, TRUE, uint } from './synthetic-history'

/** Notify steps each datum's contract still waits for: a datum of about 480 bytes. */
const CONTRACT_STEPS = 12
const MIN_ADA = 2_000_000n

export interface StateShape {
  readonly contracts: number
  /** Inputs applied to each contract after its creation. */
  readonly applies: number
}

/** Saves the ledger of `shape` into `dir` (a sandbox opened there reads it). */
export function writeSandboxState(dir: string, zeroTime: bigint, shape: StateShape, owner: Party): void {
  const base = SandboxLedger.genesis(zeroTime).snapshot(0n)
  const semantics = SANDBOX_REFERENCE_SCRIPTS.semantics.script.hash
  const address = concatBytes([Uint8Array.of(0x70), hexToBytes(semantics)])
  const deadline = zeroTime + 10n ** 12n
  const redeemer = encodeRedeemer([{ content: { type: 'INotify' } }])
  const utxos = new Map(base.utxos.map(([input, output]) => [bytesToHex(input), output]))
  const datums: [string, Uint8Array][] = []
  const transactions = new Map<string, BlockRef>(base.transactions)
  const scriptTxs: LedgerSnapshot['scriptTxs'][number][] = []
  let tip = base.tip
  const last = new Array<Uint8Array>(shape.contracts)
  for (let step = 0; step <= shape.applies; step += 1) {
    for (let c = 0; c < shape.contracts; c += 1) {
      const slot = tip.slot + 1n
      const spent = step === 0 ? blake2b(Uint8Array.of(c >> 16, c >> 8, c), 32) : last[c]!
      const datum = encodeMarloweData({
        params: { rolesCurrency: '' },
        state: { accounts: [[{ account: owner, token: ADA }, MIN_ADA]], choices: [], boundValues: [], minTime: slot },
        contract: notifies(CONTRACT_STEPS, deadline)
      })
      const datumHash = blake2bHex(datum, 32)
      const output = map([
        [0, encodeByteString(address)],
        [1, uint(MIN_ADA)],
        [2, array([uint(0), encodeByteString(hexToBytes(datumHash))])]
      ])
      const body = map([
        [0, array([array([encodeByteString(spent), uint(0)])])],
        [1, array([output])],
        [2, uint(200_000n)]
      ])
      const witnesses = map([
        [4, array([datum])],
        ...(step === 0 ? [] : ([[5, array([array([uint(0), uint(0), redeemer, array([uint(1), uint(1)])])])]] as const))
      ])
      const cbor = concatBytes([encodeHead(4, 4), body, witnesses, TRUE, NULL])
      const txId = blake2bHex(body, 32)
      last[c] = hexToBytes(txId)
      const blockHash = blake2bHex(concatBytes([hexToBytes(tip.blockHash), hexToBytes(txId)]), 32)
      tip = { slot, blockNo: tip.blockNo + 1n, blockHash }
      if (step > 0) utxos.delete(bytesToHex(encodeTxIn({ txId: bytesToHex(spent), index: 0 })))
      utxos.set(bytesToHex(encodeTxIn({ txId, index: 0 })), output)
      datums.push([datumHash, datum])
      transactions.set(txId, tip)
      scriptTxs.push({ txId, block: tip, cbor, scripts: [semantics] })
    }
  }
  const ledger = SandboxLedger.restore({
    ...base,
    slot: tip.slot,
    tip,
    utxos: [...utxos].map(([input, output]) => [hexToBytes(input), output] as const),
    datums,
    transactions,
    scriptTxs
  })
  // Saved as the sandbox saves it: one state file, or past its size limit a snapshot and a log.
  const store = new LedgerStore(dir)
  store.saveWhole(ledger, 0n)
  store.close()
}
