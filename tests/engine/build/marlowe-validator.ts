/**
 * An independent check of built transactions against what the real on-chain validators demand
 * (marlowe-core.md §4): the sandbox's stand-in scripts always succeed, so this is what stands between a
 * sandbox-accepted tx and one the mainnet validator would reject. It reads only the tx bytes (through CSL)
 * and the chain, never the builder's own bookkeeping. Violations are reported with the validator's trace codes.
 */
import type { ChainProvider, Utxo } from '../../../src/chain/provider'
import { bytesToHex } from '../../../src/core/bytes'
import { parseShelleyAddress } from '../../../src/core/cardano/address'
import type { Value } from '../../../src/core/cardano/value'
import { partyEquals } from '../../../src/core/marlowe/equality'
import { decodePlutusData } from '../../../src/core/marlowe/plutus/data'
import { datumHash } from '../../../src/core/marlowe/plutus/hash'
import {
  contractFromPlutusData,
  decodeMarloweData,
  decodePayoutDatum,
  decodeRedeemer,
  encodeMarloweData,
  encodePayoutDatum
} from '../../../src/core/marlowe/plutus/marlowe-data'
import { computeTransaction } from '../../../src/core/marlowe/semantics'
import type { Contract, Input, MarloweData, Party, TimeInterval } from '../../../src/core/marlowe/types'
import { CSL, withCsl } from '../../../src/csl'
import { formatRef } from '../../../src/core/cardano/refs'
import { addValues, covers, subtractValues, sumValues, tokenValue, valuesEqual } from '../../../src/engine/build/values'

export interface DecodedOutput {
  readonly address: string
  readonly value: Value
  readonly datumHash?: string
}

export interface DecodedTx {
  readonly inputs: readonly { txId: string; index: number }[]
  readonly outputs: readonly DecodedOutput[]
  /** Witness datums by hash. */
  readonly datums: ReadonlyMap<string, Uint8Array>
  readonly redeemers: readonly { tag: string; index: number; data: Uint8Array }[]
  readonly requiredSigners: readonly string[]
  readonly validityStart?: bigint
  readonly ttl?: bigint
  readonly mint: Value
}

function value(scope: { own<T extends { free(): void }>(o: T): T }, v: CSL.Value): Value {
  const lovelace = BigInt(scope.own(v.coin()).to_str())
  const parts: Value[] = [{ lovelace, assets: {} }]
  const multi = v.multiasset()
  if (multi !== undefined) {
    scope.own(multi)
    const policies = scope.own(multi.keys())
    for (let i = 0; i < policies.len(); i += 1) {
      const p = scope.own(policies.get(i))
      const assets = scope.own(multi.get(p)!)
      const names = scope.own(assets.keys())
      for (let j = 0; j < names.len(); j += 1) {
        const n = scope.own(names.get(j))
        const q = BigInt(scope.own(assets.get(n)!).to_str())
        parts.push({ lovelace: 0n, assets: { [p.to_hex()]: { [bytesToHex(n.name())]: q } } })
      }
    }
  }
  return sumValues(parts)
}

export function decodeTx(tx: Uint8Array): DecodedTx {
  return withCsl((s) => {
    const fixed = s.own(CSL.FixedTransaction.from_bytes(tx))
    const body = s.own(fixed.body())
    const ws = s.own(fixed.witness_set())
    const ins = s.own(body.inputs())
    const inputs = Array.from({ length: ins.len() }, (_, i) => {
      const input = s.own(ins.get(i))
      return { txId: s.own(input.transaction_id()).to_hex(), index: input.index() }
    })
    const outs = s.own(body.outputs())
    const outputs = Array.from({ length: outs.len() }, (_, i): DecodedOutput => {
      const o = s.own(outs.get(i))
      const hash = o.data_hash()
      return {
        address: s.own(o.address()).to_bech32(undefined),
        value: value(s, s.own(o.amount())),
        ...(hash === undefined ? {} : { datumHash: s.own(hash).to_hex() })
      }
    })
    const datums = new Map<string, Uint8Array>()
    const list = ws.plutus_data()
    if (list !== undefined) {
      s.own(list)
      for (let i = 0; i < list.len(); i += 1) {
        const bytes = s.own(list.get(i)).to_bytes()
        datums.set(datumHash(bytes), bytes)
      }
    }
    const redeemers: { tag: string; index: number; data: Uint8Array }[] = []
    const rs = ws.redeemers()
    if (rs !== undefined) {
      s.own(rs)
      for (let i = 0; i < rs.len(); i += 1) {
        const r = s.own(rs.get(i))
        redeemers.push({
          tag: s.own(r.tag()).kind() === CSL.RedeemerTagKind.Spend ? 'spend' : 'other',
          index: Number(s.own(r.index()).to_str()),
          data: s.own(r.data()).to_bytes()
        })
      }
    }
    const signers: string[] = []
    const rsig = body.required_signers()
    if (rsig !== undefined) {
      s.own(rsig)
      for (let i = 0; i < rsig.len(); i += 1) signers.push(s.own(rsig.get(i)).to_hex())
    }
    const start = body.validity_start_interval_bignum()
    const ttl = body.ttl_bignum()
    const mint = body.mint()
    const minted: Value[] = []
    if (mint !== undefined) {
      s.own(mint)
      const keys = s.own(mint.keys())
      for (let i = 0; i < keys.len(); i += 1) {
        const p = s.own(keys.get(i))
        const all = s.own(mint.get(p)!)
        for (let k = 0; k < all.len(); k += 1) {
          const assets = s.own(all.get(k)!)
          const names = s.own(assets.keys())
          for (let j = 0; j < names.len(); j += 1) {
            const n = s.own(names.get(j))
            const q = BigInt(s.own(assets.get(n)!).to_str())
            minted.push({ lovelace: 0n, assets: { [p.to_hex()]: { [bytesToHex(n.name())]: q } } })
          }
        }
      }
    }
    return {
      inputs,
      outputs,
      datums,
      redeemers,
      requiredSigners: signers,
      ...(start === undefined ? {} : { validityStart: BigInt(s.own(start).to_str()) }),
      ...(ttl === undefined ? {} : { ttl: BigInt(s.own(ttl).to_str()) }),
      mint: sumValues(minted)
    }
  })
}

export interface ValidatorContext {
  readonly provider: ChainProvider
  readonly semanticsHash: string
  readonly payoutHash: string
}

function scriptHashOf(address: string): string | undefined {
  const p = parseShelleyAddress(address).payment
  return p.type === 'script' ? p.hash : undefined
}

function valueOfState(md: MarloweData): Value {
  return sumValues(md.state.accounts.map(([k, amount]) => tokenValue(k.token, amount)))
}

function stateIssues(md: MarloweData, v: Value, suffix: 'i' | 'o'): string[] {
  const out: string[] = []
  if (!valuesEqual(valueOfState(md), v)) out.push(`v${suffix}: accounts do not equal the UTxO value`)
  if (md.state.accounts.some(([, a]) => a <= 0n)) out.push(`b${suffix}: non-positive balance`)
  return out
}

/** Slot → POSIX ms from the provider's era summaries. */
async function slotTime(provider: ChainProvider, slot: bigint): Promise<bigint> {
  const [era] = await provider.eraSummaries()
  return era!.start.time + (slot - era!.start.slot) * era!.slotLength
}

/** The violations the semantics validator would report for the Marlowe input of `tx` (empty: it passes). */
export async function checkMarloweSpend(ctx: ValidatorContext, tx: Uint8Array): Promise<string[]> {
  const d = decodeTx(tx)
  const resolved = await ctx.provider.utxosByRef(d.inputs)
  const issues: string[] = []
  const own = resolved.filter((u) => scriptHashOf(u.address) === ctx.semanticsHash)
  if (own.length !== 1) return [`w: ${own.length} inputs at the semantics validator`]
  const input: Utxo = own[0]!
  if (d.validityStart === undefined || d.ttl === undefined) return ['a: the validity range is not finite']
  const interval: TimeInterval = {
    from: await slotTime(ctx.provider, d.validityStart),
    to: (await slotTime(ctx.provider, d.ttl)) - 1n
  }
  const inDatumBytes = input.datumHash === undefined ? undefined : d.datums.get(input.datumHash)
  if (inDatumBytes === undefined) return ['the input datum is not in the witness set']
  const inDatum = decodeMarloweData(inDatumBytes)
  issues.push(...stateIssues(inDatum, input.value, 'i'))
  const sorted = [...d.inputs].sort((a, b) => (a.txId !== b.txId ? (a.txId < b.txId ? -1 : 1) : a.index - b.index))
  const ownIndex = sorted.findIndex((r) => formatRef(r) === formatRef(input.ref))
  const redeemer = d.redeemers.find((r) => r.tag === 'spend' && r.index === ownIndex)
  if (redeemer === undefined) return [...issues, 'no redeemer for the Marlowe input']
  const lookup = (h: string): Contract | undefined => {
    const bytes = d.datums.get(h)
    return bytes === undefined ? undefined : contractFromPlutusData(decodePlutusData(bytes))
  }
  let inputs: Input[]
  try {
    inputs = decodeRedeemer(redeemer.data, lookup)
  } catch (e) {
    return [...issues, `h: ${String(e)}`]
  }
  const spentValue = sumValues(resolved.map((u) => u.value))
  for (const { content } of inputs) {
    const party: Party | undefined =
      content.type === 'IDeposit' ? content.party : content.type === 'IChoice' ? content.choice.owner : undefined
    if (party === undefined) continue
    if (party.type === 'Address') {
      const pay = parseShelleyAddress(party.address).payment
      if (pay.type !== 'key' || !d.requiredSigners.includes(pay.hash)) issues.push(`s: ${party.address} did not sign`)
    } else if (
      !covers(spentValue, tokenValue({ currencySymbol: inDatum.params.rolesCurrency, tokenName: party.role }, 1n))
    ) {
      issues.push(`t: role token ${party.role} is not spent`)
    }
  }
  const result = computeTransaction({ interval, inputs }, inDatum.state, inDatum.contract)
  if (result.type === 'Error') return [...issues, `semantics: ${result.error.type}`]
  const payouts: { party: Party; value: Value }[] = []
  for (const p of result.payments) {
    if (p.to.type !== 'Party' || p.amount <= 0n) continue
    const party = p.to.party
    const existing = payouts.find((x) => partyEquals(x.party, party))
    const v = tokenValue(p.token, p.amount)
    if (existing === undefined) payouts.push({ party, value: v })
    else existing.value = addValues(existing.value, v)
  }
  for (const p of payouts) {
    if (p.party.type === 'Address') {
      const address = p.party.address
      const paid = sumValues(d.outputs.filter((o) => o.address === address).map((o) => o.value))
      if (!covers(paid, p.value)) issues.push(`p: ${address} is paid less than the contract pays`)
    } else {
      const datum = encodePayoutDatum({ rolesCurrency: inDatum.params.rolesCurrency, role: p.party.role })
      const ok = d.outputs.some((o) => {
        const pay = parseShelleyAddress(o.address)
        return (
          pay.payment.type === 'script' &&
          pay.payment.hash === ctx.payoutHash &&
          pay.stake === undefined &&
          o.datumHash === datumHash(datum) &&
          d.datums.has(datumHash(datum)) &&
          covers(o.value, p.value)
        )
      })
      if (!ok) issues.push(`r: no payout output for role ${p.party.role}`)
    }
  }
  const ownOutputs = d.outputs.filter((o) => o.address === input.address)
  if (result.contract.type === 'Close') {
    if (ownOutputs.length > 0) issues.push('c: an output goes to the script on Close')
  } else if (ownOutputs.length !== 1) {
    issues.push(`o: ${ownOutputs.length} outputs continue the contract`)
  } else {
    const out = ownOutputs[0]!
    const expected: MarloweData = { params: inDatum.params, state: result.state, contract: result.contract }
    const bytes = out.datumHash === undefined ? undefined : d.datums.get(out.datumHash)
    if (bytes === undefined) issues.push('d: the continuing datum is not by hash in the witness set')
    else if (datumHash(encodeMarloweData(expected)) !== out.datumHash) issues.push('d: the continuing datum differs')
    const deposits = sumValues(
      inputs.flatMap((i) =>
        i.content.type === 'IDeposit' && i.content.amount > 0n ? [tokenValue(i.content.token, i.content.amount)] : []
      )
    )
    const expectedValue = subtractValues(addValues(input.value, deposits), sumValues(payouts.map((p) => p.value)))
    if (!valuesEqual(out.value, expectedValue)) issues.push('the continuing value is not exact')
    issues.push(...stateIssues(expected, out.value, 'o'))
  }
  if (payouts.length > 0) {
    const otherScripts = resolved.filter((u) => u !== input && scriptHashOf(u.address) !== undefined)
    if (otherScripts.length > 0) issues.push('z: payouts with another script input')
  }
  return issues
}

/** The payout validator: each payout spent needs its role token among the spent inputs. */
export async function checkPayoutSpends(ctx: ValidatorContext, tx: Uint8Array): Promise<string[]> {
  const d = decodeTx(tx)
  const resolved = await ctx.provider.utxosByRef(d.inputs)
  const spent = sumValues(resolved.map((u) => u.value))
  const issues: string[] = []
  for (const u of resolved.filter((x) => scriptHashOf(x.address) === ctx.payoutHash)) {
    const bytes = u.datumHash === undefined ? undefined : d.datums.get(u.datumHash)
    if (bytes === undefined) {
      issues.push(`payout ${formatRef(u.ref)}: datum missing`)
      continue
    }
    const pd = decodePayoutDatum(bytes)
    if (!covers(spent, tokenValue({ currencySymbol: pd.rolesCurrency, tokenName: pd.role }, 1n))) {
      issues.push(`payout ${formatRef(u.ref)}: role token ${pd.role} not spent`)
    }
  }
  return issues
}

/** A create: the Marlowe output's datum is in the witness set and its state matches its value. */
export function checkCreate(ctx: ValidatorContext, tx: Uint8Array): { issues: string[]; datum?: MarloweData } {
  const d = decodeTx(tx)
  const outs = d.outputs.filter((o) => scriptHashOf(o.address) === ctx.semanticsHash)
  if (outs.length !== 1) return { issues: [`${outs.length} Marlowe outputs`] }
  const out = outs[0]!
  const bytes = out.datumHash === undefined ? undefined : d.datums.get(out.datumHash)
  if (bytes === undefined) return { issues: ['the datum is not by hash in the witness set'] }
  const datum = decodeMarloweData(bytes)
  return { issues: stateIssues(datum, out.value, 'o'), datum }
}
