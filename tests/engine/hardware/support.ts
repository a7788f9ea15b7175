/**
 * A hardware wallet's account in the sandbox: carol's (the sandbox's public test mnemonic, account 0), whose
 * public key stands for the one a device returns; every kind of transaction Desk builds, built for her by the
 * service; and a software stand-in for the device's signatures, made with the repo's own derivation and signer
 * for the same account, so the parsing, verification and splicing around them are what is tested.
 */
import { mnemonicToEntropy } from '@scure/bip39'
import { wordlist } from '@scure/bip39/wordlists/english.js'
import { sandboxWallet } from '../../../src/chain/sandbox'
import { bytesToHex, concatBytes, hexToBytes } from '../../../src/core/bytes'
import type { Contract, Input } from '../../../src/core/marlowe/types'
import { CSL, withCsl } from '../../../src/csl'
import { parseRef, type RolesConfig } from '../../../src/engine/build'
import { chainFacts } from '../../../src/engine/desk/chain-facts'
import type { DeviceSignature } from '../../../src/engine/hardware'
import { accountKeysFromEntropy, type KeyRole } from '../../../src/engine/keys/derivation'
import { vkeyWitnesses } from '../../../src/engine/keys/signing'
import type { AccountKey } from '../../../src/engine/keys/wallet-file'
import { ADA, T0, testWallet } from '../build/support'
import type { CardanoAppKeys } from './ledger-app-double'
import type { ServiceHarness } from '../service/support'

export const carol = testWallet('carol')

const accountKeys = (() => {
  const entropy = mnemonicToEntropy(sandboxWallet('carol').mnemonic, wordlist)
  return accountKeysFromEntropy(entropy, 0)
})()

/** The account public key a device would return for carol's mnemonic. */
export const CAROL_ACCOUNT: AccountKey = { index: 0, xvk: accountKeys.xvk }

const ROLES: readonly KeyRole[] = ['payment', 'change', 'stake']
const HARDENED = 0x80000000

/** Vkey witnesses (CBOR) of the body hash `txId` by the account's keys at these BIP32 paths. */
export function softwareWitnesses(txId: string, paths: readonly (readonly number[])[]): Uint8Array[] {
  const secret = { kind: 'hd', accountIndex: 0, accountXvk: accountKeys.xvk, accountXprv: accountKeys.xprv } as const
  const keyPaths = paths.map((p) => ({ kind: 'derived', account: 0, role: ROLES[p[3]!]!, index: p[4]! }) as const)
  return vkeyWitnesses(secret, hexToBytes(txId), keyPaths)
}

/** m/1852'/1815'/0'/0/0 (with or without the "m/") as BIP32 numbers. */
function bip32(path: string): number[] {
  return path
    .replace(/^m\//, '')
    .split('/')
    .map((c) => (c.endsWith("'") ? HARDENED + Number(c.slice(0, -1)) : Number(c)))
}

/** What a Keystone answers for these paths: a witness set (tagged, as Conway writes it) signing the body `txId`. */
export function keystoneWitnessSet(txId: string, paths: readonly string[]): Buffer {
  const witnesses = softwareWitnesses(txId, paths.map(bip32))
  return Buffer.from(concatBytes([Uint8Array.of(0xa1, 0x00, 0xd9, 0x01, 0x02, 0x80 + witnesses.length), ...witnesses]))
}

/** What a device returns for these paths: signatures of the body hash by the account's keys. */
export function softwareSignatures(txId: string, paths: readonly (readonly number[])[]): DeviceSignature[] {
  return softwareWitnesses(txId, paths).map((cbor, i) => ({
    path: paths[i]!,
    signatureHex: withCsl((s) => s.own(s.own(CSL.Vkeywitness.from_bytes(cbor)).signature()).to_hex())
  }))
}

/**
 * The keys of carol's account as the Cardano app double holds them: the account's extended public key (the one
 * path Desk reads), and signatures by the software stand-in at any path of the account.
 */
export const CAROL_LEDGER_KEYS: CardanoAppKeys = {
  extendedPublicKey: (path) => {
    if (path.length !== 3 || path[2] !== 0x80000000)
      throw new Error(`carol's double holds account 0 only, not ${path.join('/')}`)
    return CAROL_ACCOUNT.xvk
  },
  sign: (path, hash) => hexToBytes(softwareSignatures(bytesToHex(hash), [path])[0]!.signatureHex)
}

const HOLDER = { type: 'Role', role: 'Holder' } as const
const CAROL_PARTY = { type: 'Address', address: carol.address } as const
const ADA_TOKEN = { currencySymbol: '', tokenName: '' }
const LATER = T0 + 864_000_000n

/**
 * Holder (a role minted to carol) chooses, then carol (as an address) deposits 5 ada into Holder's account,
 * and the close pays it to Holder: a payout carol withdraws. Each step waits until `timeout`.
 */
export function holderContract(timeout: bigint): Contract {
  return {
    type: 'When',
    cases: [
      {
        type: 'Case',
        action: { type: 'Choice', choice: { name: 'go', owner: HOLDER }, bounds: [{ from: 1n, to: 1n }] },
        then: {
          type: 'When',
          cases: [
            {
              type: 'Case',
              action: { type: 'Deposit', account: HOLDER, party: CAROL_PARTY, token: ADA_TOKEN, value: 5n * ADA },
              then: { type: 'Close' }
            }
          ],
          timeout,
          timeoutContinuation: { type: 'Close' }
        }
      }
    ],
    timeout,
    timeoutContinuation: { type: 'Close' }
  }
}

export const HOLDER_CONTRACT: Contract = holderContract(LATER)

/** The contract's first step, applied by the holder of the role token. */
export const HOLDER_CHOOSES = [
  { content: { type: 'IChoice', choice: { name: 'go', owner: HOLDER }, chosen: 1n } }
] as const satisfies readonly Input[]

/** Its second, applied by carol as an address party; the close pays Holder, whose payout carol withdraws. */
export const CAROL_DEPOSITS = [
  { content: { type: 'IDeposit', account: HOLDER, party: CAROL_PARTY, token: ADA_TOKEN, amount: 5n * ADA } }
] as const satisfies readonly Input[]

const HOLDER_ROLES: RolesConfig = {
  type: 'Mint',
  roles: [{ name: 'Holder', recipients: [{ destination: { address: carol.address }, quantity: 1n }] }]
}

export type TxKind = 'create' | 'apply-as-role' | 'apply-as-address' | 'withdraw'

export interface Built {
  readonly kind: TxKind
  readonly tx: Uint8Array
  readonly txId: string
  /** Submits the signed transaction whole, and follows the chain. */
  submit(signed: Uint8Array): Promise<void>
  resolved(): Promise<Awaited<ReturnType<typeof chainFacts>>['resolvedInputs']>
}

/**
 * Every kind of transaction Desk builds, one after the other: each is handed to `sign` (which must return it
 * signed) and submitted before the next is built, since each spends the one before.
 */
export async function everyTxKind(h: ServiceHarness, sign: (built: Built) => Promise<Uint8Array>): Promise<void> {
  const step = async (kind: TxKind, tx: Uint8Array, txId: string) => {
    const built: Built = {
      kind,
      tx,
      txId,
      submit: async (signed) => {
        await h.service.submitBuild(txId, { tx: signed })
        await h.follower.sync()
      },
      resolved: async () => (await chainFacts(h.sandbox, tx)).resolvedInputs
    }
    await built.submit(await sign(built))
  }
  const created = await h.service.createContract(
    { changeAddress: carol.address },
    { contract: HOLDER_CONTRACT, roles: HOLDER_ROLES, tags: { 'desk.test': 'hardware' }, metadata: {} }
  )
  const { contractId } = created
  await step('create', created.unsigned.tx, contractId.slice(0, 64))
  const apply = async (kind: TxKind, inputs: Parameters<typeof h.service.applyInputs>[2]['inputs']) => {
    const built = await h.service.applyInputs(
      contractId,
      { changeAddress: carol.address },
      { inputs, tags: {}, metadata: {} }
    )
    await step(kind, built.unsigned.tx, built.transactionId)
    return built.transactionId
  }
  await apply('apply-as-role', HOLDER_CHOOSES)
  const closed = await apply('apply-as-address', CAROL_DEPOSITS)
  const payoutId = (await h.service.getTransaction(contractId, closed)).payouts[0]!.payoutId
  const withdrawal = await h.service.withdraw({ changeAddress: carol.address }, { payouts: [parseRef(payoutId)!] })
  await step('withdraw', withdrawal.unsigned.tx, withdrawal.withdrawalId)
}
