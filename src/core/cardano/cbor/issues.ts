/**
 * Encoding choices a reader notices while decoding: valid CBOR, but not the canonical form (CIP-21, RFC 7049
 * §3.9) hardware wallets require, or duplicates the ledger rejects in most maps and sets.
 */
export type EncodingIssueKind =
  'non-shortest-head' | 'indefinite-length' | 'unsorted-map-keys' | 'duplicate-map-key' | 'duplicate-set-element'

export interface EncodingIssue {
  readonly kind: EncodingIssueKind
  readonly offset: number
}

/** Examples kept per kind: enough to point at the problem without letting hostile input grow the list. */
const MAX_RECORDED_PER_KIND = 16

export class EncodingIssueLog {
  readonly recorded: EncodingIssue[] = []
  readonly counts: Record<EncodingIssueKind, number> = {
    'non-shortest-head': 0,
    'indefinite-length': 0,
    'unsorted-map-keys': 0,
    'duplicate-map-key': 0,
    'duplicate-set-element': 0
  }

  record(kind: EncodingIssueKind, offset: number): void {
    this.counts[kind] += 1
    if (this.counts[kind] <= MAX_RECORDED_PER_KIND) this.recorded.push({ kind, offset })
  }
}
