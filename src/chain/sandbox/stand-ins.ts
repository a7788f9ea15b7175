/**
 * Stand-ins for the Marlowe scripts on the sandbox. The real validators are not available here, so each role
 * gets a Plutus V2 script that always succeeds, made distinct by a byte-string constant naming it:
 *
 *   spend:  (lam datum (lam redeemer (lam context [(lam _ (con unit ())) (con bytestring "<name>")])))
 *   mint:   (lam redeemer (lam context [(lam _ (con unit ())) (con bytestring "<name>" ++ seed)]))
 *
 * They enforce nothing: on the sandbox Marlowe's rules are enforced by our engine before it builds a
 * transaction, and the ledger (the emulator plus our pre-submit checks) enforces everything else.
 *
 * Real Marlowe mints role tokens with a one-shot policy parameterised by a UTxO. The stand-in keeps that
 * shape: the seed UTxO ref is part of the script body, so every contract gets its own policy id (its own
 * rolesCurrency), although nothing stops the policy from minting again.
 */
import { blake2bHex } from '../../core/blake2b'
import { hexToBytes } from '../../core/bytes'
import type { ScriptRef, TxOutRef } from '../provider'
import { encodeProgram, type Term } from './flat'

export interface StandInScript extends ScriptRef {
  readonly language: 'PlutusV2'
  /** Script hash (policy id for minting policies), 28 bytes as lowercase hex. */
  readonly hash: string
}

const PLUTUS_V2_HASH_PREFIX = 0x02
const TX_ID_BYTES = 32

/** CBOR byte-string head + content: the form a Plutus script takes in witness sets and script references. */
function cborByteString(content: Uint8Array): Uint8Array {
  const n = content.length
  const head = n < 24 ? [0x40 | n] : n < 0x100 ? [0x58, n] : [0x59, n >> 8, n & 0xff]
  if (n > 0xffff) throw new Error('stand-in script too large')
  const out = new Uint8Array(head.length + n)
  out.set(head)
  out.set(content, head.length)
  return out
}

/** Ledger script hash of a Plutus V2 script given in its script-reference form. */
function plutusV2ScriptHash(scriptBytes: Uint8Array): string {
  const tagged = new Uint8Array(1 + scriptBytes.length)
  tagged[0] = PLUTUS_V2_HASH_PREFIX
  tagged.set(scriptBytes, 1)
  return blake2bHex(tagged, 28)
}

function lambdas(count: number, body: Term): Term {
  return count === 0 ? body : { kind: 'lam', body: lambdas(count - 1, body) }
}

/** Ignores its `arity` arguments and returns unit; `tag` only makes the script (and so its hash) distinct. */
function alwaysSucceeds(arity: 2 | 3, tag: Uint8Array): StandInScript {
  const body: Term = {
    kind: 'apply',
    fn: { kind: 'lam', body: { kind: 'unit' } },
    arg: { kind: 'bytes', value: tag }
  }
  const bytes = cborByteString(encodeProgram(lambdas(arity, body)))
  return { language: 'PlutusV2', bytes, hash: plutusV2ScriptHash(bytes) }
}

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text)

export type StandInRole = 'semantics' | 'payout' | 'openRole'

/** The spend validators deployed as reference scripts at genesis. */
export const STAND_IN_VALIDATORS: Readonly<Record<StandInRole, StandInScript>> = Object.freeze({
  semantics: alwaysSucceeds(3, utf8('marlowe-desk sandbox stand-in: Marlowe semantics validator')),
  payout: alwaysSucceeds(3, utf8('marlowe-desk sandbox stand-in: Marlowe payout validator')),
  openRole: alwaysSucceeds(3, utf8('marlowe-desk sandbox stand-in: Marlowe open-role validator'))
})

const ROLE_POLICY_TAG = utf8('marlowe-desk sandbox stand-in: role-token minting policy, seed ')

/** The stand-in role-token minting policy for a contract created by spending `seed`: always succeeds, own policy id. */
export function roleTokenPolicy(seed: TxOutRef): StandInScript {
  const txId = hexToBytes(seed.txId)
  if (txId.length !== TX_ID_BYTES) throw new Error(`seed tx id must be ${TX_ID_BYTES} bytes, got ${txId.length}`)
  if (!Number.isInteger(seed.index) || seed.index < 0 || seed.index > 0xffffffff) {
    throw new Error(`seed output index must be a 32-bit natural number, got ${seed.index}`)
  }
  const tag = new Uint8Array(ROLE_POLICY_TAG.length + TX_ID_BYTES + 4)
  tag.set(ROLE_POLICY_TAG)
  tag.set(txId, ROLE_POLICY_TAG.length)
  new DataView(tag.buffer).setUint32(ROLE_POLICY_TAG.length + TX_ID_BYTES, seed.index)
  return alwaysSucceeds(2, tag)
}
