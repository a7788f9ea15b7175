/**
 * Blockfrost outputs → `Utxo`, completing what an output only names: a datum hash is resolved to the datum
 * (`/scripts/datum/{hash}/cbor`) and a reference script hash to the script (`/scripts/{hash}` and its CBOR or
 * JSON). Both are checked against their hashes, and kept: what a hash names never changes.
 */
import { hexToBytes } from '../../core/bytes'
import { blake2b256Hex } from '../../core/cardano/tx'
import type { JsonObject, JsonValue } from '../../core/json/lossless'
import type { ScriptRef, Utxo } from '../provider'
import { toValue } from './convert'
import type { BlockfrostHttp } from './http'
import { nativeScriptFromJson, SCRIPT_TYPES, scriptBytesMatching } from './scripts'
import { asHex, asHexBytes, asObject, asSmallNatural, asString, badResponse, get, optional } from './shape'

/** A map that forgets its oldest entries beyond `limit`. */
class BoundedCache<V> {
  private readonly entries = new Map<string, V>()

  constructor(private readonly limit: number) {}

  get(key: string): V | undefined {
    return this.entries.get(key)
  }

  set(key: string, value: V): void {
    this.entries.delete(key)
    this.entries.set(key, value)
    if (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value as string)
  }

  delete(key: string): void {
    this.entries.delete(key)
  }
}

export class UtxoReader {
  private readonly datums = new BoundedCache<Uint8Array>(1024)
  /** Promises, so concurrent outputs with the same script fetch it once. */
  private readonly scripts = new BoundedCache<Promise<ScriptRef>>(128)

  constructor(private readonly http: BlockfrostHttp) {}

  /**
   * An item of `GET /addresses/{a}/utxos` (which names its tx) or an output of `GET /txs/{h}/utxos` (pass `txId`).
   * `known.address` stands in when the item has no `address` field.
   */
  async toUtxo(
    json: JsonValue,
    what: string,
    known: { readonly txId?: string; readonly address?: string } = {}
  ): Promise<Utxo> {
    const o = asObject(json, what)
    const ref = {
      txId: known.txId ?? asHex(get(o, 'tx_hash'), `${what}.tx_hash`, 32),
      index: asSmallNatural(get(o, 'output_index'), `${what}.output_index`)
    }
    const addressField = get(o, 'address')
    const [datumPart, scriptRef] = await Promise.all([this.datumPart(o, what), this.scriptRef(o, what)])
    return {
      ref,
      address:
        addressField === undefined && known.address !== undefined
          ? known.address
          : asString(addressField, `${what}.address`),
      value: toValue(get(o, 'amount'), `${what}.amount`),
      ...datumPart,
      ...(scriptRef === undefined ? {} : { scriptRef })
    }
  }

  /** Inline datums carry their CBOR (Blockfrost also fills `data_hash` for them: that is not a datum-hash output). */
  private async datumPart(o: JsonObject, what: string): Promise<Pick<Utxo, 'datum' | 'datumHash'>> {
    const inline = optional(o, 'inline_datum')
    if (inline !== undefined) return { datum: asHexBytes(inline, `${what}.inline_datum`) }
    const hashField = optional(o, 'data_hash')
    if (hashField === undefined) return {}
    const datumHash = asHex(hashField, `${what}.data_hash`, 32)
    const datum = await this.datum(datumHash)
    return datum === undefined ? { datumHash } : { datumHash, datum }
  }

  /** A datum by hash, or undefined when no transaction has revealed it yet (not cached: it may appear later). */
  private async datum(hash: string): Promise<Uint8Array | undefined> {
    const known = this.datums.get(hash)
    if (known !== undefined) return known
    const json = await this.http.getJsonOrMissing(`/scripts/datum/${hash}/cbor`)
    if (json === undefined) return undefined
    const what = `scripts/datum/${hash}/cbor`
    const cbor = asHex(get(asObject(json, what), 'cbor'), `${what}.cbor`)
    if (blake2b256Hex(hexToBytes(cbor)) !== hash) throw badResponse(what, `the datum served does not hash to ${hash}`)
    const datum = hexToBytes(cbor)
    this.datums.set(hash, datum)
    return datum
  }

  private scriptRef(o: JsonObject, what: string): Promise<ScriptRef | undefined> {
    const field = optional(o, 'reference_script_hash')
    if (field === undefined) return Promise.resolve(undefined)
    const hash = asHex(field, `${what}.reference_script_hash`, 28)
    const known = this.scripts.get(hash)
    if (known !== undefined) return known
    const pending = this.fetchScript(hash)
    this.scripts.set(hash, pending)
    pending.catch(() => this.scripts.delete(hash))
    return pending
  }

  private async fetchScript(hash: string): Promise<ScriptRef> {
    const what = `scripts/${hash}`
    const info = await this.http.getJsonOrMissing(`/scripts/${hash}`)
    if (info === undefined) throw badResponse(what, 'an output names this reference script, but it is not known')
    const type = asString(get(asObject(info, what), 'type'), `${what}.type`)
    const language = SCRIPT_TYPES[type]
    if (language === undefined) throw badResponse(`${what}.type`, `unknown script type ${JSON.stringify(type)}`)
    const cborJson = asObject(await this.http.getJson(`/scripts/${hash}/cbor`), `${what}/cbor`)
    const cbor = optional(cborJson, 'cbor')
    if (cbor !== undefined) {
      return {
        language,
        bytes: scriptBytesMatching(asHexBytes(cbor, `${what}/cbor.cbor`), language, hash, `${what}/cbor`)
      }
    }
    // Blockfrost serves no CBOR for timelocks: only their cardano-cli JSON.
    if (language !== 'Native') throw badResponse(`${what}/cbor`, `no CBOR for a ${language} script`)
    const json = asObject(await this.http.getJson(`/scripts/${hash}/json`), `${what}/json`)
    return { language, bytes: nativeScriptFromJson(get(json, 'json'), hash, `${what}/json.json`) }
  }
}
