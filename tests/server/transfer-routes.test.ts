/**
 * Desk's own routes for the command line while `serve` holds the chain: the review bundle of a transaction, and
 * the submission of a signed one — our build (checked against it, then followed as its PUT would be) or any
 * other — with the Runtime token, over a real server on 127.0.0.1 and a sandbox.
 */
import { afterEach, describe, expect, test } from 'vitest'
import { bytesToHex } from '../../src/core/bytes'
import { parseBundle } from '../../src/core/cardano/bundle'
import { formatRef } from '../../src/core/cardano/refs'
import { encodeContract } from '../../src/core/marlowe/json/encode'
import { rolesEscrow } from '../engine/build/flows'
import { testWallet, sign, ADA } from '../engine/build/support'
import { witnessEnvelope } from '../engine/service/support'
import { buildTx } from '../chain/support/txkit'
import {
  call,
  createBody,
  expectApiError,
  objectOf,
  startServer,
  stringOf,
  unsignedTxOf,
  walletHeaders,
  type TestServer
} from './support'

const alice = testWallet('alice')
const carol = testWallet('carol')
const bob = testWallet('bob')

let server: TestServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

const envelope = (tx: Uint8Array, type = 'Tx ConwayEra'): { type: string; description: string; cborHex: string } => ({
  type,
  description: '',
  cborHex: bytesToHex(tx)
})

/** An escrow built by POST /contracts (unsigned): its id and transaction. */
async function buildEscrow(s: TestServer): Promise<{ contractId: string; tx: Uint8Array }> {
  const answer = await call(s, 'POST', '/contracts', {
    body: createBody(encodeContract(rolesEscrow()), {
      roles: { Buyer: alice.address, Seller: bob.address, Mediator: carol.address }
    }),
    headers: walletHeaders(carol)
  })
  expect(answer.status, answer.text).toBe(201)
  const contractId = stringOf(objectOf(objectOf(answer.json).resource).contractId, 'contractId')
  return { contractId, tx: unsignedTxOf(answer) }
}

describe('POST /desk/bundles', () => {
  test("answers the transaction's review bundle: the tx as given, what it spends, the chain's parameters", async () => {
    const s = (server = await startServer())
    const { tx } = await buildEscrow(s)
    const answer = await call(s, 'POST', '/desk/bundles', { body: envelope(tx) })
    expect(answer.status, answer.text).toBe(200)
    const bundle = parseBundle(answer.text)
    expect(bytesToHex(bundle.tx)).toBe(bytesToHex(tx))
    expect(bundle.network).toBe('sandbox')
    expect(bundle.resolvedInputs.length).toBeGreaterThan(0)
    expect(bundle.resolvedInputs.every((u) => u.address === carol.address)).toBe(true)
    expect(bundle.protocolParameters?.maxTxSize).toBe((await s.sandbox.protocolParameters()).maxTxSize)
    expect(answer.headers.get('x-missing-outputs')).toBe('')
  })

  test('names the outputs the chain does not have', async () => {
    const s = (server = await startServer())
    const { tx } = await buildEscrow(s)
    const signed = sign(tx, [carol])
    expect((await call(s, 'POST', '/desk/submissions', { body: envelope(signed) })).status).toBe(202)
    await s.opened.follower.sync()
    // Its inputs are spent now: a bundle made afterwards cannot resolve them, and says which.
    const answer = await call(s, 'POST', '/desk/bundles', { body: envelope(tx) })
    expect(answer.status, answer.text).toBe(200)
    const missing = answer.headers.get('x-missing-outputs')?.split(',') ?? []
    expect(missing.length).toBeGreaterThan(0)
    expect(missing.every((ref) => /^[0-9a-f]{64}#\d+$/.test(ref))).toBe(true)
  })

  test('refuses what is not a transaction, and callers without the token', async () => {
    const s = (server = await startServer())
    expectApiError(await call(s, 'POST', '/desk/bundles', {}), 400, 'RequestBodyParseError')
    expectApiError(
      await call(s, 'POST', '/desk/bundles', { body: { type: 'Tx ConwayEra' } }),
      400,
      'RequestBodyParseError'
    )
    expectApiError(
      await call(s, 'POST', '/desk/bundles', { body: { type: 'Tx ConwayEra', description: '', cborHex: 'zz' } }),
      400,
      'RequestBodyParseError'
    )
    expectApiError(
      await call(s, 'POST', '/desk/bundles', { body: envelope(new Uint8Array([0x80]), 'TxWitness ConwayEra') }),
      400,
      'InvalidTransaction'
    )
    expectApiError(
      await call(s, 'POST', '/desk/bundles', { body: envelope(new Uint8Array([0x83, 0x01, 0x02, 0x03])) }),
      400,
      'InvalidTransaction'
    )
    const { tx } = await buildEscrow(s)
    expect((await call(s, 'POST', '/desk/bundles', { body: envelope(tx), token: null })).status).toBe(401)
  })
})

describe('POST /desk/submissions', () => {
  test('our build, signed: submitted as its PUT would be, then confirmed; again, it is said to be there', async () => {
    const s = (server = await startServer())
    const { contractId, tx } = await buildEscrow(s)
    const signed = sign(tx, [carol])
    const answer = await call(s, 'POST', '/desk/submissions', { body: envelope(signed) })
    expect(answer.status, answer.text).toBe(202)
    expect(answer.json).toEqual({ txId: contractId.slice(0, 64), build: { kind: 'create', contractId } })
    expect((await s.opened.service.getContract(contractId)).status).toBe('submitted')
    await s.opened.follower.sync()
    expect((await s.opened.service.getContract(contractId)).status).toBe('confirmed')
    const again = await call(s, 'POST', '/desk/submissions', { body: envelope(signed) })
    expect(again.status, again.text).toBe(200)
    const block = (await s.opened.service.getContract(contractId)).block!
    expect(again.json).toEqual({
      txId: contractId.slice(0, 64),
      build: { kind: 'create', contractId },
      already: { status: 'confirmed', block: { slot: block.slot, blockNo: block.blockNo, blockHash: block.blockHash } }
    })
  })

  test('our build the wallet already sent: said to be on chain, recorded as submitted, nothing sent again', async () => {
    const s = (server = await startServer())
    const { contractId, tx } = await buildEscrow(s)
    const signed = sign(tx, [carol])
    await s.sandbox.submit(signed)
    const answer = await call(s, 'POST', '/desk/submissions', { body: envelope(signed) })
    expect(answer.status, answer.text).toBe(200)
    expect(objectOf(objectOf(answer.json).already).status).toBe('confirmed')
    expect(objectOf(answer.json).build).toEqual({ kind: 'create', contractId })
    expect((await s.opened.service.getContract(contractId)).status).toBe('submitted')
  })

  test('our build is checked against its build: unsigned it is refused and stays unsigned', async () => {
    const s = (server = await startServer())
    const { contractId, tx } = await buildEscrow(s)
    const answer = await call(s, 'POST', '/desk/submissions', { body: envelope(tx) })
    expect(answer.status).toBeGreaterThanOrEqual(400)
    expect(answer.status).toBeLessThan(500)
    expect((await s.opened.service.getContract(contractId)).status).toBe('unsigned')
    // The witness-set form is for PUT: this route takes whole transactions.
    expectApiError(
      await call(s, 'POST', '/desk/submissions', { body: { ...witnessEnvelope(tx, [carol]) } }),
      400,
      'InvalidTransaction'
    )
  })

  test('a transaction we did not build goes to the node as it is', async () => {
    const s = (server = await startServer())
    const [utxo] = await s.sandbox.utxosAt([bob.address])
    const tx = sign(
      buildTx({
        params: await s.sandbox.protocolParameters(),
        inputs: [utxo!],
        changeAddress: bob.address,
        outputs: [{ address: carol.address, lovelace: 5n * ADA }]
      }),
      [bob]
    )
    const answer = await call(s, 'POST', '/desk/submissions', { body: envelope(tx) })
    expect(answer.status, answer.text).toBe(202)
    const txId = stringOf(objectOf(answer.json).txId, 'txId')
    expect(objectOf(answer.json).build).toBeUndefined()
    expect((await s.sandbox.txStatus(txId)).status).toBe('confirmed')
    // A second copy is refused by the node for its spent inputs: the transaction is there, and that is said.
    const again = await call(s, 'POST', '/desk/submissions', { body: envelope(tx) })
    expect(again.status, again.text).toBe(200)
    expect(objectOf(objectOf(again.json).already).status).toBe('confirmed')
  })

  test("a transaction the node refuses is the API's 403 with the ledger's reason", async () => {
    const s = (server = await startServer())
    const nowhere = {
      ref: { txId: 'ee'.repeat(32), index: 0 },
      address: bob.address,
      value: { lovelace: 50n * ADA, assets: {} }
    }
    const tx = sign(
      buildTx({
        params: await s.sandbox.protocolParameters(),
        inputs: [nowhere],
        changeAddress: bob.address,
        outputs: [{ address: carol.address, lovelace: 5n * ADA }]
      }),
      [bob]
    )
    const refused = expectApiError(
      await call(s, 'POST', '/desk/submissions', { body: envelope(tx) }),
      403,
      'SubmissionError'
    )
    expect(String(refused.message)).toContain('e'.repeat(64))
  })
})

/** The builds holding any of carol's outputs. */
async function heldBuilds(s: TestServer): Promise<string[]> {
  const refs = (await s.sandbox.utxosAt([carol.address])).map((u) => formatRef(u.ref))
  return (await s.opened.service.heldBy(refs)).map((b) => b.txId)
}

describe('POST /desk/discards', () => {
  test('an unsigned build is given up: its PUT answers 409 BuildDiscarded, its inputs are free', async () => {
    const s = (server = await startServer())
    const { contractId, tx } = await buildEscrow(s)
    const txId = contractId.slice(0, 64)
    expect(await heldBuilds(s)).toContain(txId)
    const answer = await call(s, 'POST', '/desk/discards', { body: { txId: txId.toUpperCase() } })
    expect(answer.status, answer.text).toBe(200)
    const discardedAt = stringOf(objectOf(answer.json).discardedAt, 'discardedAt')
    expect(answer.json).toEqual({ txId, discardedAt: new Date(Number(s.clock.ms)).toISOString() })
    // Again: nothing changes, the first time is kept.
    s.clock.ms += 5000n
    const again = await call(s, 'POST', '/desk/discards', { body: { txId } })
    expect(again.json).toEqual({ txId, discardedAt })

    const put = await call(s, 'PUT', `/contracts/${encodeURIComponent(contractId)}`, {
      body: { ...witnessEnvelope(tx, [carol]) }
    })
    expect(String(expectApiError(put, 409, 'BuildDiscarded').message)).toContain('was discarded')
    // The outputs it held are free for the next build.
    expect(await heldBuilds(s)).not.toContain(txId)
  })

  test('a submitted transaction cannot be discarded; an unknown one is 404; bad bodies are 400', async () => {
    const s = (server = await startServer())
    const { contractId, tx } = await buildEscrow(s)
    expect((await call(s, 'POST', '/desk/submissions', { body: envelope(sign(tx, [carol])) })).status).toBe(202)
    const txId = contractId.slice(0, 64)
    expectApiError(await call(s, 'POST', '/desk/discards', { body: { txId } }), 409, 'AlreadySubmitted')
    expect((await s.opened.service.getContract(contractId)).status).toBe('submitted')
    expectApiError(await call(s, 'POST', '/desk/discards', { body: { txId: 'ab'.repeat(32) } }), 404, 'TxNotFound')
    expectApiError(await call(s, 'POST', '/desk/discards', {}), 400, 'RequestBodyParseError')
    expectApiError(await call(s, 'POST', '/desk/discards', { body: { txId: 'abc' } }), 400, 'RequestBodyParseError')
    expectApiError(
      await call(s, 'POST', '/desk/discards', { body: { txId, also: true } }),
      400,
      'RequestBodyParseError'
    )
    expect((await call(s, 'POST', '/desk/discards', { body: { txId }, token: null })).status).toBe(401)
  })
})
