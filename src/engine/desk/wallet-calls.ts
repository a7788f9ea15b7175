/**
 * `app.status`, `wallets.*` and `sandbox.*`. Passwords and phrases go into the keystore and never come back;
 * the one exception is the phrase of a wallet just created, returned once for the user to write down. Exports
 * are of public keys only.
 */
import { walletActivity } from './activity'
import type { DeskContext } from './context'
import { deskFailure } from './errors'
import type { HandlersOf } from './handlers'

const LOVELACE_PER_ADA = 1_000_000n

type WalletCall =
  | 'app.status'
  | 'wallets.list'
  | 'wallets.create'
  | 'wallets.restore'
  | 'wallets.watch'
  | 'wallets.unlock'
  | 'wallets.lock'
  | 'wallets.balance'
  | 'wallets.rename'
  | 'wallets.remove'
  | 'wallets.changePassword'
  | 'wallets.exportPublic'
  | 'wallets.activity'
  | 'sandbox.fund'
  | 'sandbox.advance'

/** A file name from the wallet's name, so the user finds the file again among their downloads. */
function accountKeyFileName(walletName: string): string {
  const stem = walletName
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
  return `${stem === '' ? 'wallet' : stem}.account.vkey`
}

function sandboxOf(ctx: DeskContext) {
  if (ctx.sandbox === undefined) {
    throw deskFailure(
      'BadRequest',
      'SandboxOnly',
      `the faucet and the clock exist only on the sandbox, not on ${ctx.provider.network}`,
      { network: ctx.provider.network }
    )
  }
  return ctx.sandbox
}

export function walletCalls(ctx: DeskContext): HandlersOf<WalletCall> {
  return {
    'app.status': () => ctx.status(),

    'wallets.list': () => ctx.wallets.list(),

    'wallets.create': async ({ name, password, words }) => {
      const created = await ctx.keystore.create({ name, password, ...(words === undefined ? {} : { words }) })
      return { wallet: await ctx.wallets.summary(created.wallet.id), mnemonic: created.mnemonic }
    },

    'wallets.restore': async ({ name, password, mnemonic }) =>
      ctx.wallets.summary((await ctx.keystore.restore({ name, password, mnemonic })).id),

    'wallets.watch': async ({ name, accountKey }) =>
      ctx.wallets.summary((await ctx.keystore.importWatchOnly({ name, accountKey })).id),

    'wallets.unlock': async ({ walletId, password }) => {
      // The keystore's scrypt takes a moment, by design.
      await ctx.progress.run('wallets.unlock', 'Unlocking the wallet', 1, () => ctx.keystore.unlock(walletId, password))
      return ctx.wallets.summary(walletId)
    },

    'wallets.lock': ({ walletId }) => {
      ctx.keystore.lock(walletId)
      return ctx.wallets.summary(walletId)
    },

    'wallets.balance': ({ walletId }) => ctx.wallets.balance(walletId),

    'wallets.rename': async ({ walletId, name }) => {
      await ctx.keystore.rename(walletId, name)
      return ctx.wallets.summary(walletId)
    },

    'wallets.remove': async ({ walletId, confirmName }) => {
      await ctx.keystore.delete(walletId, confirmName)
      return { walletId }
    },

    'wallets.changePassword': async ({ walletId, oldPassword, newPassword }) => {
      await ctx.keystore.changePassword(walletId, oldPassword, newPassword)
      return ctx.wallets.summary(walletId)
    },

    'wallets.exportPublic': async ({ walletId }) => {
      const info = await ctx.keystore.get(walletId)
      if (info.kind === 'single-key') {
        throw deskFailure(
          'BadRequest',
          'NoAccountKey',
          `wallet "${info.name}" was imported from a single key file and has no account key to export`,
          { walletId }
        )
      }
      const { bech32, envelope } = await ctx.keystore.exportAccountKey(walletId)
      return { accountKey: bech32, file: { fileName: accountKeyFileName(info.name), text: envelope } }
    },

    'wallets.activity': (request) => walletActivity(ctx, request),

    'sandbox.fund': async ({ walletId, ada }) => {
      const sandbox = sandboxOf(ctx)
      const { address } = await ctx.wallets.summary(walletId)
      const fund = () => sandbox.fund(address, ada * LOVELACE_PER_ADA)
      const { txId } = await ctx.progress.run('sandbox.fund', 'Asking the faucet', 1, fund)
      return { txId }
    },

    'sandbox.advance': async ({ toTime }) => {
      await sandboxOf(ctx).advanceTo(toTime)
      return ctx.status()
    }
  }
}
