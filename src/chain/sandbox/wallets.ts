/**
 * The sandbox's prefunded wallets. Their mnemonics are PUBLIC TEST MNEMONICS, fixed here so every sandbox
 * starts with the same wallets and addresses: never send real funds to them. Each mnemonic encodes the entropy
 * blake2b-256("marlowe-desk sandbox wallet <name>") as 24 BIP-39 English words.
 *
 * Keys follow CIP-1852: payment m/1852'/1815'/0'/0/0, stake m/1852'/1815'/0'/2/0; the address is the base
 * address of both keys with network id 0.
 */
import { mnemonicToEntropy } from '@scure/bip39'
import { wordlist } from '@scure/bip39/wordlists/english.js'
import { bytesToHex } from '../../core/bytes'
import { withCsl, CSL, rootKeyFromEntropy } from '../../csl'

export type SandboxWalletName = 'alice' | 'bob' | 'carol' | 'dave' | 'faucet'

export interface SandboxWallet {
  readonly name: SandboxWalletName
  readonly mnemonic: string
  /** Base address (payment + stake key), network id 0, bech32. */
  readonly address: string
  readonly paymentKeyHash: string
  readonly stakeKeyHash: string
  /** The 64-byte extended Ed25519 payment signing key (CSL `PrivateKey.from_extended_bytes`). A test key. */
  readonly paymentSigningKey: Uint8Array
}

const MNEMONICS: Readonly<Record<SandboxWalletName, string>> = {
  alice:
    'appear balance material faculty liberty scrub return begin unfold elite penalty sunset soap amused scatter resource poverty grief buzz pulse tackle club file legend',
  bob: 'custom track rebel reject among loop host regret century jeans jazz steel iron split fall fit pattern donor sweet interest dentist crawl metal boring',
  carol:
    'west cushion burst woman airport sad foam goose bird bless elevator win census senior van train radio diamond fun federal ranch matrix body catch',
  dave: 'theme food travel vacant loyal obscure surprise put comic exotic door mansion kick quote expand coin item situate hockey matter near post year yellow',
  faucet:
    'glass fiction anchor lunar obscure armed honey snake candy exhibit gossip certain gain truth tank core output soap kit analyst canal thing relief now'
}

const HARDENED = 0x80000000
const SANDBOX_NETWORK_ID = 0

/** The wallet of a mnemonic (empty passphrase), as the sandbox derives its own. */
export function walletFromMnemonic(name: SandboxWalletName, mnemonic: string): SandboxWallet {
  return withCsl((s) => {
    const root = s.own(rootKeyFromEntropy(mnemonicToEntropy(mnemonic, wordlist)))
    const account = s.own(s.own(s.own(root.derive(HARDENED + 1852)).derive(HARDENED + 1815)).derive(HARDENED + 0))
    const payment = s.own(s.own(account.derive(0)).derive(0))
    const stake = s.own(s.own(account.derive(2)).derive(0))
    const paymentKey = s.own(payment.to_raw_key())
    const paymentHash = s.own(s.own(paymentKey.to_public()).hash())
    const stakeHash = s.own(s.own(s.own(stake.to_raw_key()).to_public()).hash())
    const base = s.own(
      CSL.BaseAddress.new(
        SANDBOX_NETWORK_ID,
        s.own(CSL.Credential.from_keyhash(paymentHash)),
        s.own(CSL.Credential.from_keyhash(stakeHash))
      )
    )
    return Object.freeze({
      name,
      mnemonic,
      address: s.own(base.to_address()).to_bech32(undefined),
      paymentKeyHash: bytesToHex(paymentHash.to_bytes()),
      stakeKeyHash: bytesToHex(stakeHash.to_bytes()),
      paymentSigningKey: paymentKey.as_bytes()
    })
  })
}

/** alice, bob, carol and dave: 10,000 ada each at genesis. */
export const SANDBOX_WALLETS: readonly SandboxWallet[] = Object.freeze(
  (['alice', 'bob', 'carol', 'dave'] as const).map((name) => walletFromMnemonic(name, MNEMONICS[name]))
)

/** The faucet's wallet: `SandboxProvider.fund` pays from it. */
export const SANDBOX_FAUCET: SandboxWallet = walletFromMnemonic('faucet', MNEMONICS.faucet)

export function sandboxWallet(name: SandboxWalletName): SandboxWallet {
  if (name === 'faucet') return SANDBOX_FAUCET
  const wallet = SANDBOX_WALLETS.find((w) => w.name === name)
  if (wallet === undefined) throw new Error(`no sandbox wallet named ${name}`)
  return wallet
}

/** Adds each wallet's payment-key witness to a transaction, keeping its body bytes (and so its id) as they are. */
export function signWithSandboxWallets(tx: Uint8Array, wallets: readonly SandboxWallet[]): Uint8Array {
  return withCsl((s) => {
    const fixed = s.own(CSL.FixedTransaction.from_bytes(tx))
    for (const w of wallets)
      fixed.sign_and_add_vkey_signature(s.own(CSL.PrivateKey.from_extended_bytes(w.paymentSigningKey)))
    return fixed.to_bytes()
  })
}
