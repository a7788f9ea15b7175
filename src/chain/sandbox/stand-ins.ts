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
import { plutusV2Validator, type MarloweValidator, type MarloweValidators } from '../marlowe-scripts'
import { encodeProgram, type Term } from './flat'

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

function lambdas(count: number, body: Term): Term {
  return count === 0 ? body : { kind: 'lam', body: lambdas(count - 1, body) }
}

/** Ignores its three arguments and returns unit; `tag` only makes the script (and so its hash) distinct. */
function alwaysSucceeds(tag: Uint8Array): MarloweValidator {
  const body: Term = {
    kind: 'apply',
    fn: { kind: 'lam', body: { kind: 'unit' } },
    arg: { kind: 'bytes', value: tag }
  }
  return plutusV2Validator(cborByteString(encodeProgram(lambdas(3, body))))
}

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text)

/** The spend validators deployed as reference scripts at genesis, unless the sandbox is given others. */
export const STAND_IN_VALIDATORS: MarloweValidators = Object.freeze({
  semantics: alwaysSucceeds(utf8('marlowe-desk sandbox stand-in: Marlowe semantics validator')),
  payout: alwaysSucceeds(utf8('marlowe-desk sandbox stand-in: Marlowe payout validator')),
  openRole: alwaysSucceeds(utf8('marlowe-desk sandbox stand-in: Marlowe open-role validator'))
})
