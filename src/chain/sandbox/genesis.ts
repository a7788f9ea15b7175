/**
 * The sandbox genesis: each wallet's 10,000 ada in four outputs (the last a pure-ada, collateral-sized 5 ada),
 * the faucet's funds, and the Marlowe reference scripts — the stand-ins, or the validators the sandbox was
 * given. Outputs sit in synthetic transactions with fixed ids (`genesisTxId`). The genesis id hashes all of it
 * (the scripts by hash) with the protocol parameters, so a saved ledger made by a different genesis — other
 * validators included — is recognised and refused.
 */
import { blake2bHex } from '../../core/blake2b'
import type { MarloweValidator, MarloweValidators } from '../marlowe-scripts'
import type { TxOutRef } from '../provider'
import { SANDBOX_BLAZE_PARAMS, toProtocolParameters } from './params'
import { genesisTxId, sandboxReferenceScripts, type SandboxReferenceScripts } from './reference-scripts'
import { STAND_IN_VALIDATORS } from './stand-ins'
import { SANDBOX_FAUCET, SANDBOX_WALLETS, type SandboxWallet } from './wallets'

export interface GenesisOutput {
  readonly ref: TxOutRef
  readonly address: string
  readonly lovelace: bigint
  readonly scriptRef?: MarloweValidator
}

export interface SandboxGenesis {
  /** Names this genesis (outputs + parameters); also the hash of block 0. */
  readonly id: string
  readonly outputs: readonly GenesisOutput[]
  readonly txIds: readonly string[]
  readonly referenceScripts: SandboxReferenceScripts
  /** Whether the reference scripts are the stand-ins. */
  readonly standIn: boolean
}

const ADA = 1_000_000n
/** 10,000 ada per wallet; the last output is the collateral-sized one. */
export const WALLET_GENESIS_LOVELACE: readonly bigint[] = [5_000n * ADA, 3_000n * ADA, 1_995n * ADA, 5n * ADA]
export const FAUCET_GENESIS_LOVELACE = 100_000_000n * ADA

function walletOutputs(wallet: SandboxWallet, amounts: readonly bigint[]): GenesisOutput[] {
  const txId = genesisTxId(`wallet ${wallet.name}`)
  return amounts.map((lovelace, index) => ({ ref: { txId, index }, address: wallet.address, lovelace }))
}

function describeGenesis(outputs: readonly GenesisOutput[]): string {
  const described = outputs.map((o) => [o.ref.txId, o.ref.index, o.address, o.lovelace, o.scriptRef?.hash ?? null])
  const description = { version: 1, outputs: described, params: toProtocolParameters(SANDBOX_BLAZE_PARAMS) }
  return JSON.stringify(description, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))
}

/** The genesis deploying `validators` as the Marlowe reference scripts. */
export function sandboxGenesis(validators: MarloweValidators): SandboxGenesis {
  const referenceScripts = sandboxReferenceScripts(validators)
  const outputs: readonly GenesisOutput[] = Object.freeze([
    ...SANDBOX_WALLETS.flatMap((w) => walletOutputs(w, WALLET_GENESIS_LOVELACE)),
    ...walletOutputs(SANDBOX_FAUCET, [FAUCET_GENESIS_LOVELACE]),
    ...Object.values(referenceScripts).map((r) => ({
      ref: r.ref,
      address: r.address,
      lovelace: r.lovelace,
      scriptRef: r.script
    }))
  ])
  return Object.freeze({
    id: blake2bHex(new TextEncoder().encode(describeGenesis(outputs)), 32),
    outputs,
    txIds: Object.freeze([...new Set(outputs.map((o) => o.ref.txId))]),
    referenceScripts,
    standIn: validators === STAND_IN_VALIDATORS
  })
}

/** The genesis of a sandbox on the stand-ins. */
export const STAND_IN_GENESIS = sandboxGenesis(STAND_IN_VALIDATORS)
export const GENESIS_OUTPUTS: readonly GenesisOutput[] = STAND_IN_GENESIS.outputs
export const GENESIS_ID = STAND_IN_GENESIS.id
