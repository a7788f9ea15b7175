/**
 * Datums for display: Marlowe datums (MarloweData, payout datums) decoded into Runtime JSON, anything else in
 * the detailed schema. Decoding is memoised by hash: a Marlowe datum can be named by an input, an output and
 * the witness set at once.
 */
import { bytesToHex } from '../../bytes'
import { encodeMarloweData } from '../../marlowe/json/encode'
import { PlutusDataError, decodePlutusData, type PlutusData } from '../../marlowe/plutus/data'
import {
  PlutusDecodeError,
  marloweDataFromPlutusData,
  payoutDatumFromPlutusData
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

  constructor(private readonly env: ReviewEnv) {}

  /** The datum as MarloweData, or undefined when it is not one. */
  marloweData(hash: string, data: PlutusData): MarloweData | undefined {
    if (!this.marlowe.has(hash))
      this.marlowe.set(
        hash,
        tryDecode(() => marloweDataFromPlutusData(data))
      )
    return this.marlowe.get(hash)
  }

  content(hash: string, data: PlutusData, scriptName?: MarloweScriptName): DatumContent {
    const key = scriptName === 'marlowe-payout' ? `payout:${hash}` : hash
    const cached = this.contents.get(key)
    if (cached !== undefined) return cached
    const content = this.decode(hash, data, scriptName)
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
        content: this.content(datum.hash, datum.data, scriptName)
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
    const data = tryDecode(() => decodePlutusData(bytes))
    const form = output.datumHash === undefined ? 'inline' : 'hash'
    const source = form === 'inline' ? 'inline' : 'resolved'
    const view: DatumView = { form, hash, source, bytes: this.bytesHex(hash, bytes) }
    return data === undefined ? view : { ...view, content: this.content(hash, data, scriptName) }
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
      content: this.content(hash, witness.data, scriptName)
    }
  }

  private decode(hash: string, data: PlutusData, scriptName: MarloweScriptName | undefined): DatumContent {
    if (scriptName === 'marlowe-payout') {
      const payout = tryDecode(() => payoutDatumFromPlutusData(data))
      if (payout !== undefined)
        return { type: 'marlowe-payout', rolesCurrency: payout.rolesCurrency, role: payout.role }
    }
    const md = this.marloweData(hash, data)
    if (md !== undefined) {
      const timeout = nextTimeout(md.contract, md.state.minTime)
      return {
        type: 'marlowe-data',
        marlowe: encodeMarloweData(md),
        ...(timeout === undefined ? {} : { nextTimeout: timeout })
      }
    }
    return { type: 'plutus-data', json: plutusDataJson(data) }
  }
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
