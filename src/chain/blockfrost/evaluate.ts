/**
 * Blockfrost's script evaluation, which relays Ogmios: the additional UTxO set goes in Ogmios v5's JSON (the form
 * Blockfrost's OpenAPI documents for `/utils/txs/evaluate/utxos`); the answer is asked for in Ogmios v6's
 * JSON-RPC form (`?version=6`), and the v5 form is read too, for backends that ignore the version.
 */
import { formatRef } from '../../core/cardano/refs'
import { bytesToHex } from '../../core/bytes'
import { isJsonObject, type JsonObject, type JsonValue } from '../../core/json/lossless'
import { ChainError, type RedeemerBudget, type RedeemerTag, type Utxo } from '../provider'
import { nativeScriptToOgmiosV5 } from './scripts'
import { asArray, asNatural, asObject, asSmallNatural, asString, badResponse, get, optional } from './shape'

const PLUTUS_KEYS = { PlutusV1: 'plutus:v1', PlutusV2: 'plutus:v2', PlutusV3: 'plutus:v3' } as const

function ogmiosScript(utxo: Utxo): JsonValue | undefined {
  const script = utxo.scriptRef
  if (script === undefined) return undefined
  if (script.language !== 'Native') return { [PLUTUS_KEYS[script.language]]: bytesToHex(script.bytes) }
  const native = nativeScriptToOgmiosV5(script.bytes)
  if (native === undefined) {
    throw new ChainError('EvaluationFailed', `additional UTxO ${formatRef(utxo.ref)} has an unreadable native script`)
  }
  return { native }
}

/** `[[{txId, index}, {address, value: {coins, assets: {'policy.name': n}}, datumHash?, datum?, script?}], …]` */
export function additionalUtxoSetV5(utxos: readonly Utxo[]): JsonValue[] {
  return utxos.map((utxo) => {
    const assets: JsonObject = {}
    for (const [policy, names] of Object.entries(utxo.value.assets)) {
      for (const [name, quantity] of Object.entries(names))
        assets[name === '' ? policy : `${policy}.${name}`] = quantity
    }
    const out: JsonObject = {
      address: utxo.address,
      value: Object.keys(assets).length === 0 ? { coins: utxo.value.lovelace } : { coins: utxo.value.lovelace, assets }
    }
    // A datum-hash output carries only the hash; `datum` alone means an inline datum (as in `Utxo`).
    if (utxo.datumHash !== undefined) out['datumHash'] = utxo.datumHash
    else if (utxo.datum !== undefined) out['datum'] = bytesToHex(utxo.datum)
    const script = ogmiosScript(utxo)
    if (script !== undefined) out['script'] = script
    return [{ txId: utxo.ref.txId, index: BigInt(utxo.ref.index) }, out]
  })
}

/** Ogmios v6 purposes (and the v5 / ledger names) → the interface's redeemer tags. */
const TAGS: Readonly<Record<string, RedeemerTag>> = {
  spend: 'spend',
  mint: 'mint',
  publish: 'cert',
  certificate: 'cert',
  cert: 'cert',
  withdraw: 'reward',
  withdrawal: 'reward',
  reward: 'reward',
  vote: 'vote',
  propose: 'propose'
}

function tagOf(purpose: string, what: string): RedeemerTag {
  const tag = Object.hasOwn(TAGS, purpose) ? TAGS[purpose] : undefined
  if (tag === undefined) throw badResponse(what, `unknown redeemer purpose ${JSON.stringify(purpose)}`)
  return tag
}

/** One line per failing validator of an Ogmios v6 error, e.g. "spend[0]: The validator crashed / exited prematurely". */
function v6Reason(error: JsonObject): string {
  const text = (v: JsonValue | undefined, otherwise: string): string => (typeof v === 'string' ? v : otherwise)
  const message = text(get(error, 'message'), 'evaluation failed')
  const data = get(error, 'data')
  if (!Array.isArray(data)) return message
  const lines = data.flatMap((entry) => {
    const validator = isJsonObject(entry) ? get(entry, 'validator') : undefined
    const inner = isJsonObject(entry) ? get(entry, 'error') : undefined
    if (validator === undefined || inner === undefined || !isJsonObject(validator) || !isJsonObject(inner)) return []
    const purpose = text(get(validator, 'purpose'), '?')
    const index = get(validator, 'index')
    return [`${purpose}[${typeof index === 'bigint' ? index : '?'}]: ${text(get(inner, 'message'), 'failed')}`]
  })
  return lines.length === 0 ? message : `${message} ${lines.join('; ')}`
}

function fromV6(body: JsonObject): RedeemerBudget[] {
  const error = optional(body, 'error')
  if (error !== undefined) {
    const e = asObject(error, 'evaluation error')
    throw new ChainError('EvaluationFailed', v6Reason(e), {
      code: get(e, 'code') ?? null,
      data: get(e, 'data') ?? null
    })
  }
  return asArray(get(body, 'result'), 'evaluation result').map((entry, i) => {
    const what = `evaluation result[${i}]`
    const o = asObject(entry, what)
    const validator = asObject(get(o, 'validator'), `${what}.validator`)
    const budget = asObject(get(o, 'budget'), `${what}.budget`)
    return {
      tag: tagOf(asString(get(validator, 'purpose'), `${what}.validator.purpose`), `${what}.validator.purpose`),
      index: asSmallNatural(get(validator, 'index'), `${what}.validator.index`),
      exUnits: {
        mem: asNatural(get(budget, 'memory'), `${what}.budget.memory`),
        steps: asNatural(get(budget, 'cpu'), `${what}.budget.cpu`)
      }
    }
  })
}

/** Ogmios v5: `{result: {EvaluationResult: {'spend:0': {memory, steps}}}}` or `{result: {EvaluationFailure: …}}`. */
function fromV5(result: JsonObject): RedeemerBudget[] {
  const failure = optional(result, 'EvaluationFailure')
  if (failure !== undefined) {
    throw new ChainError('EvaluationFailed', 'the scripts failed to evaluate', { failure })
  }
  const budgets = asObject(get(result, 'EvaluationResult'), 'EvaluationResult')
  return Object.entries(budgets).map(([key, units]) => {
    const what = `EvaluationResult.${key}`
    const match = /^([a-z]+):(\d+)$/.exec(key)
    if (match === null) throw badResponse(what, 'expected a key like spend:0')
    const o = asObject(units, what)
    return {
      tag: tagOf(match[1]!, what),
      index: asSmallNatural(BigInt(match[2]!), what),
      exUnits: {
        mem: asNatural(get(o, 'memory'), `${what}.memory`),
        steps: asNatural(get(o, 'steps'), `${what}.steps`)
      }
    }
  })
}

export function toRedeemerBudgets(json: JsonValue): RedeemerBudget[] {
  const body = asObject(json, 'evaluation')
  if (Object.hasOwn(body, 'jsonrpc') || Object.hasOwn(body, 'error') || Array.isArray(get(body, 'result'))) {
    return fromV6(body)
  }
  const result = optional(body, 'result')
  if (result !== undefined && isJsonObject(result)) return fromV5(result)
  throw badResponse('evaluation', 'neither an Ogmios v6 nor a v5 evaluation answer')
}
