/**
 * Review bundles and witnesses as UR fountain-coded QR sequences (issue 16 §2): frames missed or read out of
 * order still complete, a frame of another sequence and a damaged or altered payload are refused with a clear
 * message, and the largest transaction Desk builds (≈16 KB, with a reference script beside it) round-trips.
 */
import { describe, expect, test } from 'vitest'
import { parseBundle, stringifyBundle, type ReviewBundle } from '../../src/core/cardano/bundle'
import { stringifyTextEnvelope } from '../../src/core/cardano/envelope'
import { witnessSetEnvelopeType } from '../../src/core/cardano/tx-envelope'
import { EngineError } from '../../src/engine/errors'
import { encodeQrSequence, QrReceiver, type QrPayload } from '../../src/engine/qr-transfer'
import { alteredFrame } from '../support/qr-frames'
import { ERAS, TX_A, largestApply, marloweApplyInputs, marloweApplyTx, txIdOf } from '../core/cardano/tx/fixtures'

function bundleOf(tx: Uint8Array, resolvedInputs: ReviewBundle['resolvedInputs']): QrPayload {
  const text = stringifyBundle({
    tx,
    era: 'Conway',
    network: 'sandbox',
    createdAt: '2026-01-01T00:00:00.000Z',
    resolvedInputs,
    eraSummaries: ERAS
  })
  return { kind: 'bundle', txId: txIdOf(tx), text }
}

const small = bundleOf(marloweApplyTx(TX_A), marloweApplyInputs(TX_A))

function largest(): QrPayload {
  const { tx, resolvedInputs } = largestApply()
  expect(tx.length).toBeGreaterThan(15_000)
  return bundleOf(tx, resolvedInputs)
}

function receiveAll(receiver: QrReceiver, parts: readonly string[]): void {
  for (const part of parts) receiver.receive(part)
}

function refusal(f: () => unknown): EngineError {
  try {
    f()
  } catch (e) {
    if (e instanceof EngineError) return e
    throw e
  }
  throw new Error('expected a refusal')
}

describe('a review bundle as a QR sequence', () => {
  test('every frame read once, in order: the same bundle text, verified, at 100%', () => {
    const sequence = encodeQrSequence(small)
    expect(sequence.fragments).toBeGreaterThan(1)
    expect(sequence.parts.length).toBeGreaterThan(sequence.fragments)
    expect(sequence.parts.every((p) => p === p.toUpperCase() && p.startsWith('UR:MARLOWE-DESK-BUNDLE/'))).toBe(true)
    const receiver = new QrReceiver()
    expect(receiver.progress()).toEqual({ received: 0, expected: 0, percent: 0 })
    receiveAll(receiver, sequence.parts.slice(0, sequence.fragments))
    expect(receiver.result()).toEqual(small)
    expect(receiver.progress()).toEqual({
      received: sequence.fragments,
      expected: sequence.fragments,
      percent: 100,
      kind: 'bundle'
    })
    expect(parseBundle(receiver.result()!.text).tx).toEqual(parseBundle(small.text).tx)
  })

  test('frames missed and read out of order: the fountain-mixed frames make up for them', () => {
    const sequence = encodeQrSequence(small)
    const n = sequence.fragments
    // Every other pure frame is missed; the rest arrive backwards, then the mixed frames.
    const seen = [...sequence.parts.slice(0, n).filter((_, i) => i % 2 === 1)].reverse()
    const receiver = new QrReceiver()
    receiveAll(receiver, seen)
    expect(receiver.result()).toBeUndefined()
    const progress = receiver.progress()
    expect(progress.received).toBe(seen.length)
    expect(progress.expected).toBe(n)
    expect(progress.percent).toBeGreaterThan(0)
    expect(progress.percent).toBeLessThan(100)
    let mixed = n
    while (receiver.result() === undefined) {
      expect(mixed).toBeLessThan(sequence.parts.length)
      receiver.receive(sequence.parts[mixed++]!)
    }
    expect(receiver.result()).toEqual(small)
  })

  test('a frame read twice counts once', () => {
    const { parts } = encodeQrSequence(small)
    const receiver = new QrReceiver()
    receiver.receive(parts[0]!)
    receiver.receive(parts[0]!.toLowerCase())
    expect(receiver.progress().received).toBe(1)
  })

  test("another sequence's frame is refused, and the scan goes on", () => {
    const mine = encodeQrSequence(small)
    const other = encodeQrSequence(bundleOf(marloweApplyTx(TX_A, { continuation: false }), marloweApplyInputs(TX_A)))
    const receiver = new QrReceiver()
    receiver.receive(mine.parts[0]!)
    const e = refusal(() => receiver.receive(other.parts[1]!))
    expect(e.code).toBe('QrOtherSequence')
    expect(e.message).toMatch(/another QR sequence/)
    expect(receiver.progress().received).toBe(1)
    receiveAll(receiver, mine.parts.slice(1, mine.fragments))
    expect(receiver.result()).toEqual(small)
  })

  test('a stray frame read first does not capture the scan: the sequence with more frames is the one read', () => {
    const mine = encodeQrSequence(small)
    const other = encodeQrSequence(bundleOf(marloweApplyTx(TX_A, { continuation: false }), marloweApplyInputs(TX_A)))
    const receiver = new QrReceiver()
    receiver.receive(other.parts[0]!)
    expect(refusal(() => receiver.receive(mine.parts[0]!)).code).toBe('QrOtherSequence')
    receiver.receive(mine.parts[1]!)
    expect(receiver.progress()).toMatchObject({ received: 2, expected: mine.fragments })
    expect(refusal(() => receiver.receive(other.parts[1]!)).code).toBe('QrOtherSequence')
    receiveAll(receiver, mine.parts.slice(2))
    expect(receiver.result()).toEqual(small)
  })

  test('strays are followed a few at a time: frames of many other sequences neither stop nor capture the scan', () => {
    const mine = encodeQrSequence(small)
    const receiver = new QrReceiver()
    receiver.receive(mine.parts[0]!)
    receiver.receive(mine.parts[1]!)
    for (let i = 0; i < 12; i += 1) {
      const stray = encodeQrSequence({ ...small, text: `${small.text}${' '.repeat(i + 1)}` })
      expect(refusal(() => receiver.receive(stray.parts[0]!)).code).toBe('QrOtherSequence')
    }
    receiveAll(receiver, mine.parts.slice(2))
    expect(receiver.result()).toEqual(small)
  })

  test('a witness frame in the middle of a bundle is refused by name', () => {
    const bundle = encodeQrSequence(small)
    const witness = encodeQrSequence(witnessPayload())
    const receiver = new QrReceiver()
    receiver.receive(bundle.parts[0]!)
    const e = refusal(() => receiver.receive(witness.parts[0]!))
    expect(e.message).toBe(
      'This frame carries a witness, but the sequence being read carries a review bundle: keep the camera on one QR sequence.'
    )
  })

  test('a damaged frame (its own checksum wrong) is refused, not counted', () => {
    const { parts } = encodeQrSequence(small)
    const receiver = new QrReceiver()
    const part = parts[0]!
    const damaged = `${part.slice(0, -6)}${part.slice(-6) === 'AAAAAA' ? 'BBBBBB' : 'AAAAAA'}`
    const e = refusal(() => receiver.receive(damaged))
    expect(e.code).toBe('QrFrameDamaged')
    expect(receiver.progress().received).toBe(0)
  })

  test('an altered payload (every frame well formed) is refused by the sequence checksum', () => {
    const sequence = encodeQrSequence(small)
    const receiver = new QrReceiver()
    receiver.receive(alteredFrame(sequence.parts[0]!))
    const rest = sequence.parts.slice(1, sequence.fragments)
    const e = refusal(() => receiveAll(receiver, rest))
    expect(e.code).toBe('QrPayloadDamaged')
    expect(e.message).toMatch(/the payload was altered/)
    expect(receiver.result()).toBeUndefined()
  })

  test('a payload whose bundle holds another transaction than announced is refused as the file path would', () => {
    const other = bundleOf(marloweApplyTx(TX_A, { continuation: false }), marloweApplyInputs(TX_A))
    const sequence = encodeQrSequence({ ...other, txId: small.txId })
    const receiver = new QrReceiver()
    const e = refusal(() => receiveAll(receiver, sequence.parts))
    expect(e.code).toBe('QrPayloadInvalid')
    expect(e.message).toBe(`The review bundle is for transaction ${other.txId}, not ${small.txId}`)
  })

  test('a payload that is not a bundle, or a bundle this Desk cannot read, is refused saying so', () => {
    const notBundle = encodeQrSequence({ kind: 'bundle', txId: small.txId, text: '{"format": "something else"}' })
    const e = refusal(() => receiveAll(new QrReceiver(), notBundle.parts))
    expect(e.code).toBe('QrPayloadInvalid')
    expect(e.message).toBe('The file is not a review bundle')
    const future = encodeQrSequence({ ...small, text: small.text.replace('"version": 1', '"version": 99') })
    const f = refusal(() => receiveAll(new QrReceiver(), future.parts))
    expect(f.code).toBe('InvalidBundle')
    expect(f.message).toMatch(/version 99 is not supported/)
  })

  test('QR codes that are not ours are refused by what they are', () => {
    const receiver = new QrReceiver()
    expect(refusal(() => receiver.receive('https://example.com')).message).toMatch(/not a UR frame/)
    expect(refusal(() => receiver.receive('ur:crypto-psbt/lpadaxcfaxbk')).message).toMatch(
      /carries a "crypto-psbt", not a Marlowe Desk/
    )
    expect(refusal(() => receiver.receive('UR:MARLOWE-DESK-BUNDLE/1-99999/LPAD')).code).toBe('QrTooLarge')
    expect(refusal(() => receiver.receive('UR:MARLOWE-DESK-BUNDLE/0-3/LPAD')).code).toBe('QrNotOurs')
  })

  test('the largest transaction Desk builds, with a 14 KB reference script, round-trips missing every third frame', () => {
    const payload = largest()
    const sequence = encodeQrSequence(payload)
    expect(sequence.fragments).toBeGreaterThan(50)
    const receiver = new QrReceiver()
    // The loop shown twice, as a camera sees it, every third frame missed.
    const { parts } = sequence
    for (let i = 0; receiver.result() === undefined && i < 2 * parts.length; i++) {
      if (i % 3 !== 0) receiver.receive(parts[i % parts.length]!)
    }
    expect(receiver.result()).toEqual(payload)
  })
})

function witnessPayload(): QrPayload {
  const witnessSet = new Uint8Array([0xa1, 0x00, 0x81, 0x82, 0x58, 0x20, ...new Uint8Array(32).fill(1), 0x58, 0x40])
  const cbor = new Uint8Array([...witnessSet, ...new Uint8Array(64).fill(2)])
  return {
    kind: 'witness',
    txId: small.txId,
    text: stringifyTextEnvelope({ type: witnessSetEnvelopeType('Conway'), description: '', cbor })
  }
}

describe('a witness as a QR sequence', () => {
  test('fits one QR code and reads back whole', () => {
    const payload = witnessPayload()
    const sequence = encodeQrSequence(payload)
    expect(sequence.parts).toHaveLength(1)
    expect(sequence.parts[0]).toMatch(/^UR:MARLOWE-DESK-WITNESS\/[A-Z]+$/)
    const receiver = new QrReceiver()
    expect(receiver.receive(sequence.parts[0]!)).toEqual({ received: 1, expected: 1, percent: 100, kind: 'witness' })
    expect(receiver.result()).toEqual(payload)
  })

  test('a witness that is not one is refused as the witness file reader refuses it', () => {
    const sequence = encodeQrSequence({ kind: 'witness', txId: small.txId, text: 'not a witness' })
    expect(refusal(() => receiveAll(new QrReceiver(), sequence.parts)).code).toBe('InvalidWitness')
  })
})
