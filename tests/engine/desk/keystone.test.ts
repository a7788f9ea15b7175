/**
 * Keystone through the desk's wire: a watch-only wallet of carol's account shows its build as a sign request,
 * read here frame by frame with bc-ur's decoder and Keystone's registry class as a Keystone would; the Keystone's
 * part (signing at the request's paths) is played by carol's software key, its `cardano-signature` (the registry's
 * own class and encoder) scanned back through `qr.scanKeystone`, checked and submitted. Refusals come as the
 * desk's typed errors, nothing submitted.
 */
import { CardanoSignature, CardanoSignRequest } from '@keystonehq/bc-ur-registry-cardano'
import { URDecoder } from '@ngraveio/bc-ur'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { KeystoneRequestShown, KeystoneSignatureScan, PreparedTx, WalletSummary } from '../../../src/api/contract'
import { bytesToHex } from '../../../src/core/bytes'
import { encodeAccountXvk } from '../../../src/core/cardano/keys-bech32'
import { stringifyContract } from '../../../src/core/marlowe/json'
import { CAROL_ACCOUNT, carol, HOLDER_CONTRACT, keystoneWitnessSet } from '../hardware/support'
import { deskHarness, type DeskHarness } from './support'

const XFP = '0badcafe'

let h: DeskHarness
let wallet: WalletSummary
let built: PreparedTx

beforeAll(async () => {
  h = await deskHarness()
  wallet = await h.ok('wallets.watch', { name: 'carol on keystone', accountKey: encodeAccountXvk(CAROL_ACCOUNT.xvk) })
  built = await h.ok('contracts.create', {
    walletId: wallet.id,
    contractJson: stringifyContract(HOLDER_CONTRACT),
    roles: [{ role: 'Holder', address: carol.address }],
    tags: ['desk.test']
  })
}, 120_000)
afterAll(() => h.close())

/** What a Keystone's camera reads: the frames decoded until whole, then the registry's sign request. */
function readRequest(shown: KeystoneRequestShown): CardanoSignRequest {
  const decoder = new URDecoder()
  for (const part of shown.sequence.parts) {
    decoder.receivePart(part)
    if (decoder.isComplete()) break
  }
  expect(decoder.isSuccess()).toBe(true)
  const ur = decoder.resultUR()
  expect(ur.type).toBe('cardano-sign-request')
  return CardanoSignRequest.fromCBOR(ur.cbor)
}

/** The Keystone's answer shown as frames and read through the desk's Keystone scan. */
async function scanned(signature: CardanoSignature): Promise<KeystoneSignatureScan> {
  const encoder = signature.toUREncoder(60)
  const scanId = `ks-${Math.random().toString(36).slice(2)}`
  for (let i = 0; i < 4 * encoder.fragmentsLength; i++) {
    const state = await h.ok('qr.scanKeystone', { scanId, part: encoder.nextPart().toUpperCase() })
    if (state.signature !== undefined) return state.signature
  }
  throw new Error('the scan did not complete')
}

describe('signing a build with a Keystone', () => {
  let shown: KeystoneRequestShown
  let request: CardanoSignRequest

  beforeAll(async () => {
    shown = await h.ok('tx.keystoneRequest', { txId: built.txId, walletId: wallet.id, masterFingerprint: XFP })
    request = readRequest(shown)
  })

  test('the request a Keystone reads: this build, its id, Desk as its origin, the UTxOs carol spends at her path', () => {
    expect(bytesToHex(request.getSignData())).toBe(built.cborHex)
    expect(bytesToHex(request.getRequestId()!)).toBe(shown.requestId.replaceAll('-', ''))
    expect(request.getOrigin()).toBe('Marlowe Desk')
    expect(request.getUtxos().length).toBeGreaterThan(0)
    expect(new Set(request.getUtxos().map((u) => u.getAddress()))).toEqual(new Set([carol.address]))
    expect(request.getUtxos().map((u) => u.getKeyPath())).toEqual(request.getUtxos().map(() => "1852'/1815'/0'/0/0"))
    expect(shown).toMatchObject({ paths: ["m/1852'/1815'/0'/0/0"], missing: [] })
  })

  test('a signature answering another request this Desk showed is refused by name, nothing submitted', async () => {
    const other = await h.ok('tx.keystoneRequest', { txId: built.txId, walletId: wallet.id, masterFingerprint: XFP })
    const answer = await scanned(
      new CardanoSignature(keystoneWitnessSet(built.txId, ["1852'/1815'/0'/0/0"]), readRequest(other).getRequestId())
    )
    expect(answer.requestId).toBe(other.requestId)
    const call = { txId: built.txId, walletId: wallet.id, requestId: shown.requestId, signature: answer.cbor }
    const e = await h.fails('tx.signWithKeystone', call, 'KeystoneOtherRequest')
    expect(e.message).toContain(`not the one shown for this transaction (${shown.requestId})`)
    expect((await h.ok('tx.status', { txId: built.txId })).status).toBe('unsigned')
  })

  test('a bad signature, a request this Desk never showed, a fingerprint that is not one, a foreign code', async () => {
    const bad = await scanned(
      new CardanoSignature(keystoneWitnessSet('ab'.repeat(32), ["1852'/1815'/0'/0/0"]), request.getRequestId())
    )
    const call = { txId: built.txId, walletId: wallet.id, requestId: shown.requestId, signature: bad.cbor }
    await h.fails('tx.signWithKeystone', call, 'KeystoneBadSignature')
    await h.fails(
      'tx.signWithKeystone',
      { ...call, requestId: '00000000-0000-4000-8000-000000000000' },
      'KeystoneUnknownRequest'
    )
    await h.fails(
      'tx.keystoneRequest',
      { txId: built.txId, walletId: wallet.id, masterFingerprint: 'carol' },
      'InvalidRequest'
    )
    const frame = shown.sequence.parts[0]!
    const e = await h.fails('qr.scanKeystone', { scanId: 'foreign', part: frame }, 'QrNotOurs')
    expect(e.message).toContain('not a Keystone signature')
    expect((await h.ok('tx.status', { txId: built.txId })).status).toBe('unsigned')
  })

  test('signed at the request’s paths, scanned back, verified, spliced and submitted', async () => {
    const paths = request.getUtxos().map((u) => u.getKeyPath())
    const answer = await scanned(
      new CardanoSignature(keystoneWitnessSet(built.txId, [...new Set(paths)]), request.getRequestId())
    )
    const call = { txId: built.txId, walletId: wallet.id, requestId: shown.requestId, signature: answer.cbor }
    expect(await h.ok('tx.signWithKeystone', call)).toEqual({ txId: built.txId, status: 'submitted' })
    await h.fails('tx.signWithKeystone', call, 'AlreadySubmitted')
  })
})
