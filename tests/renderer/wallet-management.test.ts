// @vitest-environment happy-dom
/**
 * Managing the wallet in use on the Wallet screen: rename it, change its password (the rule shown before submit),
 * export its account public key for a watch-only copy (text and a cardano-cli file, with what to do with them),
 * and remove it once its name is typed.
 */
import { flushPromises, type VueWrapper } from '@vue/test-utils'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { DeskError, type WalletSummary } from '../../src/api/contract'
import App from '../../src/renderer/src/App.vue'
import { FakeDesk, mountWithDesk } from './support/desk'
import { NOTHING_HELD } from './support/balance'
import { WALLET, status } from './support/desk-answers'

const NOW = 1_900_000_000_000n
const ACCOUNT_KEY = `acct_xvk1${'q'.repeat(100)}`
const KEY_FILE = '{\n  "type": "AccountExtendedVerificationKeyShelley_ed25519_bip32"\n}\n'
const SECOND: WalletSummary = {
  id: '22'.repeat(20),
  name: 'Second',
  kind: 'signing-key',
  locked: true,
  address: 'addr_test1vz2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzerspjrlsz'
}

afterEach(() => vi.restoreAllMocks())

/** The app on the Wallet screen, over an engine that keeps `wallets` and each one's password. */
async function walletScreen(initial: readonly WalletSummary[]) {
  let wallets = [...initial]
  const passwords = new Map(initial.map((w) => [w.id, 'old password']))
  const find = (walletId: string): WalletSummary => {
    const wallet = wallets.find((w) => w.id === walletId)
    if (wallet === undefined) throw new DeskError('WalletNotFound', `No wallet ${walletId}.`)
    return wallet
  }
  const desk = new FakeDesk({
    'app.status': () => status(NOW),
    'wallets.list': () => wallets,
    'wallets.balance': ({ walletId }) => ({
      walletId,
      address: find(walletId).address,
      lovelace: 0n,
      assets: [],
      utxoCount: 0,
      utxos: [],
      ...NOTHING_HELD
    }),
    'wallets.rename': ({ walletId, name }) => {
      const renamed = { ...find(walletId), name }
      wallets = wallets.map((w) => (w.id === walletId ? renamed : w))
      return renamed
    },
    'wallets.changePassword': ({ walletId, oldPassword, newPassword }) => {
      if (passwords.get(walletId) !== oldPassword) throw new DeskError('WrongPassword', 'Wrong password.')
      passwords.set(walletId, newPassword)
      return find(walletId)
    },
    'wallets.exportPublic': ({ walletId }) => {
      find(walletId)
      return { accountKey: ACCOUNT_KEY, file: { fileName: 'test-wallet.account.vkey', text: KEY_FILE } }
    },
    'wallets.remove': ({ walletId, confirmName }) => {
      if (find(walletId).name !== confirmName) throw new DeskError('DeleteNotConfirmed', 'Not confirmed.')
      wallets = wallets.filter((w) => w.id !== walletId)
      return { walletId }
    }
  })
  const mounted = await mountWithDesk(App, desk, { path: '/wallet' })
  await flushPromises()
  return { desk, passwords, ...mounted }
}

const byId = (wrapper: VueWrapper, id: string) => wrapper.get(`[data-testid=${id}]`)
const disabled = (wrapper: VueWrapper, id: string) => byId(wrapper, id).attributes('disabled') !== undefined

describe('managing the wallet in use', () => {
  test('rename: the new name shows in the heading and the picker', async () => {
    const { wrapper, desk } = await walletScreen([WALLET, SECOND])
    expect(wrapper.get('h1').text()).toBe(WALLET.name)
    expect(disabled(wrapper, 'wallet-rename')).toBe(true)
    await byId(wrapper, 'rename-name').setValue('  ')
    expect(disabled(wrapper, 'wallet-rename')).toBe(true)
    await byId(wrapper, 'rename-name').setValue(' Savings ')
    await byId(wrapper, 'wallet-rename').trigger('submit')
    await flushPromises()
    expect(desk.requests('wallets.rename')).toEqual([{ walletId: WALLET.id, name: 'Savings' }])
    expect(byId(wrapper, 'wallet-renamed').text()).toBe('Renamed to “Savings”.')
    expect(wrapper.get('h1').text()).toBe('Savings')
    expect(
      byId(wrapper, 'wallet-picker')
        .findAll('option')
        .map((o) => o.text())
    ).toEqual(['Savings', 'Second'])
  })

  test('change password: the rule is shown before submit, a short or mistyped new password cannot be sent', async () => {
    const { wrapper, desk, passwords } = await walletScreen([WALLET])
    const manage = byId(wrapper, 'wallet-manage')
    expect(manage.get('[data-testid=password-rule]').text()).toContain('At least 8 characters.')
    expect(disabled(wrapper, 'change-password')).toBe(true)

    await byId(wrapper, 'old-password').setValue('old password')
    await byId(wrapper, 'wallet-password').setValue('short')
    await byId(wrapper, 'wallet-password-again').setValue('short')
    expect(byId(wrapper, 'password-rule').text()).toContain('At least 8 characters (so far 5).')
    expect(byId(wrapper, 'password-rule').classes()).toContain('field-error')
    expect(disabled(wrapper, 'change-password')).toBe(true)

    // Eight characters as people count them: emoji are one each.
    await byId(wrapper, 'wallet-password').setValue('🔑🔑🔑🔑🔑🔑🔑')
    expect(byId(wrapper, 'password-rule').text()).toContain('(so far 7)')
    await byId(wrapper, 'wallet-password').setValue('a new password')
    await byId(wrapper, 'wallet-password-again').setValue('a new passwore')
    expect(byId(wrapper, 'password-rule').classes()).toContain('hint')
    expect(disabled(wrapper, 'change-password')).toBe(true)
    await byId(wrapper, 'wallet-password-again').setValue('a new password')
    expect(disabled(wrapper, 'change-password')).toBe(false)

    // A wrong current password: the engine's refusal is shown, nothing changes.
    await byId(wrapper, 'old-password').setValue('not the password')
    await byId(wrapper, 'change-password').trigger('submit')
    await flushPromises()
    expect(wrapper.text()).toContain('Wrong password.')
    expect(passwords.get(WALLET.id)).toBe('old password')

    await byId(wrapper, 'old-password').setValue('old password')
    await byId(wrapper, 'change-password').trigger('submit')
    await flushPromises()
    expect(desk.requests('wallets.changePassword').at(-1)).toEqual({
      walletId: WALLET.id,
      oldPassword: 'old password',
      newPassword: 'a new password'
    })
    expect(passwords.get(WALLET.id)).toBe('a new password')
    expect(byId(wrapper, 'password-changed').text()).toContain('Password changed.')
    // Nothing typed stays in the form.
    for (const id of ['old-password', 'wallet-password', 'wallet-password-again']) {
      expect((byId(wrapper, id).element as HTMLInputElement).value).toBe('')
    }
  })

  test('a watch-only wallet has no password to change', async () => {
    const { wrapper } = await walletScreen([{ ...WALLET, kind: 'watch-only', locked: true }])
    expect(wrapper.find('[data-testid=manage-password]').exists()).toBe(false)
    expect(wrapper.find('[data-testid=change-password]').exists()).toBe(false)
  })

  test('export: the acct_xvk text, a cardano-cli file download, and what to do with them elsewhere', async () => {
    const saved: Array<{ name: string; text: Promise<string> }> = []
    const blobs = new Map<string, Blob>()
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      const url = `blob:test/${blobs.size}`
      blobs.set(url, blob as Blob)
      return url
    })
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined)
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ name: this.download, text: blobs.get(this.href)!.text() })
    })
    const { wrapper, desk } = await walletScreen([WALLET])
    await byId(wrapper, 'export-public').trigger('click')
    await flushPromises()
    expect(desk.requests('wallets.exportPublic')).toEqual([{ walletId: WALLET.id }])
    expect(byId(wrapper, 'export-public-key').text()).toBe(ACCOUNT_KEY)
    const howTo = byId(wrapper, 'export-public-howto').text()
    expect(howTo).toContain('Add a wallet, then Watch-only, and paste the key above')
    expect(howTo).toContain('marlowe-desk keys watch test-wallet.account.vkey --name "Test wallet"')
    expect(wrapper.find('[data-testid=export-public-saved]').exists()).toBe(false)

    await byId(wrapper, 'export-public-file').trigger('click')
    expect(saved.map((s) => s.name)).toEqual(['test-wallet.account.vkey'])
    expect(await saved[0]!.text).toBe(KEY_FILE)
    expect(byId(wrapper, 'export-public-saved').text()).toBe('Saved test-wallet.account.vkey to your downloads.')
  })

  test('a wallet from a single key file has no account key to export', async () => {
    const { wrapper } = await walletScreen([SECOND])
    expect(byId(wrapper, 'export-public-none').text()).toContain('has no account public key')
    expect(wrapper.find('[data-testid=export-public]').exists()).toBe(false)
  })

  test('remove: only once the exact name is typed; the next wallet is in use after', async () => {
    const { wrapper, desk } = await walletScreen([WALLET, SECOND])
    expect(byId(wrapper, 'wallet-manage').text()).toContain('add it back from its recovery phrase')
    expect(disabled(wrapper, 'wallet-remove')).toBe(true)
    await byId(wrapper, 'remove-confirm-name').setValue('test wallet')
    expect(disabled(wrapper, 'wallet-remove')).toBe(true)
    await byId(wrapper, 'remove-confirm-name').setValue(WALLET.name)
    expect(disabled(wrapper, 'wallet-remove')).toBe(false)
    await byId(wrapper, 'wallet-remove').trigger('submit')
    await flushPromises()
    expect(desk.requests('wallets.remove')).toEqual([{ walletId: WALLET.id, confirmName: WALLET.name }])
    expect(wrapper.get('h1').text()).toBe('Second')
    expect(
      byId(wrapper, 'wallet-picker')
        .findAll('option')
        .map((o) => o.text())
    ).toEqual(['Second'])
    expect(byId(wrapper, 'wallet-manage').text()).toContain('add it back from its key file')
    expect((byId(wrapper, 'remove-confirm-name').element as HTMLInputElement).value).toBe('')
  })

  test('removing the last wallet goes back to the welcome screen', async () => {
    const { wrapper, router } = await walletScreen([WALLET])
    await byId(wrapper, 'remove-confirm-name').setValue(WALLET.name)
    await byId(wrapper, 'wallet-remove').trigger('submit')
    await flushPromises()
    expect(router.currentRoute.value.name).toBe('welcome')
    expect(wrapper.get('h1').text()).toBe('Welcome to Marlowe Desk')
  })
})
