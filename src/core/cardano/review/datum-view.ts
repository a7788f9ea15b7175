/**
 * Datums for display: Marlowe datums (MarloweData, payout datums) decoded into Runtime JSON, anything else in
 * the detailed schema. Decoding is memoised by hash: a Marlowe datum can be named by an input, an output and
 * the witness set at once.
 */
import { bytesToHex } from '../../bytes'
import { encodeMarloweData, type EncodedWhens } from '../../marlowe/json'
import { PlutusDataError, decodePlutusData, skipPlutusDataItem } from '../../marlowe/plutus/data'
import {
  DecodedContracts,
  PlutusDecodeError,
  probeMarloweData,
  probePayoutDatum
} from '../../marlowe/plutus/marlowe-data'
import { nextTimeout } from '../../marlowe/timeouts'
import type { MarloweData } from '../../marlowe/types'
import { blake2b256Hex, type DecodedDatum } from '../tx'
import type { ReviewEnv } from './env'
import { plutusDataJson } from './plutus-json'
import type { DatumContent, DatumView, MarloweScriptName, ResolvedOutput } from './types'

export class DatumDecoder {
  private readonly contents = new Map<string, DatumContent>()
  private readonly marlowe = new Map<string, MarloweData | undefined>()
  private readonly hex = new Map<string, string>()
  /** A continuing datum's contract is found among the spent datum's (inputs are decoded before outputs). */
  private readonly contracts = new DecodedContracts()
  /** …and its JSON is the same part of the spent datum's. */
  private readonly whens: EncodedWhens = new Map()

  constructor(private readonly env: ReviewEnv) {}

  /** The datum (its bytes, whose hash is `hash`) as MarloweData, or undefined when it is not one. */
  marloweData(hash: string, bytes: Uint8Array): MarloweData | undefined {
    if (!this.marlowe.has(hash)) this.marlowe.set(hash, probeMarloweData(bytes, this.contracts))
    return this.marlowe.get(hash)
  }

  /** What the datum holds; its bytes must be Plutus Data (the transaction decoder checked its own). */
  content(hash: string, bytes: Uint8Array, scriptName?: MarloweScriptName): DatumContent {
    const key = scriptName === 'marlowe-payout' ? `payout:${hash}` : hash
    const cached = this.contents.get(key)
    if (cached !== undefined) return cached
    const content = this.decode(hash, bytes, scriptName)
    this.contents.set(key, content)
    return content
  }

  /** An output's datum: inline, or by hash with the bytes from the witness set when it has them. */
  outputDatum(datum: DecodedDatum | undefined, scriptName: MarloweScriptName | undefined): DatumView | undefined {
    if (datum === undefined) return undefined
    if (datum.kind === 'inline') {
      return {
        form: 'inline',
        hash: datum.hash,
        source: 'inline',
        bytes: this.bytesHex(datum.hash, datum.bytes),
        content: this.content(datum.hash, datum.bytes, scriptName)
      }
    }
    return this.byHash(datum.hash, scriptName)
  }

  /** A resolved output's datum: for a hash, the witness set's copy first (the ledger needs it there). */
  resolvedDatum(output: ResolvedOutput, scriptName: MarloweScriptName | undefined): DatumView | undefined {
    const bytes = output.datum
    if (output.datumHash !== undefined) {
      const view = this.byHash(output.datumHash.toLowerCase(), scriptName)
      if (view.source !== 'missing' || bytes === undefined) return view
    }
    if (bytes === undefined) return undefined
    const hash = blake2b256Hex(bytes)
    const form = output.datumHash === undefined ? 'inline' : 'hash'
    const source = form === 'inline' ? 'inline' : 'resolved'
    const view: DatumView = { form, hash, source, bytes: this.bytesHex(hash, bytes) }
    // The context's datums come from outside the transaction: only Plutus Data has content.
    return isPlutusData(bytes) ? { ...view, content: this.content(hash, bytes, scriptName) } : view
  }

  private bytesHex(hash: string, bytes: Uint8Array): string {
    let hex = this.hex.get(hash)
    if (hex === undefined) {
      hex = bytesToHex(bytes)
      this.hex.set(hash, hex)
    }
    return hex
  }

  private byHash(hash: string, scriptName: MarloweScriptName | undefined): DatumView {
    const witness = this.env.witnessDatum(hash)
    if (witness === undefined) return { form: 'hash', hash, source: 'missing' }
    return {
      form: 'hash',
      hash,
      source: 'witness-set',
      bytes: this.bytesHex(hash, witness.bytes),
      content: this.content(hash, witness.bytes, scriptName)
    }
  }

  private decode(hash: string, bytes: Uint8Array, scriptName: MarloweScriptName | undefined): DatumContent {
    if (scriptName === 'marlowe-payout') {
      const payout = probePayoutDatum(bytes)
      if (payout !== undefined)
        return { type: 'marlowe-payout', rolesCurrency: payout.rolesCurrency, role: payout.role }
    }
    const md = this.marloweData(hash, bytes)
    if (md !== undefined) {
      const timeout = nextTimeout(md.contract, md.state.minTime)
      return {
        type: 'marlowe-data',
        marlowe: encodeMarloweData(md, this.whens),
        ...(timeout === undefined ? {} : { nextTimeout: timeout })
      }
    }
    return { type: 'plutus-data', json: plutusDataJson(decodePlutusData(bytes)) }
  }
}

function isPlutusData(bytes: Uint8Array): boolean {
  return tryDecode(() => skipPlutusDataItem(bytes, 0)) === bytes.length
}

/** Runs a decoder of untrusted Data, mapping its shape errors to undefined. */
export function tryDecode<T>(decode: () => T): T | undefined {
  try {
    return decode()
  } catch (e) {
    if (e instanceof PlutusDecodeError || e instanceof PlutusDataError) return undefined
    throw e
  }
}
