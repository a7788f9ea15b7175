/**
 * Fetching the Marlowe validators from their reference-script UTxOs (through the Blockfrost adapter over a local
 * Blockfrost serving a real sandbox ledger), checking their hashes, keeping them as TextEnvelopes, and reading
 * such a directory back.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, test } from 'vitest'
import { marloweDeployment, type MarloweDeployment } from '../../src/chain/deployments'
import {
  fetchMarloweScripts,
  MarloweScriptsError,
  parseValidatorEnvelope,
  readValidatorDir,
  validatorEnvelopeText
} from '../../src/chain/marlowe-scripts'
import { GENESIS_OUTPUTS, STAND_IN_VALIDATORS, type SandboxProvider } from '../../src/chain/sandbox'
import { bytesToHex } from '../../src/core/bytes'
import { parseTextEnvelope } from '../../src/core/cardano/envelope'
import { fetchValidatorsInto, validatorsDir } from '../../src/engine/validator-files'
import { sandboxBlockfrost, sandboxPeer } from './blockfrost/sandbox-peer'
import type { BlockfrostPeer } from './blockfrost/peer'
import { openSandbox } from './support/sandbox'
import { testValidators, writeTestValidatorDir } from './support/validators'

const STAND_IN = marloweDeployment('sandbox')
const scratch = (): string => mkdtempSync(join(tmpdir(), 'marlowe-desk-fetch-'))

let opened: { sandbox: SandboxProvider; peer: BlockfrostPeer } | undefined
afterEach(async () => {
  await opened?.peer.close()
  await opened?.sandbox.close()
  opened = undefined
})

async function blockfrostOverSandbox(): Promise<ReturnType<typeof sandboxBlockfrost>> {
  const { sandbox } = openSandbox()
  const peer = await sandboxPeer(sandbox)
  opened = { sandbox, peer }
  return sandboxBlockfrost(peer)
}

async function fetchError(deployment: MarloweDeployment): Promise<MarloweScriptsError> {
  const error = await fetchMarloweScripts(await blockfrostOverSandbox(), deployment).then(
    () => undefined,
    (e: unknown) => e
  )
  if (!(error instanceof MarloweScriptsError)) throw new Error(`expected a MarloweScriptsError, got ${String(error)}`)
  return error
}

describe('fetching the validators through a node', () => {
  test('reads the three reference scripts, checks their hashes and writes cardano-cli TextEnvelopes', async () => {
    const provider = await blockfrostOverSandbox()
    const dir = validatorsDir(scratch(), 'sandbox')
    const { validators, paths } = await fetchValidatorsInto(provider, STAND_IN, dir)

    expect(paths).toEqual(['semantics.plutus', 'payout.plutus', 'open-role.plutus'].map((f) => join(dir, f)))
    for (const role of ['semantics', 'payout', 'openRole'] as const) {
      expect(validators[role].hash).toBe(STAND_IN[role].hash)
      expect(bytesToHex(validators[role].bytes)).toBe(bytesToHex(STAND_IN_VALIDATORS[role].bytes))
    }
    const text = readFileSync(paths[0]!, 'utf8')
    const envelope = parseTextEnvelope(text)
    expect(envelope.type).toBe('PlutusScriptV2')
    expect(envelope.description).toBe('')
    // cardano-cli's form: one more CBOR byte string around the serialised script (itself a byte string of flat).
    const inner = STAND_IN_VALIDATORS.semantics.bytes
    expect(bytesToHex(envelope.cbor)).toBe(bytesToHex(new Uint8Array([0x58, inner.length, ...inner])))
    expect(readValidatorDir(dir)).toEqual(validators)
  })

  test('a script whose hash is not the deployment’s is refused, naming the validator and both hashes', async () => {
    const wrong = 'ab'.repeat(28)
    const e = await fetchError({ ...STAND_IN, payout: { ...STAND_IN.payout, hash: wrong } })
    expect(e.message).toContain('the payout validator at ')
    expect(e.message).toContain(`the script's hash is ${STAND_IN.payout.hash}, the deployment's is ${wrong}`)
  })

  test('a reference that is not on chain is refused, naming the validator', async () => {
    const reference = { txId: STAND_IN.openRole.reference.txId, index: 7 }
    const e = await fetchError({ ...STAND_IN, openRole: { ...STAND_IN.openRole, reference } })
    expect(e.message).toBe(`the open-role validator at ${reference.txId}#7 on sandbox: no such unspent output`)
  })

  test('an output without a reference script is refused', async () => {
    const wallet = GENESIS_OUTPUTS[0]!
    const e = await fetchError({ ...STAND_IN, semantics: { ...STAND_IN.semantics, reference: wallet.ref } })
    expect(e.message).toMatch(/^the semantics validator at .*: the output holds no reference script$/)
  })

  test('a real network’s references that the chain does not hold are refused before anything is written', async () => {
    const provider = await blockfrostOverSandbox()
    const dir = join(scratch(), 'out')
    await expect(fetchValidatorsInto(provider, marloweDeployment('preprod'), dir)).rejects.toThrow(
      /the semantics validator at 9679fc6b.*#1 on preprod: no such unspent output/
    )
    expect(() => readFileSync(join(dir, 'semantics.plutus'))).toThrow()
  })
})

describe('validator TextEnvelopes', () => {
  test('round-trip, and other envelope types or shapes are refused with the file named', () => {
    const v = testValidators('envelopes').semantics
    expect(parseValidatorEnvelope(validatorEnvelopeText(v), 'f')).toEqual(v)
    const v1 = validatorEnvelopeText(v).replace('PlutusScriptV2', 'PlutusScriptV1')
    expect(() => parseValidatorEnvelope(v1, 'the file x')).toThrow(
      'the file x: a "PlutusScriptV1" envelope, not PlutusScriptV2'
    )
    // The serialised script alone (not wrapped once more, as cardano-cli writes it).
    const bare = `{"type": "PlutusScriptV2", "description": "", "cborHex": "${bytesToHex(v.bytes.subarray(2))}"}`
    expect(() => parseValidatorEnvelope(bare, 'f')).toThrow(/^f: cborHex is not a CBOR byte string holding/)
    expect(() => parseValidatorEnvelope('{}', 'f')).toThrow('f: TextEnvelope has no "type" string')
  })

  test('a directory missing a file is refused, naming the validator and the path', () => {
    const dir = writeTestValidatorDir(testValidators('missing'))
    writeFileSync(join(dir, 'payout.plutus'), 'not json')
    expect(() => readValidatorDir(dir)).toThrow(`the payout validator file ${join(dir, 'payout.plutus')}: not a`)
    const empty = scratch()
    expect(() => readValidatorDir(empty)).toThrow(
      `the semantics validator file ${join(empty, 'semantics.plutus')} cannot be read`
    )
  })
})
