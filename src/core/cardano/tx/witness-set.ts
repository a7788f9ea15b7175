/**
 * The witness set: key and bootstrap witnesses, scripts, datums (each with its original bytes, which its hash
 * is taken over) and redeemers in Babbage's array form or Conway's map form.
 */
import { bytesToHex } from '../../bytes'
import { blake2b224Hex, blake2b256Hex } from './hash'
import { HASH32, type TxReader } from './reader'
import { readNativeScript, readPlutusScript } from './script'
import type {
  BootstrapWitness,
  DecodedRedeemer,
  DecodedScript,
  DecodedWitnessSet,
  ExUnits,
  RedeemerTag,
  ScriptLanguage,
  VkeyWitness,
  WitnessDatum
} from './types'
import { MAJOR_MAP } from '../cbor'

const REDEEMER_TAGS: readonly RedeemerTag[] = ['spend', 'mint', 'cert', 'reward', 'vote', 'propose']
const MAX_REDEEMER_INDEX = 0xffffffff
const VKEY_BYTES = 32
const SIGNATURE_BYTES = 64
const PLUTUS_KEYS: ReadonlyMap<bigint, ScriptLanguage> = new Map([
  [3n, 'PlutusV1'],
  [6n, 'PlutusV2'],
  [7n, 'PlutusV3']
])

interface MutableWitnessSet {
  vkeys: VkeyWitness[]
  bootstraps: BootstrapWitness[]
  nativeScripts: DecodedScript[]
  plutusScripts: DecodedScript[]
  datums: WitnessDatum[]
  datumsBytes?: Uint8Array
  redeemers: DecodedRedeemer[]
  redeemersBytes?: Uint8Array
  redeemerFormat?: 'array' | 'map'
  unknownKeys: bigint[]
}

export function readWitnessSet(r: TxReader): DecodedWitnessSet {
  const ws: MutableWitnessSet = {
    vkeys: [],
    bootstraps: [],
    nativeScripts: [],
    plutusScripts: [],
    datums: [],
    redeemers: [],
    unknownKeys: []
  }
  r.mapEntries('witness set', (key) => {
    if (key.kind !== 'int' || key.value < 0n) r.fail('witness set keys must be unsigned integers', key.start)
    readField(r, key.value, ws)
  })
  return ws
}

function readField(r: TxReader, key: bigint, ws: MutableWitnessSet): void {
  const start = r.pos
  const language = PLUTUS_KEYS.get(key)
  if (language !== undefined) {
    r.hashedSet(`${language} scripts`, () => {
      const script = readPlutusScript(r, language, `${language} script`)
      ws.plutusScripts.push(script)
      return script.hash
    })
    return
  }
  switch (key) {
    case 0n:
      r.set('vkey witnesses', () => ws.vkeys.push(readVkeyWitness(r)))
      break
    case 1n:
      r.set('native scripts', () => ws.nativeScripts.push(readNativeScript(r, 'native script')))
      break
    case 2n:
      r.set('bootstrap witnesses', () => ws.bootstraps.push(readBootstrapWitness(r)))
      break
    case 4n:
      r.hashedSet('datums', () => {
        const { bytes, offset } = r.plutusDataBytes('datum')
        const hash = blake2b256Hex(bytes)
        ws.datums.push({ hash, bytes, offset })
        return hash
      })
      ws.datumsBytes = r.source.subarray(start, r.pos)
      break
    case 5n:
      ws.redeemerFormat = r.peekMajor() === MAJOR_MAP ? 'map' : 'array'
      if (ws.redeemerFormat === 'map') readRedeemerMap(r, ws.redeemers)
      else r.arrayItems('redeemers', () => ws.redeemers.push(readRedeemerArrayItem(r)))
      ws.redeemersBytes = r.source.subarray(start, r.pos)
      break
    default:
      ws.unknownKeys.push(key)
      r.skip()
  }
}

function readVkeyWitness(r: TxReader): VkeyWitness {
  const count = r.fixedArray('vkey witness', 2)
  const key = r.bytes('vkey')
  if (key.length !== VKEY_BYTES) r.fail(`vkey: expected ${VKEY_BYTES} bytes, got ${key.length}`)
  const signature = r.hash('signature', SIGNATURE_BYTES)
  r.closeArray(count, 'vkey witness')
  return { vkey: bytesToHex(key), signature, keyHash: blake2b224Hex(key) }
}

function readBootstrapWitness(r: TxReader): BootstrapWitness {
  const count = r.fixedArray('bootstrap witness', 4)
  const vkey = r.hash('bootstrap vkey', VKEY_BYTES)
  const signature = r.hash('bootstrap signature', SIGNATURE_BYTES)
  const chainCode = r.hash('bootstrap chain code', HASH32)
  const attributes = bytesToHex(r.bytes('bootstrap attributes'))
  r.closeArray(count, 'bootstrap witness')
  return { vkey, signature, chainCode, attributes }
}

function readRedeemerArrayItem(r: TxReader): DecodedRedeemer {
  const count = r.fixedArray('redeemer', 4)
  const tag = readTag(r)
  const index = r.smallUint('redeemer index', MAX_REDEEMER_INDEX)
  const { data, bytes } = r.plutusData('redeemer data')
  const exUnits = readExUnits(r)
  r.closeArray(count, 'redeemer')
  return { tag, index, data, dataBytes: bytes, exUnits }
}

function readRedeemerMap(r: TxReader, out: DecodedRedeemer[]): void {
  r.mapEntries('redeemers', (key) => {
    const { tag, index } = r.reread(key, 'redeemer key', (k) => {
      const count = k.fixedArray('redeemer key', 2)
      const pointer = { tag: readTag(k), index: k.smallUint('redeemer index', MAX_REDEEMER_INDEX) }
      k.closeArray(count, 'redeemer key')
      return pointer
    })
    const count = r.fixedArray('redeemer value', 2)
    const { data, bytes } = r.plutusData('redeemer data')
    const exUnits = readExUnits(r)
    r.closeArray(count, 'redeemer value')
    out.push({ tag, index, data, dataBytes: bytes, exUnits })
  })
}

function readTag(r: TxReader): RedeemerTag {
  return REDEEMER_TAGS[r.smallUint('redeemer tag', REDEEMER_TAGS.length - 1)]!
}

function readExUnits(r: TxReader): ExUnits {
  const count = r.fixedArray('execution units', 2)
  const exUnits = { mem: r.uint('execution memory'), steps: r.uint('execution steps') }
  r.closeArray(count, 'execution units')
  return exUnits
}
