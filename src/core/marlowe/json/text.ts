/** Checks on the text and hex fields of the JSON form. */

/** UTF-8 byte length of a string, or -1 when it holds a lone surrogate (it has no UTF-8 form). */
export function utf8Length(s: string): number {
  let n = 0
  for (let i = 0; i < s.length; i += 1) {
    const c = s.charCodeAt(i)
    if (c < 0x80) n += 1
    else if (c < 0x800) n += 2
    else if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1)
      if (!(d >= 0xdc00 && d <= 0xdfff)) return -1
      n += 4
      i += 1
    } else if (c >= 0xdc00 && c <= 0xdfff) return -1
    else n += 3
  }
  return n
}

const HEX = /^(?:[0-9a-fA-F]{2})*$/

export function isHex(s: string): boolean {
  return HEX.test(s)
}

/** Ledger asset names (token and role names) are at most 32 bytes. */
export const MAX_ASSET_NAME_BYTES = 32
