/**
 * The role-token minting policy of one contract: the compiled program of role-tokens.hl applied to its
 * parameters, the seed UTxO and the exact tokens (README.md beside this file). Every distinct parameter set is a
 * distinct script, so a distinct policy id.
 */
import type { TxOutRef } from '../../../chain/provider'
import { blake2bHex } from '../../../core/blake2b'
import { hexToBytes } from '../../../core/bytes'
import { encodeHead, MAJOR_BYTES } from '../../../core/cardano/cbor'
import { constrData, encodePlutusData, type PlutusData } from '../../../core/marlowe/plutus/data'
import { ROLE_TOKENS_PROGRAM } from './compiled'
import { applyDataArgument } from './flat-apply'

export interface RoleToken {
  /** Asset name, hex (at most 32 bytes). */
  readonly assetName: string
  readonly quantity: bigint
}

export interface RoleTokenPolicy {
  /** Plutus V2 script as the witness set holds it: a CBOR byte string of the flat program. */
  readonly script: Uint8Array
  /** Script hash, 28 bytes as lowercase hex. */
  readonly policyId: string
}

const TX_ID = /^[0-9a-fA-F]{64}$/
const ASSET_NAME = /^(?:[0-9a-f]{2}){0,32}$/
const PLUTUS_V2_TAG = 0x02

const program = hexToBytes(ROLE_TOKENS_PROGRAM)

/** Tokens by name bytes: the policy id depends on the set of tokens, not on the order they were listed in. */
function canonicalTokens(tokens: readonly RoleToken[]): RoleToken[] {
  const sorted = [...tokens].sort((a, b) => (a.assetName < b.assetName ? -1 : a.assetName > b.assetName ? 1 : 0))
  for (const [i, t] of sorted.entries()) {
    if (!ASSET_NAME.test(t.assetName)) throw new Error(`role token name ${t.assetName} is not at most 32 bytes of hex`)
    if (t.quantity <= 0n) throw new Error(`role token ${t.assetName} has quantity ${t.quantity}: it must be positive`)
    if (i > 0 && sorted[i - 1]!.assetName === t.assetName) throw new Error(`role token ${t.assetName} is listed twice`)
  }
  if (sorted.length === 0) throw new Error('a role-token policy needs at least one token')
  return sorted
}

/** `Params` of role-tokens.hl: a Helios struct is a list of its fields; the seed is the ledger's TxOutRef. */
function paramsData(seed: TxOutRef, tokens: readonly RoleToken[]): PlutusData {
  if (!TX_ID.test(seed.txId)) throw new Error(`seed tx id ${seed.txId} is not 32 bytes of hex`)
  if (!Number.isSafeInteger(seed.index) || seed.index < 0) throw new Error(`seed index ${seed.index} is not natural`)
  const outRef = constrData(0, [constrData(0, [hexToBytes(seed.txId)]), BigInt(seed.index)])
  const map = canonicalTokens(tokens).map((t) => [hexToBytes(t.assetName), t.quantity] as const)
  return { list: [outRef, { map }] }
}

/** The policy that mints exactly `tokens`, once, in the transaction that spends `seed`; burning is always allowed. */
export function roleTokenPolicy(seed: TxOutRef, tokens: readonly RoleToken[]): RoleTokenPolicy {
  const flat = applyDataArgument(program, encodePlutusData(paramsData(seed, tokens)))
  const head = encodeHead(MAJOR_BYTES, flat.length)
  const script = new Uint8Array(head.length + flat.length)
  script.set(head)
  script.set(flat, head.length)
  const tagged = new Uint8Array(1 + script.length)
  tagged[0] = PLUTUS_V2_TAG
  tagged.set(script, 1)
  return { script, policyId: blake2bHex(tagged, 28) }
}
