/**
 * Test support for the builders: a sandbox on a hand-moved clock, the sandbox wallets' keys derived from their
 * mnemonics with plain CSL (CIP-1852 m/1852'/1815'/0'/0/0), signing and submitting.
 */
import { mnemonicToEntropy } from '@scure/bip39'
import { wordlist } from '@scure/bip39/wordlists/english.js'
import { deploymentOf } from '../../../src/chain/deployments'
import { validatorsFromEnv } from '../../chain/support/sandbox'
import { SandboxProvider, sandboxWallet, type SandboxOptions, type SandboxWalletName } from '../../../src/chain/sandbox'
import { reviewTransaction } from '../../../src/core/cardano/review'
import type { ReviewContext, TxReview } from '../../../src/core/cardano/review/types'
import { decodeTransaction } from '../../../src/core/cardano/tx'
import { InMemoryInputReservations, MarloweTxBuilder } from '../../../src/engine/build'
import type { BuilderOptions, SafetyError } from '../../../src/engine/build'
import type { ChainProvider } from '../../../src/chain/provider'
import { CSL, withCsl } from '../../../src/csl'
import { EngineError } from '../../../src/engine/errors'

/** 2025-01-01T00:00:00Z: slot 0 of every test sandbox. */
export const T0 = 1_735_689_600_000n
export const ADA = 1_000_000n

export class ManualClock {
  constructor(public ms: bigint = T0 + 10_000n) {}
  readonly now = (): number => Number(this.ms)
}

export interface TestWallet {
  readonly name: SandboxWalletName
  readonly address: string
  readonly paymentKeyHash: string
  /** 64-byte extended signing key. */
  readonly key: Uint8Array
}

const HARDENED = 0x80000000

/** Derives a sandbox wallet from its public test mnemonic. */
export function testWallet(name: SandboxWalletName): TestWallet {
  const { mnemonic } = sandboxWallet(name)
  return withCsl((s) => {
    const root = s.own(CSL.Bip32PrivateKey.from_bip39_entropy(mnemonicToEntropy(mnemonic, wordlist), new Uint8Array()))
    const account = s.own(s.own(s.own(root.derive(HARDENED + 1852)).derive(HARDENED + 1815)).derive(HARDENED))
    const payment = s.own(s.own(s.own(account.derive(0)).derive(0)).to_raw_key())
    const stake = s.own(s.own(s.own(account.derive(2)).derive(0)).to_raw_key())
    const paymentHash = s.own(s.own(payment.to_public()).hash())
    const stakeHash = s.own(s.own(stake.to_public()).hash())
    const base = s.own(
      CSL.BaseAddress.new(
        0,
        s.own(CSL.Credential.from_keyhash(paymentHash)),
        s.own(CSL.Credential.from_keyhash(stakeHash))
      )
    )
    return {
      name,
      address: s.own(base.to_address()).to_bech32(undefined),
      paymentKeyHash: paymentHash.to_hex(),
      key: payment.as_bytes()
    }
  })
}

export function sign(tx: Uint8Array, signers: readonly TestWallet[]): Uint8Array {
  return withCsl((s) => {
    const fixed = s.own(CSL.FixedTransaction.from_bytes(tx))
    for (const w of signers) fixed.sign_and_add_vkey_signature(s.own(CSL.PrivateKey.from_extended_bytes(w.key)))
    return fixed.to_bytes()
  })
}

export interface Harness {
  readonly sandbox: SandboxProvider
  readonly clock: ManualClock
  readonly builder: MarloweTxBuilder
  readonly reservations: InMemoryInputReservations
  /** Signs with the given wallets, submits, and releases the build's reservation. */
  submit(built: { tx: Uint8Array; reservation: { key: string } }, signers: readonly TestWallet[]): Promise<string>
  close(): Promise<void>
}

export function harness(
  options: Partial<Omit<BuilderOptions, 'provider' | 'reservations'>> = {},
  sandboxOptions: Pick<SandboxOptions, 'validators'> = validatorsFromEnv()
): Harness {
  const clock = new ManualClock()
  const sandbox = SandboxProvider.open({ zeroTime: T0, clockTickMs: false, ...sandboxOptions, now: clock.now })
  const reservations = new InMemoryInputReservations()
  const builder = new MarloweTxBuilder({ provider: sandbox, reservations, now: clock.now, ...options })
  return {
    sandbox,
    clock,
    builder,
    reservations,
    async submit(built, signers) {
      const id = await sandbox.submit(sign(built.tx, signers))
      await builder.release(built.reservation.key)
      return id
    },
    close: () => sandbox.close()
  }
}

/**
 * The review of `tx` for `wallet`, with the context the engine gives it: the inputs resolved on the harness's
 * sandbox, its eras and parameters, the sandbox's Marlowe scripts; at the harness's clock unless `now` is given.
 */
export async function reviewFor(
  h: Pick<Harness, 'sandbox' | 'clock'>,
  tx: Uint8Array,
  wallet: TestWallet,
  now = BigInt(h.clock.now())
): Promise<TxReview> {
  const { body } = decodeTransaction(tx)
  const deployment = deploymentOf(h.sandbox)
  const context: ReviewContext = {
    resolvedInputs: await h.sandbox.utxosByRef([...body.inputs, ...body.collateral, ...body.referenceInputs]),
    eraSummaries: await h.sandbox.eraSummaries(),
    protocolParameters: await h.sandbox.protocolParameters(),
    marloweScripts: {
      [deployment.semantics.hash]: 'marlowe-semantics',
      [deployment.payout.hash]: 'marlowe-payout',
      [deployment.openRole.hash]: 'marlowe-open-role'
    },
    wallets: [{ id: wallet.name, addresses: [wallet.address], keyHashes: [wallet.paymentKeyHash] }],
    now,
    networkId: 0
  }
  return reviewTransaction(tx, context)
}

/**
 * What the cost check adds to the safety errors of a contract on `provider`'s chain: on stand-in scripts a note that
 * only the size was checked; on validators (`MARLOWE_VALIDATORS_DIR`) nothing, since the tests' contracts fit the budget.
 */
export function costCheckNotes(provider: Pick<ChainProvider, 'network' | 'deployment'>): SafetyError[] {
  if (!deploymentOf(provider).standIn) return []
  return [
    {
      error: 'TransactionCostNotChecked',
      detail:
        "The execution cost of the contract's transactions was not checked, only their size: this chain runs stand-in " +
        'Marlowe scripts, not the Marlowe validators.',
      fatal: false
    }
  ]
}

/** The EngineError a build fails with (any other outcome fails the test). */
export async function failure(p: Promise<unknown>): Promise<EngineError> {
  try {
    await p
  } catch (e) {
    if (e instanceof EngineError) return e
    throw e
  }
  throw new Error('expected the build to fail')
}
