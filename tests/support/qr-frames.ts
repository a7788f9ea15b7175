/**
 * A frame of a UR sequence altered the way a forger would: its fragment changed and the frame re-encoded with a
 * valid checksum of its own, so only the sequence's checksum of the whole payload can tell.
 */
import bytewords from '@ngraveio/bc-ur/dist/bytewords'
import { FountainEncoderPart } from '@ngraveio/bc-ur/dist/fountainEncoder'

export function alteredFrame(part: string): string {
  const [, type, seq, body] = /^ur:([^/]+)\/([^/]+)\/(.+)$/.exec(part.toLowerCase())!
  const p = FountainEncoderPart.fromCBOR(Buffer.from(bytewords.decode(body!, bytewords.STYLES.MINIMAL), 'hex'))
  const fragment = Buffer.from(p.fragment)
  fragment[0] = fragment[0]! ^ 0xff
  const forged = new FountainEncoderPart(p.seqNum, p.seqLength, p.messageLength, p.checksum, fragment)
  return `ur:${type}/${seq}/${bytewords.encode(forged.cbor().toString('hex'), bytewords.STYLES.MINIMAL)}`
}
