/** Asset names as people read them: the one place that decides when a name's bytes may be shown as text. */
import { hexToBytes, utf8DecodeStrict } from '../bytes'

/** Control and bidi-override characters make names that can impersonate others; such names get no text form. */
const UNSAFE_TEXT = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/
const HEX_NAME = /^(?:[0-9a-f]{2}){0,32}$/

/** An asset name (hex, 0–32 bytes) as text when it is safe, printable UTF-8; else undefined (show the hex). */
export function assetNameText(assetName: string): string | undefined {
  if (!HEX_NAME.test(assetName)) return undefined
  const text = utf8DecodeStrict(hexToBytes(assetName))
  return text === undefined || UNSAFE_TEXT.test(text) ? undefined : text
}
