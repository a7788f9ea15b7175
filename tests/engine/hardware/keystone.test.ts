/**
 * Keystone: every kind of transaction Desk builds as a `cardano-sign-request`, decoded back by Keystone's own
 * registry classes and checked field by field against the transaction; then the Keystone's side played by a
 * software key at the request's paths, answering with a `cardano-signature` made by the registry's own class and
 * encoder, read through Desk's scanner, verified, spliced and confirmed on the sandbox. And what is refused.
 */
import { CardanoSignature, CardanoSignRequest, CryptoKeypath, type DataItem } from '@keystonehq/bc-ur-registry-cardano'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bytesToHex, hexToBytes } from '../../../src/core/bytes'
import { parseShelleyAddress } from '../../../src/core/cardano/address'
import { decodeTransaction } from '../../../src/core/cardano/tx'
import { EngineError } from '../../../src/engine/errors'
import {
  KEYSTONE_ORIGIN,
  KEYSTONE_SIGNATURE_READING,
  keystoneSignRequest,
  spliceKeystoneSignature,
  type KeystoneRequest,
  type KeystoneSignatureScan
} from '../../../src/engine/hardware/keystone'
import { UrReceiver } from '../../../src/engine/qr-transfer'
import { serviceHarness, type ServiceHarness } from '../service/support'
import { CAROL_ACCOUNT, carol, everyTxKind, keystoneWitnessSet, type Built, type TxKind } from './support'

/** The master fingerprint the Keystone would report for carol's seed (any 4 bytes: Desk only carries it). */
const XFP = '1a2b3c4d'
const CAROL_PAYMENT = "1852'/1815'/0'/0/0"

interface Made {
  readonly built: Built
  readonly resolved: Awaited<ReturnType<Built['resolved']>>
  readonly request: KeystoneRequest
  readonly decoded: CardanoSignRequest
  readonly scanned: KeystoneSignatureScan
  readonly signedTx: Uint8Array
}

let h: ServiceHarness
const made = new Map<TxKind, Made>()

/** The signature's frames from the registry's own encoder, small enough to need several, read by Desk's scanner. */
function scan(signature: CardanoSignature): KeystoneSignatureScan {
  const encoder = signature.toUREncoder(60)
  const receiver = new UrReceiver(KEYSTONE_SIGNATURE_READING)
  for (let i = 0; i < 4 * encoder.fragmentsLength && receiver.result() === undefined; i++) {
    receiver.receive(encoder.nextPart().toUpperCase())
  }
  expect(encoder.fragmentsLength).toBeGreaterThan(1)
  return receiver.result()!
}

/** The master fingerprint a registry key path carries (its getter gives only the path text). */
function fingerprintOf(item: { toDataItem(): DataItem }, key: number): string {
  const map = item.toDataItem().getData() as Record<number, DataItem>
  return CryptoKeypath.fromDataItem(map[key]!).getSourceFingerprint().toString('hex')
}

beforeAll(async () => {
  h = await serviceHarness()
  await everyTxKind(h, async (built) => {
    const resolved = await built.resolved()
    const request = await keystoneSignRequest({
      tx: built.tx,
      account: CAROL_ACCOUNT,
      masterFingerprint: XFP,
      resolved
    })
    const decoded = CardanoSignRequest.fromCBOR(request.ur.cbor)
    const paths = [
      ...new Set([
        ...decoded.getUtxos().map((u) => u.getKeyPath()),
        ...decoded.getAdditionalSigners().map((s) => s.getKeyPath())
      ])
    ]
    const scanned = scan(new CardanoSignature(keystoneWitnessSet(built.txId, paths), decoded.getRequestId()))
    const signedTx = spliceKeystoneSignature(built.tx, request, hexToBytes(scanned.cbor)).tx
    made.set(built.kind, { built, resolved, request, decoded, scanned, signedTx })
    return signedTx
  })
}, 180_000)

afterAll(async () => {
  await h.close()
  await h.sandbox.close()
})

const KINDS: readonly TxKind[] = ['create', 'apply-as-role', 'apply-as-address', 'withdraw']
const isCarols = (address: string): boolean => parseShelleyAddress(address).payment.hash === carol.paymentKeyHash

describe.each(KINDS)('%s', (kind) => {
  const of = (): Made => made.get(kind)!

  it('is a cardano-sign-request carrying the tx bytes, its id and the origin', () => {
    const { request, decoded, built } = of()
    expect(request.ur.type).toBe('cardano-sign-request')
    expect(bytesToHex(decoded.getSignData())).toBe(bytesToHex(built.tx))
    expect(bytesToHex(decoded.getRequestId()!)).toBe(request.requestId.replaceAll('-', ''))
    expect(decoded.getOrigin()).toBe(KEYSTONE_ORIGIN)
    expect(KEYSTONE_ORIGIN).toBe('Marlowe Desk')
  })

  it("names every UTxO of carol's it spends (inputs and collateral) with its address, amount and path", () => {
    const { decoded, built, resolved } = of()
    const { body } = decodeTransaction(built.tx)
    const spent = [...body.inputs, ...body.collateral].map((i) => `${i.txId}#${i.index}`)
    const expected = [...new Set(spent)].flatMap((ref) => {
      const o = resolved.find((r) => `${r.ref.txId}#${r.ref.index}` === ref)!
      return isCarols(o.address)
        ? [{ ref, amount: o.value.lovelace.toString(), address: o.address, path: CAROL_PAYMENT, xfp: XFP }]
        : []
    })
    expect(expected.length).toBeGreaterThan(0)
    expect(
      decoded.getUtxos().map((u) => ({
        ref: `${bytesToHex(u.getTransactionHash())}#${u.getIndex()}`,
        amount: u.getAmount(),
        address: u.getAddress(),
        path: u.getKeyPath(),
        xfp: fingerprintOf(u, 4)
      }))
    ).toEqual(expected)
  })

  it("names carol's required signers with their paths, and only those", () => {
    const { decoded, built } = of()
    const mine = decodeTransaction(built.tx).body.requiredSigners.filter((k) => k === carol.paymentKeyHash)
    expect(mine).toHaveLength(kind === 'apply-as-address' ? 1 : 0)
    expect(
      decoded.getAdditionalSigners().map((s) => ({
        keyHash: bytesToHex(s.getKeyHash()),
        path: s.getKeyPath(),
        xfp: fingerprintOf(s, 2)
      }))
    ).toEqual(mine.map((keyHash) => ({ keyHash, path: CAROL_PAYMENT, xfp: XFP })))
    expect(of().request.missing.size).toBe(0)
  })

  it('signed at the request’s paths, read back, verified and spliced: same body, confirmed on the sandbox', async () => {
    const { signedTx, built, scanned, request } = of()
    expect(scanned.requestId).toBe(request.requestId)
    const before = decodeTransaction(built.tx)
    const after = decodeTransaction(signedTx)
    expect(after.id).toBe(built.txId)
    expect(bytesToHex(signedTx.slice(after.bodyRange.start, after.bodyRange.end))).toBe(
      bytesToHex(built.tx.slice(before.bodyRange.start, before.bodyRange.end))
    )
    expect(after.witnessSet.vkeys.map((w) => w.keyHash)).toEqual([carol.paymentKeyHash])
    expect(await h.sandbox.txStatus(built.txId)).toMatchObject({ status: 'confirmed' })
  })
})

describe('refused', () => {
  const of = (): Made => made.get('apply-as-address')!
  const refusal = (signature: CardanoSignature): string => {
    const { built, request } = of()
    try {
      spliceKeystoneSignature(built.tx, request, signature.toCBOR())
    } catch (e) {
      if (e instanceof EngineError) return e.code
      throw e
    }
    throw new Error('not refused')
  }
  const requestIdBytes = (): Buffer => of().decoded.getRequestId()!

  it('a signature answering another request', () => {
    const other = Buffer.from(requestIdBytes())
    other[0] = other[0]! ^ 0xff
    expect(refusal(new CardanoSignature(keystoneWitnessSet(of().built.txId, [CAROL_PAYMENT]), other))).toBe(
      'KeystoneOtherRequest'
    )
  })

  it('a signature of another body by the right key', () => {
    const otherBody = bytesToHex(new Uint8Array(32).fill(7))
    expect(refusal(new CardanoSignature(keystoneWitnessSet(otherBody, [CAROL_PAYMENT]), requestIdBytes()))).toBe(
      'KeystoneBadSignature'
    )
  })

  it('a signature by a key the request did not name', () => {
    expect(
      refusal(new CardanoSignature(keystoneWitnessSet(of().built.txId, ["1852'/1815'/0'/1/0"]), requestIdBytes()))
    ).toBe('KeystoneUnknownKey')
  })

  it('a witness set that is not one, and one with no witness', () => {
    expect(refusal(new CardanoSignature(Buffer.from([0x01, 0x02]), requestIdBytes()))).toBe(
      'KeystoneSignatureUnreadable'
    )
    expect(refusal(new CardanoSignature(Buffer.from([0xa0]), requestIdBytes()))).toBe('KeystoneSignatureEmpty')
  })

  it('a master fingerprint that is not 8 hex digits, before anything is built', async () => {
    const { built, resolved } = of()
    const input = { tx: built.tx, account: CAROL_ACCOUNT, masterFingerprint: 'carol', resolved }
    await expect(keystoneSignRequest(input)).rejects.toMatchObject({ code: 'KeystoneBadFingerprint' })
  })

  it('the scanner takes only cardano-signature codes', () => {
    const receiver = new UrReceiver(KEYSTONE_SIGNATURE_READING)
    const requestFrame = of().decoded.toUREncoder(400).nextPart()
    expect(() => receiver.receive(requestFrame)).toThrow(/not a Keystone signature \(ur:cardano-signature\)/)
  })
})
