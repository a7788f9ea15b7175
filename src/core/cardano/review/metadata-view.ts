/**
 * Transaction metadata for display: every label as lossless detailed schema and as cardano-cli's "no schema"
 * JSON, plus readings of the labels a Marlowe user meets — 1564 (Marlowe Runtime tags), 721 (CIP-25 NFTs, how
 * Runtime names role tokens) and 674 (CIP-20 messages). A label whose shape does not fit is simply not read.
 */
import { bytesToHex, utf8Encode } from '../../bytes'
import { newJsonObject, setJsonKey, type JsonValue } from '../../json/lossless'
import type { DecodedAuxData, Metadatum } from '../tx'
import type { Cip25AssetView, MarloweTagView, MetadataView } from './types'
import { opt } from './optional'
import { assetNameText } from '../asset-name'

const LABEL_MARLOWE = 1564n
const LABEL_CIP25 = 721n
const LABEL_CIP20 = 674n

export function metadataView(aux: DecodedAuxData, declaredHash: string | undefined): MetadataView {
  const entries = aux.metadata.map((e) => ({ label: e.label, value: e.value, json: noSchemaJson(e.value) }))
  const find = (label: bigint): Metadatum | undefined => aux.metadata.find((e) => e.label === label)?.value
  const marlowe = mapDefined(find(LABEL_MARLOWE), marloweTags)
  const cip25 = mapDefined(find(LABEL_CIP25), cip25Assets)
  const messages = mapDefined(find(LABEL_CIP20), cip20Messages)
  return {
    format: aux.format,
    ...opt('declaredHash', declaredHash),
    computedHash: aux.hash,
    entries,
    ...opt('marlowe', marlowe),
    ...opt('cip25', cip25),
    ...opt('messages', messages),
    scriptCount: BigInt(aux.scripts.length)
  }
}

function mapDefined<T>(value: Metadatum | undefined, read: (m: Metadatum) => T | undefined): T | undefined {
  return value === undefined ? undefined : read(value)
}

/** cardano-cli's no-schema form: bytes as `0x…` text; maps with text or integer keys as objects. */
function noSchemaJson(m: Metadatum): JsonValue {
  if ('int' in m) return m.int
  if ('string' in m) return m.string
  if ('bytes' in m) return `0x${m.bytes}`
  if ('list' in m) return m.list.map(noSchemaJson)
  const simpleKeys = m.map.every(({ k }) => 'string' in k || 'int' in k)
  if (!simpleKeys) return m.map.map(({ k, v }) => [noSchemaJson(k), noSchemaJson(v)])
  const out = newJsonObject()
  for (const { k, v } of m.map)
    setJsonKey(out, 'string' in k ? k.string : String('int' in k ? k.int : ''), noSchemaJson(v))
  return out
}

/**
 * Runtime's `[version, [[tag] / [tag, payload] …], ?continuations]`, each tag text or a list of text chunks;
 * version 1 also allows a bare text tag. In version 2 every entry is a list, so `[text, text]` is a tag with a
 * payload, never a tag in two chunks.
 */
function marloweTags(m: Metadatum): MetadataView['marlowe'] {
  if (!('list' in m)) return undefined
  const [version, tagList, continuations] = m.list
  if (version === undefined || !('int' in version) || tagList === undefined || !('list' in tagList)) return undefined
  const tags: MarloweTagView[] = []
  for (const entry of tagList.list) {
    if (version.int === 1n && 'string' in entry) {
      tags.push({ tag: entry.string })
      continue
    }
    if (!('list' in entry)) return undefined
    const [tagPart, payload, ...rest] = entry.list
    const tag = tagPart === undefined ? undefined : chunkedText(tagPart)
    if (tag === undefined || rest.length > 0) return undefined
    tags.push(payload === undefined ? { tag } : { tag, payload: noSchemaJson(payload) })
  }
  const uri = continuations === undefined ? undefined : chunkedText(continuations)
  return uri === undefined ? { version: version.int, tags } : { version: version.int, tags, continuations: uri }
}

/** Text, or text over 64 bytes split into a list of chunks. */
function chunkedText(m: Metadatum): string | undefined {
  if ('string' in m) return m.string
  if (!('list' in m) || m.list.length === 0) return undefined
  let text = ''
  for (const part of m.list) {
    if (!('string' in part)) return undefined
    text += part.string
  }
  return text
}

/** `{policy: {asset: {name, image, mediaType?, description?, …}}, version?}` with text (v1) or byte (v2) keys. */
function cip25Assets(m: Metadatum): Cip25AssetView[] | undefined {
  if (!('map' in m)) return undefined
  const assets: Cip25AssetView[] = []
  for (const { k: policyKey, v: byAsset } of m.map) {
    const policyId =
      'bytes' in policyKey ? policyKey.bytes : 'string' in policyKey ? policyKey.string.toLowerCase() : undefined
    if (policyId === undefined || policyId === 'version' || !('map' in byAsset)) continue
    for (const { k: assetKey, v: details } of byAsset.map) {
      const assetName =
        'bytes' in assetKey ? assetKey.bytes : 'string' in assetKey ? textHex(assetKey.string) : undefined
      if (assetName === undefined || !('map' in details)) continue
      const field = (name: string): string | undefined => {
        const value = details.map.find(({ k }) => 'string' in k && k.string === name)?.v
        return value === undefined ? undefined : chunkedText(value)
      }
      assets.push({
        policyId,
        assetName,
        ...opt('assetNameText', assetNameText(assetName)),
        ...opt('name', field('name')),
        ...opt('image', field('image')),
        ...opt('mediaType', field('mediaType')),
        ...opt('description', field('description'))
      })
    }
  }
  return assets
}

/** CIP-20: `{"msg": [text, …]}`. */
function cip20Messages(m: Metadatum): string[] | undefined {
  if (!('map' in m)) return undefined
  const msg = m.map.find(({ k }) => 'string' in k && k.string === 'msg')?.v
  if (msg === undefined) return undefined
  if ('string' in msg) return [msg.string]
  if (!('list' in msg)) return undefined
  return msg.list.flatMap((line) => ('string' in line ? [line.string] : []))
}

function textHex(text: string): string | undefined {
  const bytes = utf8Encode(text)
  return bytes === undefined ? undefined : bytesToHex(bytes)
}
