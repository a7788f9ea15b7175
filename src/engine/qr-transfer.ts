/**
 * Review bundles and witnesses carried between the online and the offline Desk as animated QR codes: the
 * Uniform Resources format (UR) with fountain codes, so a receiver that misses frames, or reads them out of
 * order, still completes from whatever frames it sees next. The payload is CBOR (cbor-x) holding the file's
 * text deflated; the receiver verifies what it reassembles the way the file path does. The receiver itself takes
 * any reading of UR types (a Keystone's `cardano-signature` is read by the same one, see hardware/keystone.ts).
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib'
import { UR, UREncoder, URDecoder } from '@ngraveio/bc-ur'
import bytewords from '@ngraveio/bc-ur/dist/bytewords'
import FountainDecoder from '@ngraveio/bc-ur/dist/fountainDecoder'
import { FountainEncoderPart } from '@ngraveio/bc-ur/dist/fountainEncoder'
import { decode as cborDecode, encode as cborEncode } from 'cbor-x'
import { bytesToHex, hexToBytes, utf8DecodeStrict } from '../core/bytes'
import type { QrPayload, QrSequence } from '../api/contract'
import { EngineError } from './errors'
import { isReviewBundle, readLoaded } from './offline-tx'
import { readWitnessFile } from './sign'

export type { QrPayload, QrSequence }
export type QrPayloadKind = QrPayload['kind']

const UR_TYPES: Readonly<Record<QrPayloadKind, string>> = {
  bundle: 'marlowe-desk-bundle',
  witness: 'marlowe-desk-witness'
}
const PAYLOAD_VERSION = 1

/** Bytes of payload per frame: a QR code of version ~13 in alphanumeric mode, which a webcam reads at 10 frames/s. */
export const QR_FRAGMENT_BYTES = 200
/** Bytes of payload a single still frame may hold: a QR code of version ~20, read without hurry. */
const SINGLE_FRAME_BYTES = 400
/** Frames shown per loop beyond the fragments themselves: fountain-mixed ones, which make up for missed frames. */
const EXTRA_FRAMES_RATIO = 1
/** Bounds on what a receiver accepts, checked before the decoder allocates anything. */
const MAX_FRAGMENTS = 4096
const MAX_PAYLOAD_BYTES = QR_FRAGMENT_BYTES * MAX_FRAGMENTS
const MAX_FILE_BYTES = 8 * 1024 * 1024
const MAX_PART_CHARS = 4096

function qrError(code: string, message: string, details: Record<string, unknown> = {}): EngineError {
  return new EngineError('BadRequest', code, message, details)
}

/** The frames of `payload`: every fragment once, then fountain-mixed frames; shown in a loop. */
export function encodeQrSequence(payload: QrPayload, fragmentBytes = QR_FRAGMENT_BYTES): QrSequence {
  const cbor = Buffer.from(
    cborEncode([PAYLOAD_VERSION, hexToBytes(payload.txId), deflateRawSync(new TextEncoder().encode(payload.text))])
  )
  return urSequence(new UR(cbor, UR_TYPES[payload.kind]), fragmentBytes)
}

/** The frames of any UR (Desk's own payloads, a Keystone sign request), upper case for the QR alphanumeric mode. */
export function urSequence(ur: UR, fragmentBytes = QR_FRAGMENT_BYTES): QrSequence {
  const bytes = ur.cbor.length
  // A payload that fits one still QR code (a witness, usually) is shown as one: nothing to animate or miss.
  const encoder = new UREncoder(ur, bytes <= SINGLE_FRAME_BYTES ? bytes : fragmentBytes)
  const fragments = encoder.fragmentsLength
  const count = fragments === 1 ? 1 : fragments + Math.max(2, Math.ceil(fragments * EXTRA_FRAMES_RATIO))
  const parts = Array.from({ length: count }, () => encoder.nextPart().toUpperCase())
  return { parts, fragments, payloadBytes: bytes }
}

interface SequenceId {
  readonly type: string
  readonly fragments: number
  readonly messageLength: number
  readonly checksum: number
}

/**
 * What a receiver reads: the kind of payload each UR type it takes carries (undefined for a type it does not
 * take), how a kind is named in messages, and how a whole payload is read and verified.
 */
export interface UrReading<K extends string, P> {
  kindOf(type: string): K | undefined
  describe(kind: K): string
  /** Why a QR code of `type` is refused: what this reading takes instead. */
  notOurs(type: string): string
  read(kind: K, cbor: Buffer): P
}

/** A scan's progress: frames received (a repeated frame counts once), of `expected`; 100% only once whole. */
export interface UrProgress<K extends string> {
  readonly received: number
  readonly expected: number
  readonly percent: number
  readonly kind?: K
}

/** One sequence whose frames have been seen, with its own decoder. */
interface Candidate {
  readonly id: SequenceId
  readonly decoder: FountainDecoder
  readonly seen: Set<string>
}

/** Sequences followed at once: the one being read, and a few strays that might turn out to be it. */
const MAX_CANDIDATES = 4

function sequenceKey(id: SequenceId): string {
  return `${id.type}/${id.fragments}/${id.messageLength}/${id.checksum}`
}

/**
 * Reads one QR sequence frame by frame. A frame of another sequence (another transaction, or the same one
 * exported again) and a damaged frame are refused with a message saying so; the progress is kept. The sequence
 * read is the one with the most frames seen, so a stray frame read first (a code left on screen, another
 * window) does not capture the scan: its sequence is followed too, and dropped once the real one leads.
 */
export class UrReceiver<K extends string, P> {
  private readonly candidates = new Map<string, Candidate>()
  private leader: Candidate | undefined
  private single: SequenceId | undefined
  private payload: P | undefined

  constructor(private readonly reading: UrReading<K, P>) {}

  /** Takes one frame's text; throws a clear EngineError for a frame that cannot belong to this sequence. */
  receive(text: string): UrProgress<K> {
    if (this.payload !== undefined) return this.progress()
    const frame = text.trim().toLowerCase()
    const { kind, type, components } = this.parseFrame(frame)
    if (components.length === 1) {
      const id = { type, fragments: 1, messageLength: 0, checksum: 0 }
      if (this.leader !== undefined) throw this.otherSequence(this.leader.id, id)
      this.single = id
      this.payload = this.reading.read(kind, bodyBytes(components[0]!))
      return this.progress()
    }
    const part = fountainPart(components)
    const candidate = this.candidateFor({
      type,
      fragments: part.seqLength,
      messageLength: part.messageLength,
      checksum: part.checksum
    })
    if (candidate.seen.has(frame)) return this.progress()
    candidate.decoder.receivePart(part)
    candidate.seen.add(frame)
    if (candidate.decoder.isFailure()) {
      this.candidates.delete(sequenceKey(candidate.id))
      if (candidate === this.leader) {
        this.leader = undefined
        throw qrError(
          'QrPayloadDamaged',
          'The frames put together do not match the checksum their sequence announced: the payload was altered. Scan the sequence again from the start.'
        )
      }
      return this.progress()
    }
    const leader = this.leader
    if (leader !== undefined && leader !== candidate && candidate.seen.size <= leader.seen.size) {
      throw this.otherSequence(leader.id, candidate.id)
    }
    this.leader = candidate
    if (candidate.decoder.isSuccess()) this.payload = this.reading.read(kind, candidate.decoder.resultMessage())
    return this.progress()
  }

  progress(): UrProgress<K> {
    const id = this.leader?.id ?? this.single
    const kind = id === undefined ? undefined : this.reading.kindOf(id.type)
    const expected = id?.fragments ?? 0
    const done = this.payload !== undefined
    const received = this.leader?.seen.size ?? (done ? 1 : 0)
    const estimate = this.leader?.decoder.estimatedPercentComplete() ?? 0
    const percent = done ? 100 : Math.min(99, Math.floor(estimate * 100))
    return { received, expected, percent, ...(kind === undefined ? {} : { kind }) }
  }

  /** The verified payload once the sequence is whole. */
  result(): P | undefined {
    return this.payload
  }

  private parseFrame(frame: string): { kind: K; type: string; components: readonly string[] } {
    const { type, components } = parseFrame(frame)
    const kind = this.reading.kindOf(type)
    if (kind === undefined) throw qrError('QrNotOurs', this.reading.notOurs(type))
    return { kind, type, components }
  }

  private describeType(type: string): string {
    const kind = this.reading.kindOf(type)
    return kind === undefined ? `"${type}"` : this.reading.describe(kind)
  }

  private otherSequence(reading: SequenceId, frame: SequenceId): EngineError {
    if (reading.type !== frame.type) {
      return qrError(
        'QrOtherSequence',
        `This frame carries a ${this.describeType(frame.type)}, but the sequence being read carries a ${this.describeType(reading.type)}: keep the camera on one QR sequence.`
      )
    }
    return qrError(
      'QrOtherSequence',
      'This frame belongs to another QR sequence (another transaction, or one exported again): keep the camera on one sequence, or start a new scan.'
    )
  }

  /** The followed sequence `id` belongs to; a new one replaces the stray with the fewest frames when full. */
  private candidateFor(id: SequenceId): Candidate {
    const key = sequenceKey(id)
    const known = this.candidates.get(key)
    if (known !== undefined) return known
    if (this.candidates.size >= MAX_CANDIDATES) {
      const strays = [...this.candidates.entries()].filter(([, c]) => c !== this.leader)
      const [fewest] = strays.sort(([, a], [, b]) => a.seen.size - b.seen.size)
      if (fewest !== undefined) this.candidates.delete(fewest[0])
    }
    const candidate = { id, decoder: new FountainDecoder(), seen: new Set<string>() }
    this.candidates.set(key, candidate)
    return candidate
  }
}

/** Desk's own payloads: review bundles and witnesses. */
const DESK_READING: UrReading<QrPayloadKind, QrPayload> = {
  kindOf: (type) => (type === UR_TYPES.bundle ? 'bundle' : type === UR_TYPES.witness ? 'witness' : undefined),
  describe: (kind) => (kind === 'bundle' ? 'review bundle' : 'witness'),
  notOurs: (type) =>
    `This QR code carries a "${type}", not a Marlowe Desk review bundle or witness (ur:${UR_TYPES.bundle} or ur:${UR_TYPES.witness})`,
  read: readPayload
}

/** Reads Desk's own QR sequences: a review bundle or a witness. */
export class QrReceiver extends UrReceiver<QrPayloadKind, QrPayload> {
  constructor() {
    super(DESK_READING)
  }
}

function parseFrame(frame: string): { type: string; components: readonly string[] } {
  if (frame.length > MAX_PART_CHARS)
    throw qrError('QrNotOurs', `This QR code is too long to be a frame of Marlowe Desk`)
  let type: string
  let components: string[]
  try {
    ;[type, components] = URDecoder.parse(frame)
  } catch {
    throw qrError('QrNotOurs', 'This QR code is not a UR frame (it does not start with "ur:")')
  }
  if (components.length > 2) throw qrError('QrNotOurs', 'This QR code is not a UR frame (too many path components)')
  return { type, components }
}

function bodyBytes(body: string): Buffer {
  try {
    return Buffer.from(bytewords.decode(body, bytewords.STYLES.MINIMAL), 'hex')
  } catch {
    throw qrError(
      'QrFrameDamaged',
      'This frame is damaged (its checksum does not match what it carries): it was skipped; keep the camera steady.'
    )
  }
}

function fountainPart(components: readonly string[]): FountainEncoderPart {
  const [seqNum, seqLength] = (/^(\d{1,10})-(\d{1,10})$/.exec(components[0]!) ?? []).slice(1).map(Number)
  if (seqNum === undefined || seqLength === undefined || seqNum < 1 || seqLength < 1) {
    throw qrError('QrNotOurs', `This QR code is not a UR frame (bad sequence "${components[0]}")`)
  }
  if (seqLength > MAX_FRAGMENTS) {
    throw qrError('QrTooLarge', `This sequence has ${seqLength} fragments; at most ${MAX_FRAGMENTS} are read`)
  }
  let part: FountainEncoderPart
  const cbor = bodyBytes(components[1]!)
  try {
    part = FountainEncoderPart.fromCBOR(cbor)
  } catch {
    throw qrError('QrFrameDamaged', 'This frame is damaged (its content is not a fountain-coded part)')
  }
  if (part.seqNum !== seqNum || part.seqLength !== seqLength) {
    throw qrError('QrFrameDamaged', 'This frame is damaged (its header and content disagree)')
  }
  if (part.messageLength < 1 || part.messageLength > MAX_PAYLOAD_BYTES) {
    throw qrError(
      'QrTooLarge',
      `This sequence's payload is ${part.messageLength} bytes; at most ${MAX_PAYLOAD_BYTES} are read`
    )
  }
  return part
}

/** The reassembled payload, read and verified as the file path reads a bundle or a witness file. */
function readPayload(kind: QrPayloadKind, cbor: Buffer): QrPayload {
  const bad = (why: string): EngineError =>
    qrError('QrPayloadInvalid', `The scanned ${DESK_READING.describe(kind)} ${why}`)
  let decoded: unknown
  try {
    decoded = cborDecode(cbor)
  } catch {
    throw bad('is not CBOR')
  }
  if (!Array.isArray(decoded) || decoded.length !== 3) throw bad('is not a Marlowe Desk QR payload')
  const [version, txIdBytes, deflated] = decoded as unknown[]
  if (version !== PAYLOAD_VERSION) throw bad(`has version ${String(version)}; this Desk reads ${PAYLOAD_VERSION}`)
  if (!(txIdBytes instanceof Uint8Array) || txIdBytes.length !== 32) throw bad('names no transaction id')
  const txId = bytesToHex(txIdBytes)
  if (!(deflated instanceof Uint8Array)) throw bad('holds no file')
  let bytes: Uint8Array
  try {
    bytes = inflateRawSync(deflated, { maxOutputLength: MAX_FILE_BYTES })
  } catch {
    throw bad(`holds a file that does not inflate (or exceeds ${MAX_FILE_BYTES} bytes)`)
  }
  const text = utf8DecodeStrict(bytes)
  if (text === undefined) throw bad('holds a file that is not UTF-8 text')
  return checkQrPayload({ kind, txId, text })
}

/** `payload` as the file path reads it: a review bundle of transaction `txId`, or a witness file; else refused. */
export function checkQrPayload(payload: QrPayload): QrPayload {
  const { kind, txId, text } = payload
  if (kind === 'bundle') {
    if (!isReviewBundle(text)) throw qrError('QrPayloadInvalid', 'The file is not a review bundle')
    const loaded = readLoaded(new TextEncoder().encode(text))
    if (loaded.txId !== txId) {
      throw qrError('QrPayloadInvalid', `The review bundle is for transaction ${loaded.txId}, not ${txId}`)
    }
  } else {
    readWitnessFile(new TextEncoder().encode(text), 'the witness')
  }
  return payload
}
