/**
 * The engine's worker thread with the engine's own tasks (issue 13): the safety analysis of a create runs there
 * while the server's event loop goes on answering requests, and each task answers what it answers on the engine's
 * thread — the review of a transaction, an imported file or bundle, the analysis, and their refusals alike.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { semanticsValidatorAddress } from '../../../src/chain/deployments'
import type { ProtocolParameters } from '../../../src/chain/provider'
import { stringifyBundle } from '../../../src/core/cardano/bundle'
import { stringifyTextEnvelope } from '../../../src/core/cardano/envelope'
import { reviewTransaction, TxDecodeError } from '../../../src/core/cardano/review'
import type { ReviewContext } from '../../../src/core/cardano/review/types'
import { decodeTransaction } from '../../../src/core/cardano/tx'
import { ValueTooLargeError } from '../../../src/core/marlowe/limits'
import { encodeContract } from '../../../src/core/marlowe/json/encode'
import { ADA, CLOSE, type Contract, type MarloweData, type Party } from '../../../src/core/marlowe/types'
import { buildCostCandidates, type CostSetup } from '../../../src/engine/build/cost-check'
import { ReferenceScripts } from '../../../src/engine/build/scripts'
import { simulateTransactions, type SimulationInput } from '../../../src/engine/build/simulate'
import { EngineError } from '../../../src/engine/errors'
import { engineWorker, readImportedOffThread, reviewOffThread, simulateOffThread } from '../../../src/engine/worker'
import { ENGINE_TASKS } from '../../../src/engine/worker/tasks'
import { marloweScripts, reviewParameters } from '../../../src/engine/desk/chain-facts'
import { T0, testWallet } from '../build/support'
import { rebinding, squaring } from '../../support/arithmetic'
import { call, createBody, startServer, unsignedTxOf, walletHeaders, type TestServer } from '../../server/support'

const alice = testWallet('alice')
const ALICE: Party = { type: 'Address', address: alice.address }
const DAY = 86_400_000n

/**
 * `whens` nested Notify cases, then `pays` payments of one lovelace from Alice's account to herself. The analysis
 * walks a transaction per level, each encoding the rest of the contract as its datum: at 150 and 40, a 12 KB datum
 * (the create fits in a transaction) and about a second of work on the machine this was written on.
 */
function longWalk(whens: number, pays: number): Contract {
  let contract: Contract = CLOSE
  for (let i = 0; i < pays; i += 1) {
    contract = { type: 'Pay', from: ALICE, to: { type: 'Party', party: ALICE }, token: ADA, value: 1n, then: contract }
  }
  for (let i = 0; i < whens; i += 1) {
    contract = {
      type: 'When',
      cases: [{ type: 'Case', action: { type: 'Notify', observation: true }, then: contract }],
      timeout: T0 + DAY + BigInt(i),
      timeoutContinuation: CLOSE
    }
  }
  return contract
}

function simulationInput(contract: Contract): SimulationInput {
  const datum: MarloweData = {
    params: { rolesCurrency: 'ab'.repeat(28) },
    state: { accounts: [[{ account: ALICE, token: ADA }, 2_000_000n]], choices: [], boundValues: [], minTime: 0n },
    contract
  }
  return { pp, datum, marloweAddress: semanticsValidatorAddress('sandbox') }
}

let server: TestServer
let pp: ProtocolParameters
beforeAll(async () => {
  server = await startServer()
  pp = await server.sandbox.protocolParameters()
})
afterAll(async () => {
  await server.close()
})

async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a refusal')
    },
    (e: unknown) => e
  )
}

function thrownBy(run: () => unknown): unknown {
  try {
    run()
  } catch (e) {
    return e
  }
  throw new Error('expected a refusal')
}

/** An engine error's fields, to compare one thrown here with one answered by the worker. */
function fieldsOf(e: unknown): unknown[] {
  if (!(e instanceof EngineError)) throw new Error(`not an EngineError: ${String(e)}`)
  return [e.kind, e.code, e.message, e.details]
}

async function nextTurn(): Promise<void> {
  await new Promise((done) => setTimeout(done, 1))
}

describe('the event loop while the worker works', () => {
  test('a request is answered while a create waits for its safety analysis', async () => {
    const order: string[] = []
    const created = call(server, 'POST', '/contracts', {
      body: createBody(encodeContract(longWalk(150, 40))),
      headers: walletHeaders(alice)
    }).then((answer) => {
      order.push('create')
      return answer
    })
    // Until the worker has the analysis. Run on this thread instead, the create would be answered first.
    while (engineWorker().status().running !== 'The safety analysis') {
      if (order.includes('create')) throw new Error('the create was answered without its analysis on the worker')
      await nextTurn()
    }
    const health = await call(server, 'GET', '/healthcheck')
    order.push('healthcheck')
    expect(health.status).toBe(200)
    expect(engineWorker().status().running).toBe('The safety analysis')

    const answer = await created
    expect(answer.status, answer.text.slice(0, 300)).toBe(201)
    expect(order).toEqual(['healthcheck', 'create'])
  })
})

describe('off the thread, the same answers as on it', () => {
  test('the safety analysis: warnings, the report budget, the costliest transactions', async () => {
    for (const contract of [longWalk(20, 20), rebinding(400, 1n), longWalk(3, 0)]) {
      const input = simulationInput(contract)
      expect((await simulateOffThread(input)).simulation).toStrictEqual(simulateTransactions(input))
    }
  })

  test("the cost check's transactions, built in the analysis' task: the same as built here", async () => {
    const { sandbox } = server
    // As on a chain running the validators: every transaction is built, to be evaluated.
    const scripts = { ...sandbox.deployment, standIn: false }
    const semantics = await new ReferenceScripts(sandbox).get(scripts.semantics, 'MarloweScriptNotPublished')
    const [tip, eras] = await Promise.all([sandbox.tip(), sandbox.eraSummaries()])
    const input = simulationInput(longWalk(3, 2))
    const costs: CostSetup = {
      pp,
      mainnet: false,
      scripts,
      semantics,
      marloweAddress: input.marloweAddress,
      rolesCurrency: input.datum.params.rolesCurrency,
      walletAddress: alice.address,
      eras,
      tipSlot: tip.slot,
      safeZoneSlots: 1000n
    }
    const here = buildCostCandidates(costs, simulateTransactions(input).costliest)
    expect(here.length).toBeGreaterThan(0)
    expect(here.every((c) => 'built' in c && c.built.tx.length > 0)).toBe(true)
    const there = await simulateOffThread({ ...input, costs })
    expect(there.candidates).toStrictEqual(here)
    expect((await simulateOffThread(input)).candidates).toStrictEqual([])
  })

  test('on stand-in scripts a transaction whose size bound fits is not built, and the bound holds its real size', async () => {
    const { sandbox } = server
    const semantics = await new ReferenceScripts(sandbox).get(sandbox.deployment.semantics, 'MarloweScriptNotPublished')
    const [tip, eras] = await Promise.all([sandbox.tip(), sandbox.eraSummaries()])
    const setup = (standIn: boolean): CostSetup => ({
      pp,
      mainnet: false,
      scripts: { ...sandbox.deployment, standIn },
      semantics,
      marloweAddress: semanticsValidatorAddress('sandbox'),
      rolesCurrency: 'ab'.repeat(28),
      walletAddress: alice.address,
      eras,
      tipSlot: tip.slot,
      safeZoneSlots: 1000n
    })
    let compared = 0
    for (const contract of [longWalk(3, 2), longWalk(20, 20)]) {
      const { costliest } = simulateTransactions(simulationInput(contract))
      const bounded = buildCostCandidates(setup(true), costliest)
      const built = buildCostCandidates(setup(false), costliest)
      bounded.forEach((c, i) => {
        const real = built[i]!
        if (!('built' in real)) throw new Error(`transaction ${i} was not built: ${JSON.stringify(Object.keys(real))}`)
        if ('fitsWithin' in c) {
          expect(c.fitsWithin).toBeGreaterThanOrEqual(real.built.bytes)
          compared += 1
        } else expect(c).toStrictEqual(real)
      })
    }
    expect(compared).toBeGreaterThan(0)
  })

  test('the safety analysis meeting a value beyond the limit: the same error, the same path', async () => {
    const input = simulationInput({
      type: 'When',
      cases: [{ type: 'Case', action: { type: 'Notify', observation: true }, then: squaring(40) }],
      timeout: T0 + DAY,
      timeoutContinuation: CLOSE
    })
    const here = thrownBy(() => simulateTransactions(input))
    const there = await rejectionOf(simulateOffThread(input))
    expect(here).toBeInstanceOf(ValueTooLargeError)
    expect(there).toBeInstanceOf(ValueTooLargeError)
    const fields = (e: ValueTooLargeError) => ({ value: e.value, bits: e.bits, path: e.path, message: e.message })
    expect(fields(there as ValueTooLargeError)).toStrictEqual(fields(here as ValueTooLargeError))
    expect((there as ValueTooLargeError).path).toBe(`contract.when[0].then${'.then'.repeat(12)}.be`)
  })

  test('the review of a transaction, of an imported file and bundle, and their refusals', async () => {
    const answer = await call(server, 'POST', '/contracts', {
      body: createBody(encodeContract(longWalk(3, 2))),
      headers: walletHeaders(alice)
    })
    expect(answer.status, answer.text.slice(0, 300)).toBe(201)
    const tx = unsignedTxOf(answer)
    const { body } = decodeTransaction(tx)
    const resolvedInputs = await server.sandbox.utxosByRef([
      ...body.inputs,
      ...body.collateral,
      ...body.referenceInputs
    ])
    const eraSummaries = [...(await server.sandbox.eraSummaries())]
    const protocolParameters = reviewParameters(await server.sandbox.protocolParameters())
    const context: ReviewContext = {
      resolvedInputs,
      eraSummaries,
      protocolParameters,
      marloweScripts: marloweScripts(server.sandbox),
      wallets: [{ id: 'alice', addresses: [alice.address], keyHashes: [alice.paymentKeyHash] }],
      now: T0 + DAY,
      networkId: 0
    }
    const review = await reviewOffThread(tx, context)
    expect(review).toStrictEqual(reviewTransaction(tx, context))
    expect(review.marlowe.created).toHaveLength(1)

    const bundle = stringifyBundle({
      tx,
      era: 'Conway',
      network: 'sandbox',
      createdAt: new Date(Number(T0)).toISOString(),
      resolvedInputs,
      eraSummaries,
      protocolParameters
    })
    const envelope = stringifyTextEnvelope({ type: 'Tx ConwayEra', description: '', cbor: tx })
    for (const text of [bundle, envelope]) {
      const imported = await readImportedOffThread(text)
      expect(imported).toStrictEqual(ENGINE_TASKS.readImported(text))
      expect(imported.tx).toEqual(tx)
    }

    /** The refusal's code, after checking the worker's is the one thrown here. */
    const refusal = async (there: Promise<unknown>, here: () => unknown): Promise<unknown> => {
      const fields = fieldsOf(await rejectionOf(there))
      expect(fields).toStrictEqual(fieldsOf(thrownBy(here)))
      return fields[1]
    }
    const garbage = new Uint8Array([0x84, 0xa0])
    expect(() => reviewTransaction(garbage, {})).toThrow(TxDecodeError)
    expect(await refusal(reviewOffThread(garbage, {}), () => ENGINE_TASKS.review({ tx: garbage, context: {} }))).toBe(
      'InvalidTransaction'
    )
    const broken = bundle.replace('"resolvedInputs"', '"resolvedInputz"')
    expect(await refusal(readImportedOffThread(broken), () => ENGINE_TASKS.readImported(broken))).toBe('InvalidBundle')
    expect(
      await refusal(readImportedOffThread('not a transaction'), () => ENGINE_TASKS.readImported('not a transaction'))
    ).toBe('InvalidTransaction')
  })
})
