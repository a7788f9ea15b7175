/** CI fails, not skips, without the conformance vectors; a plain run elsewhere skips them, saying so. */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkVectors, REQUIRE_VECTORS } from './vectors-required'

describe('the conformance vectors', () => {
  it('are required where MARLOWE_REQUIRE_VECTORS=1: missing, the run fails with where they were looked for', () => {
    expect(() => checkVectors({ [REQUIRE_VECTORS]: '1' }, false)).toThrow(
      /Marlowe conformance vectors not found at .*\(required here: MARLOWE_REQUIRE_VECTORS=1\)/
    )
    expect(() => checkVectors({ [REQUIRE_VECTORS]: '1' }, true)).not.toThrow()
  })

  it('are optional elsewhere', () => {
    expect(() => checkVectors({}, false)).not.toThrow()
    expect(() => checkVectors({ [REQUIRE_VECTORS]: '0' }, false)).not.toThrow()
  })

  it('are required by CI', () => {
    const ci = readFileSync(resolve(__dirname, '../../.ci/run'), 'utf8')
    expect(ci).toMatch(/^export MARLOWE_REQUIRE_VECTORS=1$/m)
  })
})
