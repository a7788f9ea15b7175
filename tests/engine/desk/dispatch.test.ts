/**
 * The dispatcher on its own, over a stub desk: it passes the decoded, validated request to the right handler,
 * checks and encodes the answer as wire, and turns unexpected failures (an undeclared answer among them) into a
 * generic error that reveals nothing, logged.
 */
import { describe, expect, test } from 'vitest'
import { DESK_CALLS, type DeskResult } from '../../../src/api/contract'
import { decodeWire, encodeWire } from '../../../src/api/wire'
import { ChainError } from '../../../src/chain/provider'
import { handleDeskCall, type DeskHandlers } from '../../../src/engine/desk'
import { EngineError } from '../../../src/engine/errors'

/** A desk whose every call runs `impl`, recording what it was given. */
function stubDesk(impl: (name: string, request: unknown) => unknown): { desk: DeskHandlers; seen: unknown[] } {
  const seen: unknown[] = []
  const desk = Object.fromEntries(
    DESK_CALLS.map((name) => [
      name,
      async (request: unknown) => {
        seen.push([name, request])
        return impl(name, request)
      }
    ])
  ) as unknown as DeskHandlers
  return { desk, seen }
}

async function call(desk: DeskHandlers, name: string, request: unknown, logged: unknown[] = []) {
  const wire = await handleDeskCall(desk, name, encodeWire(request), { logError: (_c, e) => logged.push(e) })
  return { wire, result: decodeWire(wire) as DeskResult<unknown> }
}

describe('handleDeskCall', () => {
  test('decodes bigints for the handler and encodes them back', async () => {
    const tip = { slot: 2n ** 70n, blockNo: 1n, time: 1_735_689_600_000n }
    const { desk, seen } = stubDesk((_name, request) => ({
      version: '1.0.0',
      network: 'sandbox',
      tip,
      chainTime: (request as { toTime: bigint }).toTime
    }))
    const { wire, result } = await call(desk, 'sandbox.advance', { toTime: 1_735_689_600_000n })
    expect(seen).toEqual([['sandbox.advance', { toTime: 1_735_689_600_000n }]])
    expect(result).toEqual({
      ok: true,
      value: { version: '1.0.0', network: 'sandbox', tip, chainTime: 1_735_689_600_000n }
    })
    expect(wire).toContain('{"$bigint":"1180591620717411303424"}')
  })

  test('normalises ids as the schema says (hex to lowercase)', async () => {
    const { desk, seen } = stubDesk((_name, request) => ({ ...(request as object), status: 'unsigned' }))
    await call(desk, 'tx.status', { txId: 'AB'.repeat(32) })
    expect(seen).toEqual([['tx.status', { txId: 'ab'.repeat(32) }]])
  })

  test('a refused request never reaches the handler', async () => {
    const { desk, seen } = stubDesk(() => ({}))
    expect((await call(desk, 'wallets.lock', { walletId: 1 })).result).toMatchObject({
      ok: false,
      error: { code: 'InvalidRequest' }
    })
    expect((await call(desk, 'nope', {})).result).toMatchObject({ ok: false, error: { code: 'UnknownCall' } })
    expect(seen).toEqual([])
  })

  test('engine and chain errors keep their code, details and words', async () => {
    const engine = stubDesk(() => {
      throw new EngineError('Conflict', 'ContractAlreadySubmitted', 'contract already submitted', { txId: 'abc' })
    })
    expect((await call(engine.desk, 'app.status', {})).result).toEqual({
      ok: false,
      error: { code: 'ContractAlreadySubmitted', message: 'Contract already submitted.', details: { txId: 'abc' } }
    })
    const chain = stubDesk(() => {
      throw new ChainError('Rejected', 'Insufficient transaction fee', { fee: 1n })
    })
    expect((await call(chain.desk, 'app.status', {})).result).toEqual({
      ok: false,
      error: {
        code: 'NodeRejected',
        message: 'The node refused the transaction: Insufficient transaction fee.',
        details: { fee: 1n }
      }
    })
    const submit = stubDesk(() => {
      throw new EngineError('Forbidden', 'SubmissionError', 'SubmitFailed "bad"', { reason: 'Value not conserved' })
    })
    expect((await call(submit.desk, 'app.status', {})).result).toMatchObject({
      error: { code: 'SubmissionError', message: 'The node refused the transaction: Value not conserved.' }
    })
  })

  test('an unexpected error is logged and answered with a generic message, no internals', async () => {
    const logged: unknown[] = []
    const { desk } = stubDesk(() => {
      throw new TypeError('cannot read properties of undefined (secret internals at /home/me/keys)')
    })
    const { wire, result } = await call(desk, 'wallets.list', {}, logged)
    expect(result).toEqual({
      ok: false,
      error: { code: 'InternalError', message: expect.stringMatching(/^Something went wrong/) }
    })
    expect(wire).not.toContain('secret internals')
    expect(wire).not.toContain('TypeError')
    expect(logged).toEqual([expect.any(TypeError)])
  })

  test('an answer that is not plain data is an internal error, not a crash', async () => {
    const logged: unknown[] = []
    const { desk } = stubDesk(() => new Map([['k', 1]]))
    expect((await call(desk, 'wallets.list', {}, logged)).result).toMatchObject({
      ok: false,
      error: { code: 'InternalError' }
    })
    expect(logged).toHaveLength(1)
  })

  test('an answer the contract does not declare is never sent: an internal error, logged with what is wrong', async () => {
    const wallet = { id: 'ab'.repeat(20), name: 'Sam', kind: 'mnemonic', locked: true, address: 'addr_test1xyz' }
    const answers: Array<[unknown, string]> = [
      // One field too many: whatever it holds stays in the engine.
      [[{ ...wallet, mnemonic: 'abandon abandon' }], '0: Unrecognized key: "mnemonic"'],
      [[{ ...wallet, locked: 'no' }], '0.locked: '],
      [[{ ...wallet, id: 'Sam' }], '0.id: not a wallet id']
    ]
    for (const [answer, problem] of answers) {
      const logged: unknown[] = []
      const { wire, result } = await call(stubDesk(() => answer).desk, 'wallets.list', {}, logged)
      expect(result).toMatchObject({ ok: false, error: { code: 'InternalError' } })
      expect(wire).not.toContain('abandon')
      expect(logged).toHaveLength(1)
      expect(String((logged[0] as Error).message)).toContain(
        `wallets.list answered what the contract does not declare: ${problem}`
      )
    }
    expect((await call(stubDesk(() => [wallet]).desk, 'wallets.list', {})).result).toEqual({
      ok: true,
      value: [wallet]
    })
  })

  test('input that is not wire text is refused', async () => {
    const { desk } = stubDesk(() => ({}))
    for (const wire of [undefined, 42, { toTime: 1 }]) {
      const answer = decodeWire(await handleDeskCall(desk, 'app.status', wire)) as DeskResult<unknown>
      expect(answer).toMatchObject({ ok: false, error: { code: 'InvalidRequest' } })
    }
  })
})
