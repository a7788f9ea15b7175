/**
 * The cost check over real HTTP: a real server on a real sandbox running given validators, through a provider that
 * reports a tiny per-transaction execution budget. A funded create of a contract whose close pays many parties is
 * refused with Runtime's 400 SafetyAnalysisFailed naming the transactions over the limit; an unfunded one is built
 * and reports them. On stand-in scripts the answer says the check was not made, and a funded create is built.
 */
import { afterEach, describe, expect, test } from 'vitest'
import { DelegatingProvider } from '../../src/chain/delegating-provider'
import type { ChainProvider, ExUnits, ProtocolParameters } from '../../src/chain/provider'
import { SandboxProvider } from '../../src/chain/sandbox'
import { formatShelleyAddress } from '../../src/core/cardano/address'
import type { JsonObject, JsonValue } from '../../src/core/json/lossless'
import { encodeContract } from '../../src/core/marlowe/json/encode'
import { ADA as ADA_TOKEN, CLOSE, type Contract, type Party } from '../../src/core/marlowe/types'
import { COST_NOT_CHECKED } from '../../src/engine/build/cost-check'
import { openService, type OpenService } from '../../src/engine/service'
import { createServer, listen } from '../../src/server/app'
import { testValidators, writeTestValidatorDir } from '../chain/support/validators'
import { ManualClock, T0, testWallet } from '../engine/build/support'
import { TOKEN, call, createBody, expectApiError, objectOf, walletHeaders } from './support'

const alice = testWallet('alice')
const DAY = 86_400_000n
const validators = writeTestValidatorDir(testValidators('cost check over HTTP'))

/** The sandbox, reporting a tiny per-transaction execution budget. */
class TinyBudget extends DelegatingProvider {
  constructor(inner: ChainProvider) {
    super(inner)
  }

  override async protocolParameters(): Promise<ProtocolParameters> {
    const tiny: ExUnits = { mem: 10n, steps: 1_000n }
    return { ...(await this.inner.protocolParameters()), maxTxExUnits: tiny }
  }
}

let closeAll: (() => Promise<void>) | undefined
afterEach(async () => closeAll?.())

async function serve(options: { validators?: string; tinyBudget: boolean }): Promise<{ base: string }> {
  const clock = new ManualClock()
  const sandbox = SandboxProvider.open({
    zeroTime: T0,
    clockTickMs: false,
    ...(options.validators === undefined ? {} : { validators: options.validators }),
    now: clock.now
  })
  const provider = options.tinyBudget ? new TinyBudget(sandbox) : sandbox
  const opened: OpenService = await openService({
    provider,
    databasePath: ':memory:',
    now: clock.now,
    followEveryMs: false
  })
  const app = createServer({ logLevel: 'silent', token: TOKEN, service: opened.service })
  const port = await listen(app, 0)
  closeAll = async () => {
    await app.close()
    await opened.close()
    await sandbox.close()
  }
  return { base: `http://127.0.0.1:${port}` }
}

const aliceParty: Party = { type: 'Address', address: alice.address }
const payee = (i: number): Party => ({
  type: 'Address',
  address: formatShelleyAddress({ mainnet: false, payment: { type: 'key', hash: i.toString(16).padStart(56, '0') } })
})

/** On a notification, a close paying 10 parties a lovelace each and Alice the rest. */
function closePayingMany(): JsonValue {
  let close: Contract = CLOSE
  for (let i = 10; i > 0; i -= 1) {
    close = {
      type: 'Pay',
      from: aliceParty,
      to: { type: 'Party', party: payee(i) },
      token: ADA_TOKEN,
      value: 1n,
      then: close
    }
  }
  return encodeContract({
    type: 'When',
    cases: [{ type: 'Case', action: { type: 'Notify', observation: true }, then: close }],
    timeout: T0 + 10n * DAY,
    timeoutContinuation: CLOSE
  })
}

const funded: JsonObject = { accounts: { [alice.address]: { lovelace: 5_000_000n } } }

const create = (server: { base: string }, extra: JsonObject = {}) =>
  call(server, 'POST', '/contracts', { body: createBody(closePayingMany(), extra), headers: walletHeaders(alice) })

function expectOverBudget(errors: JsonValue | undefined): void {
  expect(Array.isArray(errors)).toBe(true)
  const list = errors as JsonObject[]
  expect(list.map((e) => [e['error'], e['fatal']])).toEqual([
    ['TransactionValidationError', true],
    ['TransactionValidationError', true]
  ])
  for (const e of list) {
    expect(Object.keys(e).sort()).toEqual(['detail', 'error', 'fatal', 'message', 'transaction'])
    expect(e['message']).toMatch(/Execution memory units: \d+ of at most 10 \(\d+ over\)/)
    expect(Object.keys(objectOf(e['transaction'])).sort()).toEqual(['contract', 'input', 'output', 'state'])
  }
}

describe('a service on given validators, over a tiny execution budget', () => {
  test('a funded create is refused: 400 SafetyAnalysisFailed with the transactions over the limit', async () => {
    const server = await serve({ validators, tinyBudget: true })
    const refused = expectApiError(await create(server, funded), 400, 'SafetyAnalysisFailed')
    expectOverBudget(refused['details'])
  })

  test('an unfunded create is built and reports them', async () => {
    const server = await serve({ validators, tinyBudget: true })
    const answer = await create(server)
    expect(answer.status, answer.text.slice(0, 300)).toBe(201)
    expectOverBudget(objectOf(objectOf(answer.json).resource).safetyErrors)
  })

  test('within the real budget, a funded create is built with nothing to report', async () => {
    const server = await serve({ validators, tinyBudget: false })
    const answer = await create(server, funded)
    expect(answer.status, answer.text.slice(0, 300)).toBe(201)
    expect(objectOf(objectOf(answer.json).resource).safetyErrors).toEqual([])
  })
})

test('on stand-in scripts a funded create is built, and the answer says the cost was not checked', async () => {
  const server = await serve({ tinyBudget: true })
  const answer = await create(server, funded)
  expect(answer.status, answer.text.slice(0, 300)).toBe(201)
  expect(objectOf(objectOf(answer.json).resource).safetyErrors).toEqual([
    {
      error: COST_NOT_CHECKED,
      detail:
        "The execution cost of the contract's transactions was not checked, only their size: this chain runs stand-in Marlowe scripts, not the Marlowe validators.",
      fatal: false
    }
  ])
})
