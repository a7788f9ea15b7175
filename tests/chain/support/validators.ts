/**
 * Validator directories for tests: always-succeeding Plutus V2 scripts other than the stand-ins (a different
 * constant, so different hashes), written as the TextEnvelopes `validators fetch` writes and the sandbox reads.
 * The real Marlowe validators are never committed; these prove the sandbox deploys and runs what it is given.
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
