import { describe, expect, it } from 'vitest'
import { bech32 } from '@scure/base'
import { CSL } from '../../../src/csl'
import { parseTextEnvelope } from '../../../src/core/cardano/envelope'
import { bytesToHex } from '../../../src/core/bytes'
import { CARDANO_ADDRESSES, CIP19, CSL_VECTORS, openKeystore, PASSWORD } from './support'

function bech32Bytes(text: string): string {
  return bytesToHex(bech32.fromWords(bech32.decode(text as `${string}1${string}`, 1023).words))
}

/** The key bytes of an exported key file (after the CBOR byte-string header). */
function envelopeKey(text: string): string {
  return bytesToHex(parseTextEnvelope(text).cbor.subarray(2))
}

describe('CIP-1852 derivation against published vectors', () => {
  it.each(CSL_VECTORS)('derives the CSL test addresses of the $words-word phrase', async (vector) => {
    const keystore = await openKeystore()
    const wallet = await keystore.restore({
      name: `${vector.words} words`,
      password: PASSWORD,
      mnemonic: vector.mnemonic
    })
    for (const [network, net] of [
      ['mainnet', 'mainnet'],
      ['preprod', 'testnet'],
      ['preview', 'testnet'],
      ['sandbox', 'testnet']
    ] as const) {
      const [first] = await keystore.addresses(wallet.id, network)
      expect(first?.base).toBe(vector.base[net])
      expect(first?.enterprise).toBe(vector.enterprise[net])
      expect(first?.path).toEqual({ kind: 'derived', account: 0, role: 'payment', index: 0 })
      if ('reward' in vector) expect(await keystore.rewardAddress(wallet.id, network)).toBe(vector.reward[net])
    }
  })

  it('derives the CIP-19 payment key from the 12-word phrase', async () => {
    const keystore = await openKeystore()
    const wallet = await keystore.restore({ name: 'cip19', password: PASSWORD, mnemonic: CSL_VECTORS[0].mnemonic })
    const vkey = await keystore.exportVerificationKey(wallet.id)
    expect(envelopeKey(vkey)).toBe(bech32Bytes(CIP19.paymentKey))
    const [first] = await keystore.addresses(wallet.id, 'mainnet')
    expect(first?.keyHash).toBe(CIP19.paymentKeyHash)
  })

  describe('the cardano-addresses walk-through', () => {
    const setup = async () => {
      const keystore = await openKeystore()
      const wallet = await keystore.restore({ name: 'ca', password: PASSWORD, mnemonic: CARDANO_ADDRESSES.mnemonic })
      return { keystore, wallet }
    }

    it("names the wallet by cardano-address's wallet id of the account key", async () => {
      const { wallet } = await setup()
      expect(wallet.id).toBe(CARDANO_ADDRESSES.walletId)
    })

    it('exports the public half of the published account private key', async () => {
      const { keystore, wallet } = await setup()
      const xsk = CSL.Bip32PrivateKey.from_bytes(
        bech32.fromWords(bech32.decode(CARDANO_ADDRESSES.accountXsk as `acct_xsk1${string}`, 1023).words)
      )
      const xvk = xsk.to_public()
      const expected = bech32.encode('acct_xvk', bech32.toWords(xvk.as_bytes()), 1023)
      xvk.free()
      xsk.free()
      const exported = await keystore.exportAccountKey(wallet.id)
      expect(exported.bech32).toBe(expected)
      expect(wallet.kind === 'hd' && wallet.account.publicKey).toBe(expected)
    })

    it('exports the payment and stake extended verification keys', async () => {
      const { keystore, wallet } = await setup()
      const payment = await keystore.exportVerificationKey(wallet.id, { extended: true })
      expect(envelopeKey(payment)).toBe(bech32Bytes(CARDANO_ADDRESSES.paymentXvk))
      expect(parseTextEnvelope(payment).type).toBe('PaymentExtendedVerificationKeyShelley_ed25519_bip32')
      const stake = await keystore.exportVerificationKey(wallet.id, { role: 'stake', extended: true })
      expect(envelopeKey(stake)).toBe(bech32Bytes(CARDANO_ADDRESSES.stakeXvk))
      expect(parseTextEnvelope(stake).type).toBe('StakeExtendedVerificationKeyShelley_ed25519_bip32')
      const stakeShort = await keystore.exportVerificationKey(wallet.id, { role: 'stake' })
      expect(parseTextEnvelope(stakeShort).type).toBe('StakeVerificationKeyShelley_ed25519')
      expect(envelopeKey(stakeShort)).toBe(bech32Bytes(CARDANO_ADDRESSES.stakeXvk).slice(0, 64))
    })

    it('derives the published key hashes and testnet addresses', async () => {
      const { keystore, wallet } = await setup()
      const [first] = await keystore.addresses(wallet.id, 'preprod')
      expect(first).toEqual({
        path: { kind: 'derived', account: 0, role: 'payment', index: 0 },
        keyHash: CARDANO_ADDRESSES.paymentKeyHash,
        base: CARDANO_ADDRESSES.baseTestnet,
        enterprise: CARDANO_ADDRESSES.enterpriseTestnet
      })
      expect(await keystore.rewardAddress(wallet.id, 'preprod')).toBe(CARDANO_ADDRESSES.rewardTestnet)
      const owned = await keystore.ownedKeyHashes(wallet.id)
      expect(owned.get(CARDANO_ADDRESSES.stakeKeyHash)).toEqual({
        kind: 'derived',
        account: 0,
        role: 'stake',
        index: 0
      })
    })
  })

  it('accepts the 12-, 15- and 24-word phrases of other wallets, and they give different wallets', async () => {
    const keystore = await openKeystore()
    const ids = []
    for (const vector of CSL_VECTORS) {
      ids.push(
        (await keystore.restore({ name: `${vector.words} words`, password: PASSWORD, mnemonic: vector.mnemonic })).id
      )
    }
    expect(new Set(ids).size).toBe(3)
    expect((await keystore.list()).wallets.map((w) => w.id).sort()).toEqual([...ids].sort())
  })
})
