/**
 * Compiles the role-token minting policy (src/engine/build/role-token-policy/role-tokens.hl) with the Helios
 * compiler, for `npm run build:role-token-policy`, which writes the program into compiled.ts beside the source,
 * and for the test that compiles it again and compares the bytes.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Program } from '@helios-lang/compiler'

const FOLDER = join(dirname(fileURLToPath(import.meta.url)), '../src/engine/build/role-token-policy')
const SOURCE = join(FOLDER, 'role-tokens.hl')
const COMPILED = join(FOLDER, 'compiled.ts')

/** The unparameterised program's flat bytes as hex: optimised, without the traced alternative. */
export function compileRoleTokenPolicy() {
  const program = new Program(readFileSync(SOURCE, 'utf8'), { isTestnet: false })
  const uplc = program.compile({ optimize: true, withAlt: false })
  if (uplc.plutusVersion !== 'PlutusScriptV2') throw new Error(`expected Plutus V2, got ${uplc.plutusVersion}`)
  return Buffer.from(uplc.toFlat()).toString('hex')
}

/** compiled.ts for `hex`, as this script writes it (and as Prettier leaves it). */
export function compiledModule(hex) {
  return [
    '/**',
    ' * The role-token minting policy of role-tokens.hl, compiled by scripts/role-token-policy.mjs (Helios',
    ' * @helios-lang/compiler, optimised): the flat bytes of its program before the parameters are applied.',
    ' * Generated: `npm run build:role-token-policy`; a test compiles the source again and compares.',
    ' */',
    'export const ROLE_TOKENS_PROGRAM =',
    `  '${hex}'`,
    ''
  ].join('\n')
}

if (process.argv[1] === fileURLToPath(import.meta.url))
  writeFileSync(COMPILED, compiledModule(compileRoleTokenPolicy()))
