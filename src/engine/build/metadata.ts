/**
 * Transaction metadata as Runtime writes it (runtime-api.md §9.1): user metadata converted from JSON with
 * cardano-api's "no schema" mapping, Marlowe tags under label 1564, role-token NFT metadata under 721.
 */
import type { JsonValue } from '../../core/json/lossless'
import { hexToBytes } from '../../core/bytes'
import {
  chunkText,
  compareCodePoints,
  compareHex,
  MetadataError,
  metadataText,
  metadatumFromJson as coreMetadatumFromJson,
  transactionMetadataFromJson as coreTransactionMetadataFromJson,
  type Metadatum,
  type MetadatumMap
} from '../../core/cardano/metadata'
import { badRequest } from './build-errors'

export {
  chunkText,
  compareCodePoints,
  MARLOWE_LABEL,
  NFT_LABEL,
  type Metadatum,
  type MetadatumMap,
  type TransactionMetadata
} from '../../core/cardano/metadata'

/** The core conversion with its errors as the builder's 400s. */
function asBadRequest<T>(convert: () => T): T {
  try {
    return convert()
  } catch (e) {
    if (e instanceof MetadataError) throw badRequest(e.message, e.details)
    throw e
  }
}

export function metadatumFromJson(v: JsonValue, path: string): Metadatum {
  return asBadRequest(() => coreMetadatumFromJson(v, path))
}

function textOf(s: string, path: string): string {
  return asBadRequest(() => metadataText(s, path))
}

export function transactionMetadataFromJson(json: Readonly<Record<string, JsonValue>>): Map<bigint, Metadatum> {
  return asBadRequest(() => coreTransactionMetadataFromJson(json))
}

/** Tags under label 1564 in Runtime's version-2 format: `[2, [[tag] | [tag, payload], …]]`, ordered by tag. */
export function marloweTagsMetadatum(tags: Readonly<Record<string, JsonValue>>): Metadatum | undefined {
  const names = Object.keys(tags).sort(compareCodePoints)
  if (names.length === 0) return undefined
  const entries = names.map((tag): Metadatum => {
    const chunks = chunkText(tag)
    const encoded: Metadatum = chunks.length === 1 ? chunks[0]! : chunks
    const payload = tags[tag] ?? null
    return payload === null ? [encoded] : [encoded, metadatumFromJson(payload, `tags.${tag}`)]
  })
  return [2n, entries]
}

export interface RoleTokenFile {
  readonly name: string
  readonly mediaType: string
  readonly src: string
  readonly extra?: Readonly<Record<string, JsonValue>>
}

/** CIP-25 metadata of a minted role token (Runtime's `RoleTokenMetadata`). */
export interface RoleTokenMetadata {
  readonly name: string
  /** URI */
  readonly image: string
  readonly mediaType?: string
  readonly description?: string
  readonly files?: readonly RoleTokenFile[]
  readonly extra?: Readonly<Record<string, JsonValue>>
}

function extraEntries(extra: Readonly<Record<string, JsonValue>> | undefined, path: string) {
  if (extra === undefined) return []
  return Object.keys(extra)
    .sort(compareCodePoints)
    .map((k) => [textOf(k, `${path}.${k}`), metadatumFromJson(extra[k] as JsonValue, `${path}.${k}`)] as const)
}

function fileMetadatum(file: RoleTokenFile, path: string): Metadatum {
  return {
    map: [
      ['name', textOf(file.name, `${path}.name`)],
      ['mediaType', textOf(file.mediaType, `${path}.mediaType`)],
      ['src', chunkText(file.src)],
      ...extraEntries(file.extra, path)
    ]
  }
}

/** Runtime's `encodeRoleTokenMetadata`: long texts as 64-character chunk lists, one file as a bare map. */
export function roleTokenMetadatum(m: RoleTokenMetadata, path: string): Metadatum {
  const entries: (readonly [Metadatum, Metadatum])[] = [
    ['name', textOf(m.name, `${path}.name`)],
    ['image', chunkText(m.image)]
  ]
  if (m.mediaType !== undefined) entries.push(['mediaType', textOf(m.mediaType, `${path}.mediaType`)])
  if (m.description !== undefined) entries.push(['description', chunkText(m.description)])
  const files = m.files ?? []
  if (files.length === 1) entries.push(['files', fileMetadatum(files[0]!, `${path}.files[0]`)])
  else if (files.length > 1) entries.push(['files', files.map((f, i) => fileMetadatum(f, `${path}.files[${i}]`))])
  entries.push(...extraEntries(m.extra, path))
  return { map: entries }
}

/** Label 721 for minted roles: `{ policyId: { roleName: metadata } }`, keys as raw bytes (CIP-25 v2). */
export function nftMetadatum(
  policyId: string,
  roles: ReadonlyArray<{ readonly nameHex: string; readonly metadata: RoleTokenMetadata }>
): Metadatum | undefined {
  if (roles.length === 0) return undefined
  const sorted = [...roles].sort((a, b) => compareHex(a.nameHex, b.nameHex))
  const inner: MetadatumMap = {
    map: sorted.map((r) => [hexToBytes(r.nameHex), roleTokenMetadatum(r.metadata, `roles.${r.nameHex}.metadata`)])
  }
  return { map: [[hexToBytes(policyId), inner]] }
}
