/** A safe CBOR reader for untrusted bytes: items with byte offsets, encoding issues, one error type. */
export { CborError } from './error'
export type { CborArray, CborBytes, CborFloat, CborInt, CborItem, CborMap, CborSimple, CborTag, CborText } from './item'
export { EncodingIssueLog, type EncodingIssue, type EncodingIssueKind } from './issues'
export { CborReader, DEFAULT_MAX_BIGNUM_BYTES, compareCanonical, decodeCbor, type CborReaderOptions } from './reader'
export { encodeByteString, encodeHead, encodeInt, headLength } from './writer'
export { MAJOR_ARRAY, MAJOR_MAP, MAJOR_TAG, MAJOR_BYTES, MAJOR_NEGINT, MAJOR_UINT, MAJOR_TEXT } from './major'
