/**
 * `marlowe-desk tx qr-show` / `tx qr-read`: review bundles and witnesses carried between machines as animated QR
 * codes in a terminal, the same UR sequences the desktop app shows and scans (../../engine/qr-transfer), so
 * either end can be the app or the CLI. A recorded sequence is its frames' text, one per line.
 */
import QRCode from 'qrcode'
import { EngineError } from '../../engine/errors'
import { isReviewBundle, readLoaded } from '../../engine/offline-tx'
import { encodeQrSequence, QrReceiver, checkQrPayload, type QrPayload } from '../../engine/qr-transfer'
import { readWitnessFile, verifyWitness } from '../../engine/sign'
import { expectPositionals, parseOptions, type Command, type Output } from '../command'
import { CliError, usageError } from '../errors'
import { readTextFile, writeNew } from '../files'

/** A webcam or phone camera reads a frame of QR_FRAGMENT_BYTES comfortably at this rate (issue 16: ~10/s). */
const FRAME_MS = 100
/** Home the cursor and clear the screen: each frame replaces the last. */
const CLEAR = '\x1b[H\x1b[2J'

const kindName = (kind: QrPayload['kind']): string => (kind === 'bundle' ? 'review bundle' : 'witness')

/** A file as the QR payload it travels as: a bundle names its own transaction; a witness, the one it signs. */
function payloadOf(path: string, txPath: string | undefined): QrPayload {
  const text = readTextFile(path)
  const bytes = new TextEncoder().encode(text)
  if (isReviewBundle(text)) {
    if (txPath !== undefined) throw usageError('tx qr-show: --tx is for witness files; a review bundle names its own')
    return checkQrPayload({ kind: 'bundle', txId: readLoaded(bytes).txId, text })
  }
  if (txPath === undefined) {
    throw usageError(
      `tx qr-show: ${path} is not a review bundle; for a witness, give --tx with the transaction it signs`
    )
  }
  const witnesses = readWitnessFile(bytes, path)
  const { tx, txId } = readLoaded(new TextEncoder().encode(readTextFile(txPath)))
  if (!witnesses.every((w) => verifyWitness(tx, w))) {
    throw new CliError(`${path} does not sign transaction ${txId} (${txPath}): it was made for another one`)
  }
  return checkQrPayload({ kind: 'witness', txId, text })
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/** Shows the frames in place at FRAME_MS each, `loops` times or until Ctrl-C; one frame is shown once. */
async function animate(io: Output, parts: readonly string[], loops: number | undefined, what: string): Promise<void> {
  const frames = await Promise.all(
    parts.map((p) => QRCode.toString(p, { type: 'terminal', small: true, errorCorrectionLevel: 'L' }))
  )
  if (frames.length === 1) {
    io.out(`${frames[0]}\n${what}: one frame`)
    return
  }
  let stopped = false
  const stop = (): void => {
    stopped = true
  }
  process.once('SIGINT', stop)
  try {
    for (let loop = 0; !stopped && (loops === undefined || loop < loops); loop++) {
      for (let i = 0; i < frames.length && !stopped; i++) {
        io.out(`${CLEAR}${frames[i]}\n${what}: frame ${i + 1} of ${frames.length} — Ctrl-C stops`)
        await sleep(FRAME_MS)
      }
    }
  } finally {
    process.off('SIGINT', stop)
  }
}

const qrShow: Command = {
  name: 'tx qr-show',
  summary: 'show a review bundle or witness as animated QR codes, or write their frames (offline)',
  help: `Usage: marlowe-desk tx qr-show FILE [--tx TX] [--ur] [--loops N]

Shows FILE — a review bundle (tx bundle), or a witness file (tx sign --witness-only) with --tx naming the
transaction or bundle it signs — as the animated QR sequence the Desk app scans: UR frames with fountain codes,
10 a second, in place in this terminal, until Ctrl-C (or N loops). A witness usually fits one still frame.
--ur writes the frames' text instead, one per line: a recorded sequence for "tx qr-read".`,
  async run(args, io) {
    const { values, positionals } = parseOptions(this.name, args, {
      tx: { type: 'string' },
      ur: { type: 'boolean' },
      loops: { type: 'string' }
    })
    const [file] = expectPositionals(this.name, positionals, ['file'])
    const loops = values.loops === undefined ? undefined : Number(values.loops)
    if (loops !== undefined && !(Number.isSafeInteger(loops) && loops >= 1)) {
      throw usageError(`${this.name}: --loops must be a whole number from 1, not "${values.loops}"`)
    }
    const payload = payloadOf(file!, values.tx)
    const { parts } = encodeQrSequence(payload)
    if (values.ur === true) {
      io.out(parts.join('\n'))
      return
    }
    if (process.stdout.isTTY !== true) {
      throw usageError(`${this.name}: the output is not a terminal: give --ur to write the frames' text, one per line`)
    }
    await animate(io, parts, loops, `${kindName(payload.kind)} of ${payload.txId}`)
  }
}

/** The lines of a recording that hold a frame, with their line numbers. */
function recordedFrames(text: string): { line: number; frame: string }[] {
  return text.split(/\r?\n/).flatMap((l, i) => (l.trim() === '' ? [] : [{ line: i + 1, frame: l.trim() }]))
}

const qrRead: Command = {
  name: 'tx qr-read',
  summary: 'rebuild a review bundle or witness from a recorded QR sequence (offline)',
  help: `Usage: marlowe-desk tx qr-read FRAMES --out FILE

FRAMES is a recorded QR sequence: the frames' text (ur:marlowe-desk-…), one per line, in any order, with frames
missing — the fountain codes rebuild the file from enough of them. A frame of another sequence, or a damaged or
altered one, is refused by its line, and nothing is written. The file rebuilt is checked as "tx review" and
"tx assemble" check a file (a bundle's transaction id, a witness's encoding), then written to FILE.`,
  async run(args, io) {
    const { values, positionals } = parseOptions(this.name, args, { out: { type: 'string' } })
    const [file] = expectPositionals(this.name, positionals, ['frames'])
    if (values.out === undefined) throw usageError(`${this.name}: --out is required`)
    const frames = recordedFrames(readTextFile(file!))
    if (frames.length === 0) throw new CliError(`${file!}: no frames (one ur:… line per frame expected)`)
    const receiver = new QrReceiver()
    let read = 0
    for (const { line, frame } of frames) {
      if (receiver.result() !== undefined) break
      try {
        receiver.receive(frame)
      } catch (e) {
        if (e instanceof EngineError) throw new CliError(`${file!}, line ${line}: ${e.message} (${e.code})`)
        throw e
      }
      read++
    }
    const payload = receiver.result()
    if (payload === undefined) {
      const { received, expected, percent, kind } = receiver.progress()
      throw new CliError(
        `${file!}: the ${received} frame(s) recorded are not enough to rebuild the ${kind === undefined ? 'file' : kindName(kind)} ` +
          `(${percent}% of ${expected} fragments): record the sequence for longer`
      )
    }
    writeNew(values.out, payload.text)
    io.out(`wrote ${values.out}: the ${kindName(payload.kind)} of transaction ${payload.txId} (from ${read} frame(s))`)
  }
}

export const qrCommands: readonly Command[] = [qrShow, qrRead]
