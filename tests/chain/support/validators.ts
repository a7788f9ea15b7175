/**
 * Validator directories for tests: always-succeeding Plutus V2 scripts other than the stand-ins (a different
 * constant, so different hashes), written as the TextEnvelopes `validators fetch` writes and the sandbox reads.
 * The real Marlowe validators are never committed; these prove the sandbox deploys and runs what it is given. A
 * looping and a failing validator stand for scripts over the budget and scripts that refuse (the cost check).
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  MARLOWE_SCRIPT_ROLES,
  plutusV2Validator,
  VALIDATOR_FILES,
  validatorEnvelopeText,
  type MarloweValidator,
  type MarloweValidators
} from '../../../src/chain/marlowe-scripts'
import { encodeProgram, type Term } from '../../../src/chain/sandbox/flat'
import { encodeByteString } from '../../../src/core/cardano/cbor'

/** (lam d (lam r (lam c [(lam _ ()) (con bytestring tag)]))): ignores its arguments and succeeds. */
function alwaysSucceeds(tag: string): MarloweValidator {
  const body: Term = {
    kind: 'apply',
    fn: { kind: 'lam', body: { kind: 'unit' } },
    arg: { kind: 'bytes', value: new TextEncoder().encode(tag) }
  }
  const flat = encodeProgram({ kind: 'lam', body: { kind: 'lam', body: { kind: 'lam', body } } })
  return plutusV2Validator(encodeByteString(flat))
}

/** A validator that never ends: `(lam x [x x])` applied to itself, until the evaluator's budget runs out. */
export function loopingValidator(): MarloweValidator {
  const selfApply: Term = {
    kind: 'lam',
    body: { kind: 'apply', fn: { kind: 'var', index: 1 }, arg: { kind: 'var', index: 1 } }
  }
  const body: Term = { kind: 'apply', fn: selfApply, arg: selfApply }
  return plutusV2Validator(
    encodeByteString(encodeProgram({ kind: 'lam', body: { kind: 'lam', body: { kind: 'lam', body } } }))
  )
}

/** A validator that fails at once, for a reason other than its budget: it applies `()` as if it were a function. */
export function failingValidator(): MarloweValidator {
  const body: Term = { kind: 'apply', fn: { kind: 'unit' }, arg: { kind: 'unit' } }
  return plutusV2Validator(
    encodeByteString(encodeProgram({ kind: 'lam', body: { kind: 'lam', body: { kind: 'lam', body } } }))
  )
}

/** Three always-succeeding validators whose hashes differ from the stand-ins' (and from another `label`'s). */
export function testValidators(label: string): MarloweValidators {
  return {
    semantics: alwaysSucceeds(`${label}: semantics`),
    payout: alwaysSucceeds(`${label}: payout`),
    openRole: alwaysSucceeds(`${label}: open-role`)
  }
}

/** Writes `validators` as a validators directory (a new temporary one unless `dir` is given). */
export function writeTestValidatorDir(validators: MarloweValidators, dir?: string): string {
  const target = dir ?? mkdtempSync(join(tmpdir(), 'marlowe-desk-validators-'))
  for (const role of MARLOWE_SCRIPT_ROLES) {
    writeFileSync(join(target, VALIDATOR_FILES[role]), validatorEnvelopeText(validators[role]))
  }
  return target
}
