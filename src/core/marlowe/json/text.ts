/** Checks on the text and hex fields of the JSON form. */
export { utf8Length } from '../../bytes'

const HEX = /^(?:[0-9a-fA-F]{2})*$/

export function isHex(s: string): boolean {
  return HEX.test(s)
}

/** Ledger asset names (token and role names) are at most 32 bytes. */
export const MAX_ASSET_NAME_BYTES = 32
