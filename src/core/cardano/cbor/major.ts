/** CBOR major types (RFC 8949 §3.1): the top three bits of an item's initial byte. */
export const MAJOR_UINT = 0
export const MAJOR_NEGINT = 1
export const MAJOR_BYTES = 2
export const MAJOR_TEXT = 3
export const MAJOR_ARRAY = 4
export const MAJOR_MAP = 5
export const MAJOR_TAG = 6
