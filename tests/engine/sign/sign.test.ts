import * as CSL from '@emurgo/cardano-serialization-lib-nodejs'
import { describe, expect, it } from 'vitest'
import { bytesToHex } from '../../../src/core/bytes'
import { stringifyTextEnvelope } from '../../../src/core/cardano/envelope'
import { keyWitnessBytes, witnessSetBytes } from '../../../src/core/cardano/witnesses'
import type { EngineError } from '../../../src/engine/errors'
import {
  assembleTransaction,
  readTransaction,
  readWitnessFile,
  signTransaction,
  verifyWitness
} from '../../../src/engine/sign'
import { CSL_VECTORS, openKeystore, PASSWORD, thrown } from '../keys/support'

const text = (s: string): Uint8Array => new TextEncoder().encode(s)
const envelope = (type: string, cbor: Uint8Array): Uint8Array =>
  text(stringifyTextEnvelope({ type, description: '', cbor }))

const FOREIGN = CSL.PrivateKey.from_normal_bytes(new Uint8Array(32).fill(9))
const INPUT = { txId: '07'.repeat(32), index: 0 }
const COLLATERAL = { txId: '08'.repeat(32), index: 1 }

/** A tx spending one input of `owner` with collateral of `owner`, a foreign required signer and a withdrawal. */
function buildTx(owner: string, rewardAddress: string): Uint8Array {
  const inputs = CSL.TransactionInputs.new()
  inputs.add(CSL.TransactionInput.new(CSL.TransactionHash.from_hex(INPUT.txId), INPUT.index))
  const outputs = CSL.TransactionOutputs.new()
  outputs.add(CSL.TransactionOutput.new(CSL.Address.from_bech32(owner), CSL.Value.new(CSL.BigNum.from_str('2000000'))))
  const body = CSL.TransactionBody.new_tx_body(inputs, outputs, CSL.BigNum.from_str('200000'))
  const collateral = CSL.TransactionInputs.new()
  collateral.add(CSL.TransactionInput.new(CSL.TransactionHash.from_hex(COLLATERAL.txId), COLLATERAL.index))
  body.set_collateral(collateral)
  const signers = CSL.Ed25519KeyHashes.new()
  signers.add(FOREIGN.to_public().hash())
  body.set_required_signers(signers)
  const withdrawals = CSL.Withdrawals.new()
  withdrawals.insert(CSL.RewardAddress.from_address(CSL.Address.from_bech32(rewardAddress))!, CSL.BigNum.from_str('0'))
  body.set_withdrawals(withdrawals)
  return CSL.Transaction.new(body, CSL.TransactionWitnessSet.new()).to_bytes()
}

function resolvedAt(ref: { txId: string; index: number }, address: string) {
  return { ref, address, value: { lovelace: 5_000_000n, assets: {} } }
}

async function wallet() {
  const keys = await openKeystore()
  const vector = CSL_VECTORS[0]!
  const info = await keys.restore({ name: 'signer', password: PASSWORD, mnemonic: vector.mnemonic })
  await keys.unlock(info.id, PASSWORD)
  const [first] = await keys.addresses(info.id, 'preprod', { count: 1 })
  const reward = await keys.rewardAddress(info.id, 'preprod')
  return { keys, id: info.id, address: first!.base!, reward: reward! }
}

describe('signTransaction', () => {
  it('signs with exactly the wallet keys the tx needs and reports the rest', async () => {
    const w = await wallet()
    const tx = buildTx(w.address, w.reward)
    const resolved = [resolvedAt(INPUT, w.address), resolvedAt(COLLATERAL, w.address)]
    const before = readTransaction(tx).txId
    const result = await signTransaction({ tx, walletId: w.id, keys: w.keys, resolved })
    expect(result.txId).toBe(before)
    expect(readTransaction(result.tx).txId).toBe(before)
    // payment key (input + collateral) and stake key (withdrawal)
    expect(result.witnesses).toHaveLength(2)
    for (const witness of result.witnesses) expect(verifyWitness(result.tx, witness)).toBe(true)
    expect([...result.missing.keys()]).toEqual([FOREIGN.to_public().hash().to_hex()])
    expect(result.missing.get(FOREIGN.to_public().hash().to_hex())).toEqual(['required-signer'])
    expect(result.unresolved).toEqual([])
  })

  it('says which inputs it could not resolve', async () => {
    const w = await wallet()
    const tx = buildTx(w.address, w.reward)
    const result = await signTransaction({ tx, walletId: w.id, keys: w.keys, resolved: [] })
    expect(result.unresolved).toEqual([
      { txId: INPUT.txId, index: 0n },
      { txId: COLLATERAL.txId, index: 1n }
    ])
    expect(result.witnesses).toHaveLength(1) // the stake key, from the withdrawal
  })
})

describe('readTransaction', () => {
  const tx = CSL.Transaction.from_bytes(
    buildTx(CSL_VECTORS[0]!.base.mainnet, CSL_VECTORS[0]!.reward.mainnet)
  ).to_bytes()
  const body = CSL.Transaction.from_bytes(tx).body().to_bytes()
  const id = CSL.FixedTransaction.from_bytes(tx).transaction_hash().to_hex()

  it.each([
    ['Tx ConwayEra', envelope('Tx ConwayEra', tx), 'Conway'],
    ['Unwitnessed Tx BabbageEra', envelope('Unwitnessed Tx BabbageEra', tx), 'Babbage'],
    ['Witnessed Tx ConwayEra', envelope('Witnessed Tx ConwayEra', tx), 'Conway'],
    ['TxBodyConway', envelope('TxBodyConway', body), 'Conway'],
    ['hex text', text(`${bytesToHex(tx)}\n`), 'Conway'],
    ['raw bytes', tx, 'Conway']
  ])('reads %s with the same tx id', (_what, contents, era) => {
    const file = readTransaction(contents)
    expect(file.txId).toBe(id)
    expect(file.era).toBe(era)
  })

  it.each([
    [
      'a witness envelope',
      envelope('ShelleyTxWitness ConwayEra', new Uint8Array([0xa0])),
      'is a witness, not a transaction'
    ],
    ['a key file', envelope('PaymentSigningKeyShelley_ed25519', new Uint8Array([0x40])), 'holds no transaction'],
    ['broken JSON', text('{"type":'), 'not a TextEnvelope'],
    ['random bytes', new Uint8Array([1, 2, 3]), 'not a Cardano transaction'],
    [
      'a CBOR array that is no tx',
      new Uint8Array([0x84, 0xa0, 0xa0, 0xf5, 0xf6]),
      'not a Cardano transaction the ledger would read'
    ]
  ])('rejects %s', (_what, contents, message) => {
    const e = thrown(() => readTransaction(contents)) as EngineError
    expect(e.code).toBe('InvalidTransaction')
    expect(e.message).toContain(message)
  })
})

describe('assembleTransaction', () => {
  it('merges witnesses from witness-set and key-witness files', async () => {
    const w = await wallet()
    const tx = buildTx(w.address, w.reward)
    const resolved = [resolvedAt(INPUT, w.address)]
    const signed = await signTransaction({ tx, walletId: w.id, keys: w.keys, resolved })
    const [payment, stake] = signed.witnesses
    const fromSet = readWitnessFile(envelope('ShelleyTxWitness ConwayEra', witnessSetBytes([payment!])), 'a.witness')
    const fromKey = readWitnessFile(envelope('TxWitness ConwayEra', keyWitnessBytes(stake!)), 'b.witness')
    const assembled = assembleTransaction(tx, [...fromSet, ...fromKey])
    expect(assembled.added).toBe(2)
    expect(bytesToHex(assembled.tx)).toBe(bytesToHex(signed.tx))
  })

  it('refuses a witness made for another transaction', async () => {
    const w = await wallet()
    const tx = buildTx(w.address, w.reward)
    const other = buildTx(CSL_VECTORS[0]!.base.mainnet, w.reward)
    const signed = await signTransaction({ tx: other, walletId: w.id, keys: w.keys, resolved: [] })
    const e = thrown(() => assembleTransaction(tx, signed.witnesses)) as EngineError
    expect(e.code).toBe('InvalidWitness')
    expect(e.message).toContain('does not sign this transaction')
  })

  it.each([
    ['a transaction envelope', envelope('Tx ConwayEra', new Uint8Array([0x80])), 'is not a witness'],
    ['a bad witness set', text('a10081820102'), 'is not a vkey witness']
  ])('rejects %s as a witness file', (_what, contents, message) => {
    const e = thrown(() => readWitnessFile(contents, 'w.json')) as EngineError
    expect(e.message).toContain('w.json: ')
    expect(e.message).toContain(message)
  })
})
