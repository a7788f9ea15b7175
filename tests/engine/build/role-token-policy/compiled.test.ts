/** The committed program is what the Helios compiler makes of role-tokens.hl today, byte for byte. */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { UPLCDecoder } from '@blaze-cardano/uplc'
import { describe, expect, test } from 'vitest'
import { ROLE_TOKENS_PROGRAM } from '../../../../src/engine/build/role-token-policy/compiled'
import { compiledModule, compileRoleTokenPolicy } from '../../../../scripts/role-token-policy.mjs'

const COMPILED_TS = join(__dirname, '../../../../src/engine/build/role-token-policy/compiled.ts')

describe('the compiled role-token policy', () => {
  test('is the source compiled again, and compiled.ts is what the generator writes', () => {
    const hex = compileRoleTokenPolicy()
    expect(ROLE_TOKENS_PROGRAM).toBe(hex)
    expect(readFileSync(COMPILED_TS, 'utf8')).toBe(compiledModule(hex))
  })

  test('is a Plutus 1.0.0 program of three arguments: the parameters, the redeemer, the script context', () => {
    const { version, body } = UPLCDecoder.decodeFromHex(ROLE_TOKENS_PROGRAM)
    expect(version).toBe('1.0.0')
    expect(body).toMatchObject({ type: 'Lambda', body: { type: 'Lambda', body: { type: 'Lambda' } } })
  })
})
