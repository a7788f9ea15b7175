import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseJson } from '../../src/core/json/lossless'
import { haveVectors, vectorsDir } from '../support/vectors'
import { runCli } from './run-cli'

const dir = mkdtempSync(join(tmpdir(), 'marlowe-desk-contract-'))
const file = (name: string, text: string): string => {
  const path = join(dir, name)
  writeFileSync(path, text)
  return path
}

const ROLE = (r: string): string => `{"role_token":"${r}"}`
const ADA = '{"currency_symbol":"","token_name":""}'
const deposit = file(
  'deposit.json',
  `{"when":[{"case":{"deposits":123456789012345678901234567890,"into_account":${ROLE('A')},"of_token":${ADA},"party":${ROLE('B')}},"then":"close"}],"timeout":2000,"timeout_continuation":"close"}`
)

describe('marlowe-desk (no arguments, help)', () => {
  it('lists the commands', () => {
    const r = runCli([])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('contract check')
    expect(r.stdout).toContain('contract next')
  })

  it('prints a command’s help', () => {
    const r = runCli(['contract', 'apply', '--help'])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('Usage: marlowe-desk contract apply <contract.json> --inputs inputs.json')
  })

  it('rejects an unknown command with exit code 2', () => {
    const r = runCli(['contract', 'frobnicate'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('unknown command "contract frobnicate"')
  })
})

describe('marlowe-desk contract check', () => {
  it.skipIf(!haveVectors)('summarises a reference contract', () => {
    const r = runCli(['contract', 'check', join(vectorsDir, 'reference/escrow.contract')])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('valid Marlowe contract')
    expect(r.stdout).toContain('roles: Seller, Buyer, Mediator')
  })

  it('prints exact big amounts as JSON', () => {
    const r = runCli(['contract', 'check', deposit, '--json'])
    expect(r.code).toBe(0)
    expect(parseJson(r.stdout)).toMatchObject({ valid: true, roles: ['A', 'B'], lastDeadline: 2000n })
  })

  it('shows a deadline beyond any Date (a hostile timeout) as a time, not a crash', () => {
    const far = file('far.json', '{"when":[],"timeout":9000000000000000000,"timeout_continuation":"close"}')
    const r = runCli(['contract', 'check', far])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('deadlines: 1, last +285200616-07-24T16:00:00.000Z (9000000000000000000)')
  })

  it.each([
    [['contract', 'check', join(dir, 'missing.json')], 1, 'missing.json: no such file'],
    [['contract', 'check', dir], 1, 'is a directory, not a file'],
    [
      ['contract', 'check', file('bad.json', '{"when":[],"timeout":1.5,"timeout_continuation":"close"}')],
      1,
      'bad.json: contract.timeout: expected an integer, got the number 1.5'
    ],
    [['contract', 'check', file('broken.json', '{"when":')], 1, 'broken.json: invalid JSON at line 1, column 9'],
    [['contract', 'check'], 2, 'expected <contract.json>, got 0 argument(s)'],
    [['contract', 'check', deposit, '--bogus'], 2, "Unknown option '--bogus'"]
  ])('fails clearly: %j', (args, code, message) => {
    const r = runCli(args)
    expect(r.code).toBe(code)
    expect(r.stderr).toContain(message)
  })
})

/** `Let x 3`, then `times` times `Let x (x * x)`: a number of about 2^times bits, past the engine's limit. */
function squaring(times: number): string {
  let contract = '"close"'
  for (let i = 0; i < times; i += 1) {
    contract = `{"let":"x","be":{"multiply":{"use_value":"x"},"times":{"use_value":"x"}},"then":${contract}}`
  }
  return `{"let":"x","be":3,"then":${contract}}`
}

describe('marlowe-desk contract: what the engine would refuse', () => {
  it('a contract nested deeper than a transaction can be read back with is not valid for building', () => {
    let amount = '1'
    for (let i = 0; i < 700; i += 1) amount = `{"negate":${amount}}`
    const deep = file(
      'deep.json',
      `{"pay":${amount},"token":${ADA},"from_account":${ROLE('A')},"to":{"party":${ROLE('B')}},"then":"close"}`
    )
    const r = runCli(['contract', 'check', deep])
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(
      /deep\.json: the contract is nested too deeply to be built: its datum nests \d+ CBOR levels, at most 1196/
    )
  })

  it('arithmetic past the limit is an error naming where, not a freeze', () => {
    const big = file('squaring.json', squaring(40))
    const inputs = file('none.json', '[]')
    const r = runCli(['contract', 'apply', big, '--inputs', inputs, '--from', '0', '--to', '100'])
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/contract apply: .*over the limit of 4096 bits/)
    expect(r.stderr).not.toContain('unexpected error')
  })
})

describe('marlowe-desk contract next / apply', () => {
  it('lists the deposit the contract waits for', () => {
    const r = runCli(['contract', 'next', deposit, '--from', '0', '--to', '100'])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('"can_deposit": 123456789012345678901234567890')
  })

  it('filters by party', () => {
    const r = runCli(['contract', 'next', deposit, '--from', '0', '--to', '100', '--party', 'A'])
    expect(parseJson(r.stdout)).toEqual({ applicable_inputs: { choices: [], deposits: [] }, can_reduce: false })
  })

  it('applies a deposit and prints the new state', () => {
    const inputs = file(
      'inputs.json',
      `[{"input_from_party":${ROLE('B')},"that_deposits":123456789012345678901234567890,"of_token":${ADA},"into_account":${ROLE('A')}}]`
    )
    const r = runCli(['contract', 'apply', deposit, '--inputs', inputs, '--from', '0', '--to', '100'])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('"payment_from"')
    expect(r.stdout).toContain('123456789012345678901234567890')
  })

  it('exits 1 with the semantics error', () => {
    const inputs = file('wrong.json', '["input_notify"]')
    const r = runCli(['contract', 'apply', deposit, '--inputs', inputs, '--from', '0', '--to', '100'])
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('the transaction fails: TEApplyNoMatchError')
  })

  it.each([
    [['contract', 'apply', deposit], '--inputs is required'],
    [['contract', 'next', deposit, '--from', 'yesterday'], '--from must be an integer']
  ])('rejects bad options: %j', (args, message) => {
    const r = runCli(args)
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(message)
  })
})
