/** How the transaction is encoded: set tagging and the non-canonical choices and duplicates the reader logged. */
import type { EncodingIssueKind } from '../cbor'
import type { DecodedTx } from '../tx'
import type { EncodingView } from './types'

type Region = EncodingView['issues'][number]['regions'][number]

const KINDS: readonly EncodingIssueKind[] = [
  'duplicate-map-key',
  'duplicate-set-element',
  'non-shortest-head',
  'indefinite-length',
  'unsorted-map-keys'
]

export function regionOf(tx: DecodedTx, offset: number): Region {
  const within = (range: { start: number; end: number } | undefined): boolean =>
    range !== undefined && offset >= range.start && offset < range.end
  if (within(tx.bodyRange)) return 'body'
  if (within(tx.auxDataRange)) return 'auxiliary-data'
  if (offset >= tx.bodyRange.end && offset < tx.bodyRange.end + tx.witnessSetBytes.length) return 'witness-set'
  return 'transaction'
}

export function encodingView(tx: DecodedTx): EncodingView {
  const { tagged, untagged } = tx.setTags
  const setTags = tagged === 0 && untagged === 0 ? 'no-sets' : untagged === 0 ? 'all' : tagged === 0 ? 'none' : 'mixed'
  const issues: Array<EncodingView['issues'][number]> = []
  for (const kind of KINDS) {
    const count = tx.issues.counts[kind]
    if (count === 0) continue
    const offsets = tx.issues.recorded.filter((i) => i.kind === kind).map((i) => i.offset)
    const regions = [...new Set(offsets.map((o) => regionOf(tx, o)))]
    issues.push({ kind, count: BigInt(count), offsets: offsets.map(BigInt), regions })
  }
  const format = tx.witnessSet.redeemerFormat
  return { setTags, issues, ...(format === undefined ? {} : { redeemerFormat: format }) }
}
