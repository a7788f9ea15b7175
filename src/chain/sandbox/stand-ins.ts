/**
 * Stand-ins for the Marlowe validators on the sandbox. The real validators are not available here, so each role
 * gets a Plutus V2 script that always succeeds, made distinct by a byte-string constant naming it:
 *
 *   (lam datum (lam redeemer (lam context [(lam _ (con unit ())) (con bytestring "<name>")])))
 *
 * They enforce nothing: on the sandbox Marlowe's rules are enforced by our engine before it builds a
 * transaction, and the ledger (the emulator plus our pre-submit checks) enforces everything else.
 *
 * Role tokens need no stand-in: the engine mints them with its own one-shot policy on every network, the sandbox
 * included (src/engine/build/role-token-policy/), and the sandbox runs that policy for real.
 */
import { blake2bHex } from '../../core/blake2b'
import type { ScriptRef } from '../provider'
import { encodeProgram, type Term } from './flat'

export interface StandInScript extends ScriptRef {
  readonly language: 'PlutusV2'
  /** Script hash, 28 bytes as lowercase hex. */
  readonly hash: string
}

const PLUTUS_V2_HASH_PREFIX = 0x02

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

/** Ignores its three arguments and returns unit; `tag` only makes the script (and so its hash) distinct. */
function alwaysSucceeds(tag: Uint8Array): StandInScript {
  const body: Term = {
    kind: 'apply',
    fn: { kind: 'lam', body: { kind: 'unit' } },
    arg: { kind: 'bytes', value: tag }
  }
  const bytes = cborByteString(encodeProgram(lambdas(3, body)))
  return { language: 'PlutusV2', bytes, hash: plutusV2ScriptHash(bytes) }
}

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text)

export type StandInRole = 'semantics' | 'payout' | 'openRole'

/** The spend validators deployed as reference scripts at genesis. */
export const STAND_IN_VALIDATORS: Readonly<Record<StandInRole, StandInScript>> = Object.freeze({
  semantics: alwaysSucceeds(utf8('marlowe-desk sandbox stand-in: Marlowe semantics validator')),
  payout: alwaysSucceeds(utf8('marlowe-desk sandbox stand-in: Marlowe payout validator')),
  openRole: alwaysSucceeds(utf8('marlowe-desk sandbox stand-in: Marlowe open-role validator'))
})
