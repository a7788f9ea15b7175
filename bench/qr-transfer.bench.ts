/**
 * Moving the largest review bundle by animated QR codes: the ≈16 KB apply transaction (the protocol's maximum)
 * with a 14 KB reference script that does not compress. Frames in one pass and seconds at 10 frames/s, ours (the
 * file deflated in a cbor-x payload) against the bundle's JSON text put in a UR as it is; and the receiver's CPU
 * per frame, ours (parse, checks, fountain decoding) against bc-ur's own URDecoder on the same frames.
 */
import { UR, UREncoder, URDecoder } from '@ngraveio/bc-ur'
import { stringifyBundle } from '../src/core/cardano/bundle'
import { encodeQrSequence, QR_FRAGMENT_BYTES, QrReceiver, type QrPayload } from '../src/engine/qr-transfer'
import { ERAS, largestApply, txIdOf } from '../tests/core/cardano/tx/fixtures'
import { measure, printRows } from './harness'

const FRAMES_PER_SECOND = 10

function largestBundle(): QrPayload {
  const { tx, resolvedInputs } = largestApply()
  const createdAt = '2026-01-01T00:00:00.000Z'
  const text = stringifyBundle({ tx, era: 'Conway', network: 'sandbox', createdAt, resolvedInputs, eraSummaries: ERAS })
  return { kind: 'bundle', txId: txIdOf(tx), text }
}

export function benchQrTransfer(): void {
  const payload = largestBundle()
  const ours = encodeQrSequence(payload)
  const plain = new UREncoder(UR.fromBuffer(Buffer.from(payload.text)), QR_FRAGMENT_BYTES)
  const plainParts = Array.from({ length: 2 * plain.fragmentsLength }, () => plain.nextPart())

  const receiveOurs = (): void => {
    const receiver = new QrReceiver()
    for (const part of ours.parts.slice(0, ours.fragments)) receiver.receive(part)
    if (receiver.result() === undefined) throw new Error('our receiver did not complete')
  }
  const receivePlain = (): void => {
    const decoder = new URDecoder()
    for (const part of plainParts.slice(0, plain.fragmentsLength)) decoder.receivePart(part)
    if (!decoder.isSuccess()) throw new Error("bc-ur's decoder did not complete")
  }
  const oursRate = measure(receiveOurs, ours.fragments)
  const plainRate = measure(receivePlain, plain.fragmentsLength)

  printRows(
    `QR transfer of the largest bundle (${payload.text.length} B of JSON; ${ours.payloadBytes} B on the wire, ${QR_FRAGMENT_BYTES} B a frame)`,
    [
      {
        what: 'frames to send each fragment once',
        unit: 'frames',
        ours: ours.fragments,
        peerName: 'the JSON text in a UR as it is',
        peer: plain.fragmentsLength
      },
      {
        what: `seconds for one pass at ${FRAMES_PER_SECOND} frames/s`,
        unit: 's',
        ours: ours.fragments / FRAMES_PER_SECOND,
        peerName: 'the JSON text in a UR as it is',
        peer: plain.fragmentsLength / FRAMES_PER_SECOND
      },
      {
        what: 'receiver CPU per frame (parse, checks, fountain decoding, verifying the bundle at the end)',
        unit: 'µs',
        ours: 1e6 / oursRate.opsPerSecond,
        peerName: "bc-ur's URDecoder (no checks)",
        peer: 1e6 / plainRate.opsPerSecond
      }
    ]
  )
}
