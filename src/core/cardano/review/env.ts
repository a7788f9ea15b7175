/**
 * What the review derives once from the context: lookups of resolved outputs, wallets, known scripts and
 * policies, and witness-set datums, shared by every part of the review.
 */
import { formatRef } from '../refs'
import { AddressError } from '../address'
import { parseAddressText, type DecodedAddress, type DecodedTx, type TxIn, type WitnessDatum } from '../tx'
import { knownMarloweScripts } from './marlowe-scripts'
import type { MarloweScriptName, OutRef, ResolvedOutput, ReviewContext } from './types'

export interface ReviewEnv {
  readonly tx: DecodedTx
  readonly context: ReviewContext
  resolved(ref: TxIn | OutRef): ResolvedOutput | undefined
  /** The resolved output's address decoded; undefined when unresolved or unreadable. */
  resolvedAddress(ref: TxIn | OutRef): DecodedAddress | undefined
  walletOfAddress(address: DecodedAddress): string | undefined
  walletOfKey(keyHash: string): string | undefined
  scriptName(hash: string): MarloweScriptName | undefined
  policyName(policyId: string): string | undefined
  witnessDatum(hash: string): WitnessDatum | undefined
  /** Whether any wallet was given: without one, nothing is "own". */
  readonly hasWallets: boolean
}

/** Context files may spell ids in upper case: keys are lower case. */
export function refKey(ref: TxIn | OutRef): string {
  return formatRef({ txId: ref.txId.toLowerCase(), index: ref.index })
}

export function createEnv(tx: DecodedTx, context: ReviewContext): ReviewEnv {
  const resolved = new Map<string, ResolvedOutput>()
  for (const output of context.resolvedInputs ?? []) resolved.set(refKey(output.ref), output)
  const addressCache = new Map<string, DecodedAddress | undefined>()
  const walletByAddress = new Map<string, string>()
  const walletByKey = new Map<string, string>()
  for (const wallet of context.wallets ?? []) {
    for (const text of wallet.addresses ?? []) walletByAddress.set(normaliseAddress(text), wallet.id)
    for (const key of wallet.keyHashes ?? []) walletByKey.set(key.toLowerCase(), wallet.id)
  }
  const scripts = new Map<string, MarloweScriptName>(Object.entries(knownMarloweScripts(txNetworkId(tx, context))))
  for (const [hash, name] of Object.entries(context.marloweScripts ?? {})) scripts.set(hash.toLowerCase(), name)
  const policies = new Map<string, string>()
  for (const [policy, name] of Object.entries(context.knownPolicies ?? {})) policies.set(policy.toLowerCase(), name)
  const datums = new Map<string, WitnessDatum>()
  for (const datum of tx.witnessSet.datums) datums.set(datum.hash, datum)

  const parse = (text: string): DecodedAddress | undefined => {
    if (!addressCache.has(text)) addressCache.set(text, tryParseAddress(text))
    return addressCache.get(text)
  }
  const walletOfKey = (keyHash: string): string | undefined => walletByKey.get(keyHash)
  return {
    tx,
    context,
    resolved: (ref) => resolved.get(refKey(ref)),
    resolvedAddress: (ref) => {
      const output = resolved.get(refKey(ref))
      return output === undefined ? undefined : parse(output.address)
    },
    walletOfAddress: (address) => {
      const byText = walletByAddress.get(address.text)
      if (byText !== undefined) return byText
      // A reward address is owned through its stake key; every other kind through its payment key.
      const credential = address.kind === 'reward' ? address.stake : address.payment
      return credential?.type === 'key' ? walletOfKey(credential.hash) : undefined
    },
    walletOfKey,
    scriptName: (hash) => scripts.get(hash),
    policyName: (policyId) => policies.get(policyId),
    witnessDatum: (hash) => datums.get(hash.toLowerCase()),
    hasWallets: walletByAddress.size > 0 || walletByKey.size > 0
  }
}

/**
 * The network the transaction itself is for: its body's network id and its outputs' addresses say it, whatever
 * the context claims (a bundle naming a test network cannot make a mainnet transaction's scripts look like the
 * sandbox's); mainnet when anything in it is.
 */
function txNetworkId(tx: DecodedTx, context: ReviewContext): number {
  const own = [tx.body.networkId, ...tx.body.outputs.map((o) => o.address.networkId)]
  if (own.includes(1)) return 1
  return own.includes(0) ? 0 : (context.networkId ?? 1)
}

function tryParseAddress(text: string): DecodedAddress | undefined {
  try {
    return parseAddressText(text)
  } catch (e) {
    if (e instanceof AddressError) return undefined
    throw e
  }
}

function normaliseAddress(text: string): string {
  return tryParseAddress(text)?.text ?? text
}

export function outRef(ref: TxIn): OutRef {
  return { txId: ref.txId, index: BigInt(ref.index) }
}
