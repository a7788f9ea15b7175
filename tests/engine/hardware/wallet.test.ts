/**
 * The hardware wallet kind: its file keeps the vendor and the account key read from the device, so it lists,
 * derives addresses and reopens without the device; it has nothing to unlock; and a transaction its device
 * could not rebuild byte for byte is refused, naming the rule, before any device is asked.
 */
import * as CSL from '@emurgo/cardano-serialization-lib-nodejs'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { decodeTransaction } from '../../../src/core/cardano/tx'
import { ledgerSignRequest, trezorSignParams, deviceNetwork } from '../../../src/engine/hardware'
import { decodeWalletFile } from '../../../src/engine/keys/wallet-file'
import { freshDir, openKeystore, PASSWORD, rejection } from '../keys/support'
import { CAROL_ACCOUNT, carol } from './support'

describe('a hardware wallet in the keystore', () => {
  it('keeps the vendor and account key, derives the same addresses as the device account, and cannot unlock', async () => {
    const dir = freshDir()
    const keys = await openKeystore(dir)
    const info = await keys.addHardware({
      name: 'My Ledger',
      vendor: 'ledger',
      accountIndex: 0,
      accountXvk: CAROL_ACCOUNT.xvk
    })
    expect(info).toMatchObject({ kind: 'hardware', vendor: 'ledger', account: { index: 0 } })
    const [first] = await keys.addresses(info.id, 'sandbox', { count: 1 })
    expect(first?.base).toBe(carol.address)
    expect(await keys.hardwareAccount(info.id)).toEqual({ vendor: 'ledger', account: CAROL_ACCOUNT })

    const file = join(dir, `${info.id}.wallet.json`)
    const record = decodeWalletFile(readFileSync(file, 'utf8'), file)
    expect(record).toMatchObject({ kind: 'hardware', vendor: 'ledger' })
    expect(readFileSync(file, 'utf8')).not.toContain('secret')

    const reopened = await openKeystore(dir)
    expect(await reopened.get(info.id)).toEqual(info)
    const unlock = await rejection(reopened.unlock(info.id, PASSWORD))
    expect(unlock.code).toBe('HardwareWallet')
    expect(unlock.message).toBe('wallet "My Ledger" keeps its keys on a Ledger: nothing to unlock in Desk')
    const sign = await rejection(reopened.witness(info.id, new Uint8Array(32), [carol.paymentKeyHash]))
    expect(sign.code).toBe('HardwareWallet')
  })

  it('refuses a bad account key and an unknown vendor in the file', async () => {
    const keys = await openKeystore()
    const short = await rejection(
      keys.addHardware({ name: 'Trezor', vendor: 'trezor', accountIndex: 0, accountXvk: new Uint8Array(32) })
    )
    expect(short.message).toBe('an account public key is 64 bytes (key and chain code), got 32')
    const dir = freshDir()
    const store = await openKeystore(dir)
    const info = await store.addHardware({
      name: 'T',
      vendor: 'trezor',
      accountIndex: 0,
      accountXvk: CAROL_ACCOUNT.xvk
    })
    const file = join(dir, `${info.id}.wallet.json`)
    const text = readFileSync(file, 'utf8').replace('"trezor"', '"keepkey"')
    expect(() => decodeWalletFile(text, file)).toThrow(/damaged/)
  })
})

/** A payment with a stake registration certificate: a body Desk never builds, and maps to no device request. */
function withCertificate(): Uint8Array {
  const inputs = CSL.TransactionInputs.new()
  inputs.add(CSL.TransactionInput.new(CSL.TransactionHash.from_hex('07'.repeat(32)), 0))
  const outputs = CSL.TransactionOutputs.new()
  outputs.add(
    CSL.TransactionOutput.new(CSL.Address.from_bech32(carol.address), CSL.Value.new(CSL.BigNum.from_str('2000000')))
  )
  const body = CSL.TransactionBody.new_tx_body(inputs, outputs, CSL.BigNum.from_str('200000'))
  const certs = CSL.Certificates.new()
  const stake = CSL.Credential.from_keyhash(CSL.Ed25519KeyHash.from_hex(carol.paymentKeyHash))
  certs.add(CSL.Certificate.new_stake_registration(CSL.StakeRegistration.new(stake)))
  body.set_certs(certs)
  return CSL.Transaction.new(body, CSL.TransactionWitnessSet.new()).to_bytes()
}

/** A payment to a mainnet enterprise address: on a test network, an output no device signs for. */
function toMainnet(): Uint8Array {
  const inputs = CSL.TransactionInputs.new()
  inputs.add(CSL.TransactionInput.new(CSL.TransactionHash.from_hex('07'.repeat(32)), 0))
  const outputs = CSL.TransactionOutputs.new()
  outputs.add(
    CSL.TransactionOutput.new(
      CSL.Address.from_hex('61' + '11'.repeat(28)),
      CSL.Value.new(CSL.BigNum.from_str('2000000'))
    )
  )
  const body = CSL.TransactionBody.new_tx_body(inputs, outputs, CSL.BigNum.from_str('200000'))
  return CSL.Transaction.new(body, CSL.TransactionWitnessSet.new()).to_bytes()
}

/** The same body with its fee written in 9 bytes instead of 5: valid CBOR the device would never write. */
function nonCanonicalFee(): Uint8Array {
  const inputs = CSL.TransactionInputs.new()
  inputs.add(CSL.TransactionInput.new(CSL.TransactionHash.from_hex('07'.repeat(32)), 0))
  const outputs = CSL.TransactionOutputs.new()
  outputs.add(
    CSL.TransactionOutput.new(CSL.Address.from_bech32(carol.address), CSL.Value.new(CSL.BigNum.from_str('2000000')))
  )
  const bytes = CSL.Transaction.new(
    CSL.TransactionBody.new_tx_body(inputs, outputs, CSL.BigNum.from_str('200000')),
    CSL.TransactionWitnessSet.new()
  ).to_bytes()
  const fee = Buffer.from(bytes).indexOf(Buffer.from('021a00030d40', 'hex'))
  const longFee = Buffer.from('021b0000000000030d40', 'hex')
  // The body map's length stays; only the fee's head grows, so the body is still well formed.
  return Uint8Array.from(Buffer.concat([bytes.subarray(0, fee), longFee, bytes.subarray(fee + 6)]))
}

describe('bodies a device cannot rebuild', () => {
  const context = { network: deviceNetwork('sandbox'), witnessPaths: [] }

  it('are refused for both vendors with the rule named, before a device is asked', () => {
    const certificate = decodeTransaction(withCertificate())
    expect(() => ledgerSignRequest(certificate, context)).toThrow(
      'Ledger cannot sign this transaction (no certificates): Desk maps no certificates to a device request. Nothing was sent to the device'
    )
    expect(() => trezorSignParams(certificate, context)).toThrow(
      /^Trezor cannot sign this transaction \(no certificates\)/
    )
    const long = decodeTransaction(nonCanonicalFee())
    expect(() => ledgerSignRequest(long, context)).toThrow(
      /^Ledger cannot sign this transaction \(canonical CBOR\): the device writes the body canonically, and this one has non-shortest-head at byte \d+/
    )
  })

  it('an output to another network than the wallet’s, which both devices refuse, is refused first', () => {
    const tx = decodeTransaction(toMainnet())
    expect(() => ledgerSignRequest(tx, context)).toThrow(
      'Ledger cannot sign this transaction (outputs on the network): output 1 pays an address of network 1, and the device signs for network 0 only. Nothing was sent to the device'
    )
    expect(() => trezorSignParams(tx, context)).toThrow(
      /^Trezor cannot sign this transaction \(outputs on the network\)/
    )
  })

  it('a request the vendor library refuses names the library rule', () => {
    const tx = decodeTransaction(withCertificate().slice())
    const body = { ...tx.body, certificates: [], fee: -1n }
    expect(() => ledgerSignRequest({ ...tx, body }, context)).toThrow(
      /^Ledger cannot sign this transaction \(.*fee.*\)/i
    )
    expect(() => trezorSignParams({ ...tx, body }, context)).toThrow(/^Trezor cannot sign this transaction \(/)
  })
})
