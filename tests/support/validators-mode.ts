/**
 * Vitest global setup: says which Marlowe scripts the lifecycle tests' sandboxes (the tests/engine and
 * tests/server harnesses) run — the stand-ins, or the validators in `MARLOWE_VALIDATORS_DIR` (checked here, so a
 * wrong directory fails the run at once).
 */
import { readValidatorDir } from '../../src/chain/marlowe-scripts'

const LEAD = 'Marlowe scripts on the lifecycle test sandboxes:'

export default function setup(): void {
  const dir = process.env['MARLOWE_VALIDATORS_DIR']
  if (dir === undefined || dir === '') {
    console.log(`${LEAD} stand-ins (set MARLOWE_VALIDATORS_DIR to run validators)`)
    return
  }
  const v = readValidatorDir(dir)
  console.log(
    `${LEAD} the validators in ${dir} ` +
      `(semantics ${v.semantics.hash}, payout ${v.payout.hash}, open-role ${v.openRole.hash})`
  )
}
