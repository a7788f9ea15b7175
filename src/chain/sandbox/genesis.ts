/**
 * The sandbox genesis, the same for every sandbox: each wallet's 10,000 ada in four outputs (the last a
 * pure-ada, collateral-sized 5 ada), the faucet's funds, and the stand-in Marlowe reference scripts. Outputs sit
 * in synthetic transactions with fixed ids (`genesisTxId`). `GENESIS_ID` hashes all of it with the protocol
 * parameters, so a saved ledger made by a different genesis is recognised and refused.
 */
import { blake2bHex } from '../../core/blake2b'
import type { TxOutRef } from '../provider'
import { SANDBOX_BLAZE_PARAMS, toProtocolParameters } from './params'
import { genesisTxId, SANDBOX_REFERENCE_SCRIPTS } from './reference-scripts'
import type { StandInScript } from './stand-ins'
import { SANDBOX_FAUCET, SANDBOX_WALLETS, type SandboxWallet } from './wallets'

export interface GenesisOutput {
  readonly ref: TxOutRef
  readonly address: string
  readonly lovelace: bigint
  readonly scriptRef?: StandInScript
}

const ADA = 1_000_000n
/** 10,000 ada per wallet; the last output is the collateral-sized one. */
export const WALLET_GENESIS_LOVELACE: readonly bigint[] = [5_000n * ADA, 3_000n * ADA, 1_995n * ADA, 5n * ADA]
export const FAUCET_GENESIS_LOVELACE = 100_000_000n * ADA

function walletOutputs(wallet: SandboxWallet, amounts: readonly bigint[]): GenesisOutput[] {
  const txId = genesisTxId(`wallet ${wallet.name}`)
  return amounts.map((lovelace, index) => ({ ref: { txId, index }, address: wallet.address, lovelace }))
}

export const GENESIS_OUTPUTS: readonly GenesisOutput[] = Object.freeze([
  ...SANDBOX_WALLETS.flatMap((w) => walletOutputs(w, WALLET_GENESIS_LOVELACE)),
  ...walletOutputs(SANDBOX_FAUCET, [FAUCET_GENESIS_LOVELACE]),
  ...Object.values(SANDBOX_REFERENCE_SCRIPTS).map((r) => ({
    ref: r.ref,
    address: r.address,
    lovelace: r.lovelace,
    scriptRef: r.script
  }))
])

export const GENESIS_TX_IDS: readonly string[] = Object.freeze([...new Set(GENESIS_OUTPUTS.map((o) => o.ref.txId))])

function describeGenesis(): string {
  const outputs = GENESIS_OUTPUTS.map((o) => [
    o.ref.txId,
    o.ref.index,
    o.address,
    o.lovelace,
    o.scriptRef?.hash ?? null
  ])
  const description = { version: 1, outputs, params: toProtocolParameters(SANDBOX_BLAZE_PARAMS) }
  return JSON.stringify(description, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))
}

/** Names this genesis (outputs + parameters); also the hash of block 0. */
export const GENESIS_ID = blake2bHex(new TextEncoder().encode(describeGenesis()), 32)
