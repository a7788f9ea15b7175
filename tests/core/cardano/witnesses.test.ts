import * as CSL from '@emurgo/cardano-serialization-lib-nodejs'
import { describe, expect, it } from 'vitest'
import { bytesToHex, hexToBytes } from '../../../src/core/bytes'
import {
  addVkeyWitnesses,
  keyWitnessBytes,
  vkeyWitnessesOfWitnessSet,
  vkeyWitnessOfKeyWitness,
  witnessSetBytes,
  WitnessError,
  type VkeyWitness
} from '../../../src/core/cardano/witnesses'

const keys = [1, 2, 3].map((i) => CSL.PrivateKey.from_normal_bytes(new Uint8Array(32).fill(i)))

/** An unsigned payment transaction; `witnessSetHex` lets a test put any witness set in it. */
function unsignedTx(witnessSetHex = 'a0', setTags = true): Uint8Array {
  const inputs = CSL.TransactionInputs.new()
  inputs.add(CSL.TransactionInput.new(CSL.TransactionHash.from_bytes(new Uint8Array(32).fill(7)), 0))
  const outputs = CSL.TransactionOutputs.new()
  const address = CSL.EnterpriseAddress.new(0, CSL.Credential.from_keyhash(keys[0]!.to_public().hash())).to_address()
  outputs.add(CSL.TransactionOutput.new(address, CSL.Value.new(CSL.BigNum.from_str('2000000'))))
  const body = CSL.TransactionBody.new_tx_body(inputs, outputs, CSL.BigNum.from_str('170000'))
  let bodyHex = body.to_hex()
  if (!setTags) bodyHex = bodyHex.replace('d9010281', '81')
  return hexToBytes(`84${bodyHex}${witnessSetHex}f5f6`)
}

function txId(tx: Uint8Array): string {
  return CSL.FixedTransaction.from_bytes(tx).transaction_hash().to_hex()
}

function witnessFor(tx: Uint8Array, key: CSL.PrivateKey): VkeyWitness {
  const w = CSL.make_vkey_witness(CSL.FixedTransaction.from_bytes(tx).transaction_hash(), key)
  return { cbor: w.to_bytes(), vkey: w.vkey().public_key().as_bytes(), signature: w.signature().to_bytes() }
}

describe('addVkeyWitnesses', () => {
  it('adds witnesses without touching the body: the tx id stays, CSL reads the signatures', () => {
    const tx = unsignedTx()
    const { tx: signed, added } = addVkeyWitnesses(tx, [witnessFor(tx, keys[0]!), witnessFor(tx, keys[1]!)])
    expect(added).toBe(2)
    expect(txId(signed)).toBe(txId(tx))
    const vkeys = CSL.FixedTransaction.from_bytes(signed).witness_set().vkeys()
    expect(vkeys?.len()).toBe(2)
    const hash = CSL.FixedTransaction.from_bytes(signed).transaction_hash().to_bytes()
    for (let i = 0; i < 2; i++) {
      const w = vkeys!.get(i)
      expect(w.vkey().public_key().verify(hash, w.signature())).toBe(true)
    }
  })

  it('gives the same bytes as CSL’s own signing for a CSL-built tx', () => {
    const tx = unsignedTx()
    const fixed = CSL.FixedTransaction.from_bytes(tx)
    fixed.sign_and_add_vkey_signature(keys[0]!)
    expect(bytesToHex(addVkeyWitnesses(tx, [witnessFor(tx, keys[0]!)]).tx)).toBe(fixed.to_hex())
  })

  it('keeps other witness-set entries byte for byte, even in a form CSL would re-encode', () => {
    // key 4 (datums) as an indefinite list holding Constr 0 [42] written with an indefinite field list
    const datums = '049fd8799f182affff'
    const tx = unsignedTx(`a1${datums}`)
    const signed = addVkeyWitnesses(tx, [witnessFor(tx, keys[0]!)]).tx
    expect(bytesToHex(signed)).toContain(datums)
    expect(txId(signed)).toBe(txId(tx))
  })

  it('appends to existing witnesses and skips a key that already signed', () => {
    const tx = unsignedTx()
    const once = addVkeyWitnesses(tx, [witnessFor(tx, keys[0]!)]).tx
    const twice = addVkeyWitnesses(once, [witnessFor(tx, keys[0]!), witnessFor(tx, keys[2]!)])
    expect(twice.added).toBe(1)
    expect(CSL.FixedTransaction.from_bytes(twice.tx).witness_set().vkeys()?.len()).toBe(2)
    expect(addVkeyWitnesses(twice.tx, [witnessFor(tx, keys[2]!)])).toEqual({ tx: twice.tx, added: 0 })
  })

  it('follows the body’s set tagging for a new witness list', () => {
    const tagged = addVkeyWitnesses(unsignedTx(), [witnessFor(unsignedTx(), keys[0]!)]).tx
    expect(bytesToHex(tagged)).toContain('a100d9010281')
    const plain = unsignedTx('a0', false)
    expect(bytesToHex(addVkeyWitnesses(plain, [witnessFor(plain, keys[0]!)]).tx)).toContain('a10081')
  })

  it('keeps an indefinite-length witness map indefinite', () => {
    const tx = unsignedTx('bf049fd87980ffff')
    const signed = addVkeyWitnesses(tx, [witnessFor(tx, keys[0]!)]).tx
    expect(bytesToHex(signed)).toMatch(/bf00d9010281.*049fd87980ffff/)
    expect(txId(signed)).toBe(txId(tx))
  })

  it.each([
    ['not CBOR', new Uint8Array([0x84, 0xa0]), 'the transaction is not valid CBOR'],
    ['not an array', new Uint8Array([0xa0]), 'the transaction is not an array'],
    ['a body that is not a map', hexToBytes('8480a0f5f6'), 'the transaction body is not a CBOR map'],
    ['a witness set that is not a map', hexToBytes('84a080f5f6'), 'the witness set is not a CBOR map'],
    [
      'a malformed existing witness',
      hexToBytes('84a0a10081820102f5f6'),
      'existing vkey witness 0 is not a vkey witness'
    ]
  ])('rejects %s', (_what, tx, message) => {
    const w = witnessFor(unsignedTx(), keys[0]!)
    expect(() => addVkeyWitnesses(tx, [w])).toThrow(WitnessError)
    expect(() => addVkeyWitnesses(tx, [w])).toThrow(message)
  })
})

describe('witness files', () => {
  it('round-trips a cardano-cli key witness [0, [vkey, sig]]', () => {
    const w = witnessFor(unsignedTx(), keys[1]!)
    const bytes = keyWitnessBytes(w)
    expect(bytesToHex(bytes.slice(0, 2))).toBe('8200')
    expect(vkeyWitnessOfKeyWitness(bytes)).toEqual(w)
  })

  it('round-trips a witness set of vkeys', () => {
    const ws = [witnessFor(unsignedTx(), keys[0]!), witnessFor(unsignedTx(), keys[1]!)]
    const set = witnessSetBytes(ws)
    expect(CSL.TransactionWitnessSet.from_bytes(set).vkeys()?.len()).toBe(2)
    expect(vkeyWitnessesOfWitnessSet(set)).toEqual(ws)
    expect(vkeyWitnessesOfWitnessSet(hexToBytes('a0'))).toEqual([])
  })

  it.each([
    ['a bootstrap witness', '8201820102', 'bootstrap (Byron) witnesses are not supported'],
    ['an unknown kind', '8205820102', 'unknown key witness kind 5'],
    ['a short key', `8200825803010203${'58' + '40' + '00'.repeat(64)}`, 'has a 3-byte key and a 64-byte signature'],
    ['garbage', 'ff', 'the key witness is not valid CBOR']
  ])('rejects %s', (_what, hex, message) => {
    expect(() => vkeyWitnessOfKeyWitness(hexToBytes(hex))).toThrow(message)
  })
})
