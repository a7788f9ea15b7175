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

type PublicParts = Pick<SandboxWallet, 'address' | 'paymentKeyHash' | 'stakeKeyHash'>

/**
 * What `walletFromMnemonic` derives for each wallet, written out: deriving five root keys (4096 PBKDF2 rounds
 * each) was a tenth of the server's cold start, and a sandbox needs the addresses at once, the keys only to
 * sign. tests/chain/sandbox/genesis.test.ts derives every wallet again and compares.
 */
const PUBLIC_PARTS: Readonly<Record<SandboxWalletName, PublicParts>> = {
  alice: {
    address:
      'addr_test1qqp99n7t8crh8e0fwlzyzsaf53zrlpx5r3qxzp2alcnqyr7smdmm5zhfw4uaw0040wcxeedrng9nqrxy82xjjp6c0e5skk86wq',
    paymentKeyHash: '0252cfcb3e0773e5e977c44143a9a4443f84d41c4061055dfe26020f',
    stakeKeyHash: 'd0db77ba0ae97579d73df57bb06ce5a39a0b300cc43a8d2907587e69'
  },
  bob: {
    address:
      'addr_test1qpfdqzf4xsq6pztadsxddmax2mazh08eacqckv8yfkhgnw27mcpvhs7vz7dhdrwcsnuxgkvaaekg9v2hx9ruufvwz6yqp26ken',
    paymentKeyHash: '52d009353401a0897d6c0cd6efa656fa2bbcf9ee018b30e44dae89b9',
    stakeKeyHash: '5ede02cbc3cc179b768dd884f864599dee6c82b1573147ce258e1688'
  },
  carol: {
    address:
      'addr_test1qq6mlyzvdudfv9cvedu6ysm5q7ny3ycrywaz07hy9ksc5yhyphqywnyy94rpyuz9wx8rz4gmnpf0xkaam3n8npzfys0s644x7m',
    paymentKeyHash: '35bf904c6f1a96170ccb79a2437407a648930323ba27fae42da18a12',
    stakeKeyHash: 'e40dc0474c842d46127045718e31551b9852f35bbddc66798449241f'
  },
  dave: {
    address:
      'addr_test1qzlmr56358kk4mz9v77drdw23ycafeenpar6d8xr6h6fxg237plp84e2kya4tmpnt22584k89m8mnagl6helkj08q59s2ydygt',
    paymentKeyHash: 'bfb1d351a1ed6aec4567bcd1b5ca8931d4e7330f47a69cc3d5f49321',
    stakeKeyHash: '51f07e13d72ab13b55ec335a9543d6c72ecfb9f51fd5f3fb49e7050b'
  },
  faucet: {
    address:
      'addr_test1qqqn9zp6jy577sfyasp6e7j00pkcdqmuak7yqrwj5rzwln8l6ehw2adalff23mk3t8nl8c4tfnkcyynz283wgy88s0ys6qmk9q',
    paymentKeyHash: '0132883a9129ef4124ec03acfa4f786d86837cedbc400dd2a0c4efcc',
    stakeKeyHash: 'ffd66ee575bdfa52a8eed159e7f3e2ab4ced82126251e2e410e783c9'
  }
}

/** A sandbox wallet whose signing key is derived the first time it signs. */
function sandboxWalletNamed(name: SandboxWalletName): SandboxWallet {
  let signingKey: Uint8Array | undefined
  return Object.freeze({
    name,
    mnemonic: MNEMONICS[name],
    ...PUBLIC_PARTS[name],
    get paymentSigningKey(): Uint8Array {
      signingKey ??= walletFromMnemonic(name, MNEMONICS[name]).paymentSigningKey
      return signingKey
    }
  })
}

/** alice, bob, carol and dave: 10,000 ada each at genesis. */
export const SANDBOX_WALLETS: readonly SandboxWallet[] = Object.freeze(
  (['alice', 'bob', 'carol', 'dave'] as const).map(sandboxWalletNamed)
)

/** The faucet's wallet: `SandboxProvider.fund` pays from it. */
export const SANDBOX_FAUCET: SandboxWallet = sandboxWalletNamed('faucet')

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
