/**
 * Real reviews for the review screen's tests: an escrow with three role tokens built by the engine's own
 * builder on a sandbox ledger, then the buyer's deposit into it, each reviewed by the core's
 * `reviewTransaction` with the context the engine gives it (resolved inputs, eras, parameters, Marlowe scripts,
 * the signer's wallet). The builder is Node code outside this project (tsconfig.web.json), so it is loaded at
 * run time by a computed path and typed here by the little these tests use.
 */
import { reviewTransaction } from '../../../src/core/cardano/review'
import type { TxReview } from '../../../src/core/cardano/review/types'
import type { TxIn } from '../../../src/core/cardano/tx'
import type { Contract, Input } from '../../../src/core/marlowe/types'

interface TestWallet {
  /** How the review names the wallet (the engine names it by its wallet id). */
  readonly name: string
  readonly address: string
  readonly paymentKeyHash: string
}

interface Built {
  readonly tx: Uint8Array
  readonly txId: string
  readonly reservation: { readonly key: string }
}

interface Harness {
  readonly clock: { now(): number }
  readonly builder: {
    create(
      wallet: { changeAddress: string },
      request: {
        contract: Contract
        roles: {
          type: 'Mint'
          roles: ReadonlyArray<{
            name: string
            recipients: ReadonlyArray<{ destination: { address: string }; quantity: bigint }>
          }>
        }
        tags: Record<string, null>
      }
    ): Promise<Built & { readonly contractId: TxIn; readonly rolesCurrency: string; readonly datumBytes: Uint8Array }>
    applyInputs(
      wallet: { changeAddress: string },
      request: { contractId: TxIn; marloweUtxo: TxIn; datum: Uint8Array; inputs: readonly Input[] }
    ): Promise<Built>
  }
  submit(built: Built, signers: readonly TestWallet[]): Promise<string>
  close(): Promise<void>
}

interface BuildSupport {
  harness(): Harness
  /** The review of `tx` for `wallet` with the context the engine gives it, at the harness's clock or `now`. */
  reviewFor(h: Harness, tx: Uint8Array, wallet: TestWallet, now?: bigint): Promise<TxReview>
  testWallet(name: 'alice' | 'bob' | 'carol'): TestWallet
  ADA: bigint
}

// Computed, so that the type checker of this (browser) project does not follow them into Node code.
const modules = {
  support: '../../engine/build/support',
  flows: '../../engine/build/flows'
}

/** The wallets' ids here: 40 lowercase hex characters, as the engine's keystore makes them. */
const WALLET_IDS = { alice: 'a1'.repeat(20), bob: 'b0'.repeat(20), carol: 'c4'.repeat(20) } as const

export interface EngineReviews {
  /** Carol opens the escrow: mints Buyer to alice, Seller to bob, Mediator to carol; reviewed for carol. */
  readonly create: TxReview
  /** Alice, as Buyer, deposits the price; reviewed for alice. */
  readonly deposit: TxReview
  /** The same deposit reviewed for alice without its inputs (a bare transaction file, no bundle). */
  readonly unreadDeposit: TxReview
  /** The same deposit reviewed as if a year had passed: it has expired (a danger warning). */
  readonly expiredDeposit: TxReview
  /** `txid#index`, as the API names contracts. */
  readonly contractId: string
  readonly rolesCurrency: string
  /** Each wallet with its id, by which the reviews name it (as the engine's do). */
  readonly wallets: Readonly<Record<'alice' | 'bob' | 'carol', TestWallet & { readonly id: string }>>
  readonly price: bigint
}

export async function engineReviews(): Promise<EngineReviews> {
  const support = (await import(/* @vite-ignore */ modules.support)) as BuildSupport
  const { rolesEscrow } = (await import(/* @vite-ignore */ modules.flows)) as { rolesEscrow(): Contract }
  const [alice, bob, carol] = (['alice', 'bob', 'carol'] as const).map((n) => ({
    ...support.testWallet(n),
    id: WALLET_IDS[n]
  })) as [TestWallet & { id: string }, TestWallet & { id: string }, TestWallet & { id: string }]
  const h = support.harness()
  const review = (tx: Uint8Array, wallet: TestWallet & { id: string }, now?: bigint): Promise<TxReview> =>
    support.reviewFor(h, tx, { ...wallet, name: wallet.id }, now)
  try {
    const to = (w: TestWallet) => [{ destination: { address: w.address }, quantity: 1n }]
    const created = await h.builder.create(
      { changeAddress: carol.address },
      {
        contract: rolesEscrow(),
        roles: {
          type: 'Mint',
          roles: [
            { name: 'Buyer', recipients: to(alice) },
            { name: 'Seller', recipients: to(bob) },
            { name: 'Mediator', recipients: to(carol) }
          ]
        },
        tags: { 'desk.renderer-test': null }
      }
    )
    const create = await review(created.tx, carol)
    await h.submit(created, [carol])
    const price = 100n * support.ADA
    const paid = await h.builder.applyInputs(
      { changeAddress: alice.address },
      {
        contractId: created.contractId,
        marloweUtxo: created.contractId,
        datum: created.datumBytes,
        inputs: [
          {
            content: {
              type: 'IDeposit',
              account: { type: 'Role', role: 'Seller' },
              party: { type: 'Role', role: 'Buyer' },
              token: { currencySymbol: '', tokenName: '' },
              amount: price
            }
          }
        ]
      }
    )
    const deposit = await review(paid.tx, alice)
    const aYearLater = BigInt(h.clock.now()) + 365n * 86_400_000n
    return {
      create,
      deposit,
      unreadDeposit: reviewTransaction(paid.tx, {
        wallets: [{ id: alice.name, addresses: [alice.address], keyHashes: [alice.paymentKeyHash] }],
        networkId: 0
      }),
      expiredDeposit: await review(paid.tx, alice, aYearLater),
      contractId: `${created.contractId.txId}#${created.contractId.index}`,
      rolesCurrency: created.rolesCurrency,
      wallets: { alice, bob, carol },
      price
    }
  } finally {
    await h.close()
  }
}
