/** A sandbox's validators are part of its genesis: a saved ledger is refused with other scripts than it was made with. */
import { describe, expect, test } from 'vitest'
import { MarloweScriptsError } from '../../../src/chain/marlowe-scripts'
import { ChainError } from '../../../src/chain/provider'
import { GENESIS_ID, sandboxGenesis } from '../../../src/chain/sandbox'
import { sandboxes, scratchDirs } from '../support/lifecycle'
import { ManualClock } from '../support/sandbox'
import { testValidators, writeTestValidatorDir } from '../support/validators'

const open = sandboxes()
const scratchDir = scratchDirs()
const given = testValidators('persisted')

function openError(run: () => unknown): unknown {
  try {
    run()
  } catch (e) {
    return e
  }
  throw new Error('expected the sandbox to be refused')
}

describe('a sandbox given validators, on disk', () => {
  test('the genesis id covers the scripts', () => {
    expect(sandboxGenesis(given).id).not.toBe(GENESIS_ID)
    expect(sandboxGenesis(given).id).toBe(sandboxGenesis(testValidators('persisted')).id)
  })

  test('reopens with the same validators; other scripts are refused, naming which ones it has', async () => {
    const dataDir = scratchDir()
    const validators = writeTestValidatorDir(given)
    const clock = new ManualClock()
    const first = open(clock, { dataDir, validators })
    await first.close()
    const again = open(clock, { dataDir, validators })
    expect(again.deployment.semantics.hash).toBe(given.semantics.hash)
    await again.close()

    const standIns = openError(() => open(clock, { dataDir }))
    expect(standIns).toBeInstanceOf(ChainError)
    expect((standIns as ChainError).reason).toContain(
      `it was made by another sandbox genesis (${sandboxGenesis(given).id}; this sandbox's, with the stand-in Marlowe scripts`
    )
    const others = openError(() => open(clock, { dataDir, validators: writeTestValidatorDir(testValidators('other')) }))
    expect((others as ChainError).reason).toContain('with the given Marlowe validators')
  })

  test('an unusable validators directory is refused before anything is opened', () => {
    const dir = scratchDir()
    const e = openError(() => open(new ManualClock(), { validators: dir }))
    expect(e).toBeInstanceOf(MarloweScriptsError)
    expect((e as Error).message).toMatch(/^the semantics validator file .* cannot be read/)
  })
})
