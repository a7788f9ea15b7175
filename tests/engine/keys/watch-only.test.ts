import { describe, expect, it } from 'vitest'
import { bech32 } from '@scure/base'
import { parseTextEnvelope } from '../../../src/core/cardano/envelope'
import { bytesToHex } from '../../../src/core/bytes'
import { CARDANO_ADDRESSES, CSL_VECTORS, freshDir, openKeystore, PASSWORD, rejection, snapshot } from './support'

/**
 * A third-party vector (a Dart Cardano wallet library's test of a Daedalus wallet): a 24-word phrase, its
 * account public key and its first testnet base address.
 */
const DAEDALUS = {
  mnemonic:
    'alpha desert more credit sad balance receive sand someone correct used castle present bar shop borrow inmate estate year flip theory recycle measure silk',
  accountXvk:
    'acct_xvk1xfehjaqtvn0vdjqrrfwlgvfk8qedv4fus04thny96lj6rhc2tphsx0wlcdaehpjzjfyj7uref4uqlacrtft55u9ll6eal4h4ac75yzqdnqwtf',
  baseTestnet:
    'addr_test1qr94pw040yeq5x75g38jnsjg95rv6xy4jyttedukatlpd2424kyuyck0xp0a7n7rah0gxj5mq3zdrc6xnaqph967c2kqja24jq'
}

describe('watch-only wallets', () => {
  it('derive the addresses of the account they watch', async () => {
    const keystore = await openKeystore()
    const watch = await keystore.importWatchOnly({ name: 'Watch', accountKey: DAEDALUS.accountXvk })
    expect(watch).toMatchObject({ kind: 'watch-only', account: { index: 0, publicKey: DAEDALUS.accountXvk } })
    expect((await keystore.addresses(watch.id, 'preprod'))[0]?.base).toBe(DAEDALUS.baseTestnet)

    const elsewhere = await openKeystore()
    const full = await elsewhere.restore({ name: 'Full', password: PASSWORD, mnemonic: DAEDALUS.mnemonic })
    expect(full.id).toBe(watch.id)
    expect(full.kind === 'hd' && full.account.publicKey).toBe(DAEDALUS.accountXvk)
    const query = { role: 'change', from: 5, count: 3 } as const
    expect(await keystore.addresses(watch.id, 'mainnet', query)).toEqual(
      await elsewhere.addresses(full.id, 'mainnet', query)
    )
    expect(await keystore.ownedKeyHashes(watch.id, { gap: 5 })).toEqual(
      await elsewhere.ownedKeyHashes(full.id, { gap: 5 })
    )
    expect(await keystore.rewardAddress(watch.id, 'mainnet')).toBe(await elsewhere.rewardAddress(full.id, 'mainnet'))
  })

  it('import the account key file that an HD wallet exports, and export it back the same', async () => {
    const source = await openKeystore()
    const full = await source.restore({ name: 'Full', password: PASSWORD, mnemonic: CARDANO_ADDRESSES.mnemonic })
    const exported = await source.exportAccountKey(full.id)
    const envelope = parseTextEnvelope(exported.envelope)
    expect(envelope.type).toBe('AccountExtendedVerificationKeyShelley_ed25519_bip32')
    expect(envelope.description).toBe("Account Extended Verification Key m/1852'/1815'/0'")
    expect(bytesToHex(envelope.cbor)).toBe(
      `5840${bytesToHex(bech32.fromWords(bech32.decode(exported.bech32 as `acct_xvk1${string}`, 1023).words))}`
    )

    const keystore = await openKeystore()
    const watch = await keystore.importWatchOnly({ name: 'Watch', accountKey: exported.envelope, accountIndex: 0 })
    expect(watch.id).toBe(CARDANO_ADDRESSES.walletId)
    expect(await keystore.exportAccountKey(watch.id)).toEqual(exported)
    expect((await keystore.addresses(watch.id, 'preprod'))[0]?.enterprise).toBe(CARDANO_ADDRESSES.enterpriseTestnet)
  })

  it('report their key hashes and paths under the account index they were given', async () => {
    const keystore = await openKeystore()
    const watch = await keystore.importWatchOnly({ name: 'Watch', accountKey: DAEDALUS.accountXvk, accountIndex: 3 })
    const owned = await keystore.ownedKeyHashes(watch.id, { gap: 2 })
    expect([...owned.values()]).toEqual([
      { kind: 'derived', account: 3, role: 'payment', index: 0 },
      { kind: 'derived', account: 3, role: 'payment', index: 1 },
      { kind: 'derived', account: 3, role: 'change', index: 0 },
      { kind: 'derived', account: 3, role: 'change', index: 1 },
      { kind: 'derived', account: 3, role: 'stake', index: 0 }
    ])
  })

  it('cannot sign, unlock or change a password, and say why', async () => {
    const keystore = await openKeystore()
    const watch = await keystore.importWatchOnly({ name: 'Watch', accountKey: DAEDALUS.accountXvk })
    const [address] = await keystore.addresses(watch.id, 'mainnet')
    const signing = await rejection(keystore.witness(watch.id, new Uint8Array(32), [address!.keyHash]))
    expect([signing.code, signing.kind, signing.message]).toEqual([
      'WatchOnlyWallet',
      'Forbidden',
      'wallet "Watch" is watch-only and holds no signing keys: it can derive addresses but not sign'
    ])
    const unlocking = await rejection(keystore.unlock(watch.id, PASSWORD))
    expect(unlocking.message).toBe('wallet "Watch" is watch-only and has nothing to unlock')
    const changing = await rejection(keystore.changePassword(watch.id, PASSWORD, `${PASSWORD}!`))
    expect(changing.message).toBe('wallet "Watch" is watch-only and has no password')
  })

  it('refuse a second wallet for an account already held', async () => {
    const keystore = await openKeystore()
    await keystore.restore({ name: 'Full', password: PASSWORD, mnemonic: DAEDALUS.mnemonic })
    const error = await rejection(keystore.importWatchOnly({ name: 'Watch', accountKey: DAEDALUS.accountXvk }))
    expect([error.code, error.message]).toEqual(['WalletExists', `this key's wallet already exists: "Full"`])
  })

  const notAPoint = bech32.encode(
    'acct_xvk',
    bech32.toWords(Uint8Array.from({ length: 64 }, (_, i) => (i === 0 ? 2 : 0))),
    1023
  )
  const stakeKeyFile = `{"type":"StakeExtendedVerificationKeyShelley_ed25519_bip32","description":"","cborHex":"5840${'00'.repeat(64)}"}`

  it.each([
    ['a mistyped key', DAEDALUS.accountXvk.replace('xfeh', 'xfen'), 'account key: bech32 checksum is invalid'],
    ['text that is not bech32', 'my account', 'account key: not a bech32 string'],
    [
      'a root key',
      bech32.encode('root_xvk', bech32.toWords(new Uint8Array(64)), 1023),
      'account key: expected a key with the prefix acct_xvk, got root_xvk'
    ],
    ['an address', CSL_VECTORS[0].enterprise.mainnet, 'account key: expected a key with the prefix acct_xvk, got addr'],
    ['a key that is not on the curve', notAPoint, 'account key: not a valid Ed25519 extended public key'],
    [
      'a broken key file',
      '{"type": "PaymentExtendedVerificationKeyShelley_ed25519_bip32"',
      "account key: not a TextEnvelope: invalid JSON at line 1, column 63: expected ',' or '}' in an object"
    ],
    [
      'another key file type',
      stakeKeyFile,
      'account key: expected an AccountExtendedVerificationKeyShelley_ed25519_bip32 key file (or PaymentExtendedVerificationKeyShelley_ed25519_bip32, as earlier versions wrote), got "StakeExtendedVerificationKeyShelley_ed25519_bip32"'
    ]
  ])('reject %s', async (_what, accountKey, message) => {
    const dir = freshDir()
    const keystore = await openKeystore(dir)
    const error = await rejection(keystore.importWatchOnly({ name: 'Watch', accountKey }))
    expect([error.code, error.message]).toEqual(['InvalidKey', message])
    expect(snapshot(dir)).toEqual({})
  })
})
