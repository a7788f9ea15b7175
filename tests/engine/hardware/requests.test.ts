/**
 * Every kind of transaction Desk builds, as a Ledger and a Trezor request: each passes the vendor library's own
 * validation, carries the Plutus fields Desk's bytes hold, and, signed at the request's witness paths by the
 * same account's keys and spliced in, is accepted by the sandbox and confirmed.
 */
import { TransactionSigningMode, TxOutputFormat } from '@cardano-foundation/ledgerjs-hw-app-cardano'
import { parseSignTransactionRequest } from '@cardano-foundation/ledgerjs-hw-app-cardano/dist/parsing/transaction'
import CardanoSignTransactionMethod from '@trezor/connect/lib/api/cardano/api/cardanoSignTransaction'
import { PROTO } from '@trezor/connect/lib/constants'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bytesToHex } from '../../../src/core/bytes'
import { decodeTransaction } from '../../../src/core/cardano/tx'
import { trezorSigned } from '../../../src/engine/hardware/trezor-device'
import { childPublicKey } from '../../../src/engine/keys/derivation'
import { planDeviceSigning, spliceDeviceWitnesses, type DeviceSigningPlan } from '../../../src/engine/hardware'
import { serviceHarness, type ServiceHarness } from '../service/support'
import { CAROL_ACCOUNT, carol, everyTxKind, softwareSignatures, type TxKind } from './support'

interface Signed {
  readonly ledger: DeviceSigningPlan
  readonly trezor: DeviceSigningPlan
  readonly txId: string
  readonly signedTx: Uint8Array
  /** The same signatures as Trezor Connect's payload names them (by key), spliced the same way. */
  readonly trezorTx: Uint8Array
}

let h: ServiceHarness
const signed = new Map<TxKind, Signed>()

beforeAll(async () => {
  h = await serviceHarness()
  await everyTxKind(h, async (built) => {
    const resolved = await built.resolved()
    const input = { tx: built.tx, account: CAROL_ACCOUNT, network: 'sandbox' as const, resolved }
    const ledger = await planDeviceSigning({ ...input, vendor: 'ledger' })
    const trezor = await planDeviceSigning({ ...input, vendor: 'trezor' })
    if (ledger.device.vendor !== 'ledger') throw new Error('a Ledger plan')
    const paths = ledger.device.request.additionalWitnessPaths ?? []
    const device = {
      vendor: 'ledger' as const,
      txHashHex: built.txId,
      signatures: softwareSignatures(built.txId, paths)
    }
    const { tx } = spliceDeviceWitnesses(built.tx, built.txId, CAROL_ACCOUNT, device)
    const pubKey = bytesToHex(childPublicKey(CAROL_ACCOUNT.xvk, 'payment', 0, false))
    const witnesses = device.signatures.map((s) => ({
      type: PROTO.CardanoTxWitnessType.SHELLEY_WITNESS,
      pubKey,
      signature: s.signatureHex
    }))
    const fromTrezor = trezorSigned({ hash: built.txId, witnesses }, CAROL_ACCOUNT, paths)
    const trezorTx = spliceDeviceWitnesses(built.tx, built.txId, CAROL_ACCOUNT, fromTrezor).tx
    signed.set(built.kind, { ledger, trezor, txId: built.txId, signedTx: tx, trezorTx })
    return tx
  })
}, 120_000)

afterAll(async () => {
  await h.close()
  await h.sandbox.close()
})

const KINDS: readonly TxKind[] = ['create', 'apply-as-role', 'apply-as-address', 'withdraw']
const CAROL_PAYMENT_PATH = [0x80000000 + 1852, 0x80000000 + 1815, 0x80000000, 0, 0]

describe.each(KINDS)('%s', (kind) => {
  const of = (): Signed => signed.get(kind)!

  it('maps to a Ledger request in the Plutus mode that the Ledger library accepts', () => {
    const { ledger } = of()
    if (ledger.device.vendor !== 'ledger') throw new Error('a Ledger plan')
    const { request } = ledger.device
    expect(request.signingMode).toBe(TransactionSigningMode.PLUTUS_TRANSACTION)
    expect(() => parseSignTransactionRequest(request)).not.toThrow()
    expect(request.additionalWitnessPaths).toEqual([CAROL_PAYMENT_PATH])
    const body = ledger.tx.body
    expect(request.tx.inputs.map((i) => `${i.txHashHex}#${i.outputIndex}`)).toEqual(
      body.inputs.map((i) => `${i.txId}#${i.index}`)
    )
    expect(request.tx.collateralInputs).toHaveLength(body.collateral.length)
    expect(request.tx.collateralOutput?.amount).toBe(body.collateralReturn?.value.coin)
    expect(request.tx.totalCollateral).toBe(body.totalCollateral)
    expect(request.tx.referenceInputs).toHaveLength(body.referenceInputs.length)
    expect(request.tx.scriptDataHashHex).toBe(body.scriptDataHash ?? null)
    expect(ledger.missing.size).toBe(0)
  })

  it('maps to Trezor parameters in the Plutus mode that Trezor Connect accepts', () => {
    const { trezor } = of()
    if (trezor.device.vendor !== 'trezor') throw new Error('a Trezor plan')
    const params = trezor.device.request
    expect(params.signingMode).toBe(PROTO.CardanoTxSigningMode.PLUTUS_TRANSACTION)
    const method = new CardanoSignTransactionMethod({
      id: 0,
      payload: { method: 'cardanoSignTransaction', ...structuredClone(params) }
    })
    method.init()
    expect(method.params.witnessPaths).toEqual([CAROL_PAYMENT_PATH])
    expect(method.params.inputsWithPath).toHaveLength(trezor.tx.body.inputs.length)
    expect(method.params.collateralInputsWithPath).toHaveLength(trezor.tx.body.collateral.length)
  })

  it('signed at the witness paths and spliced, keeps its body and is confirmed on the sandbox', async () => {
    const { txId, signedTx, trezorTx } = of()
    expect(trezorTx).toEqual(signedTx)
    const decoded = decodeTransaction(signedTx)
    expect(decoded.id).toBe(txId)
    expect(decoded.witnessSet.vkeys.map((w) => w.keyHash)).toEqual([carol.paymentKeyHash])
    expect(await h.sandbox.txStatus(txId)).toMatchObject({ status: 'confirmed' })
  })
})

describe('the Plutus fields of each kind', () => {
  const request = (kind: TxKind) => {
    const { ledger } = signed.get(kind)!
    if (ledger.device.vendor !== 'ledger') throw new Error('a Ledger plan')
    return ledger.device.request.tx
  }

  it('create mints the role, and names the Marlowe datum by hash in the legacy output format Desk writes', () => {
    const tx = request('create')
    expect(tx.mint?.[0]?.tokens).toEqual([{ assetNameHex: Buffer.from('Holder').toString('hex'), amount: 1n }])
    const marlowe = tx.outputs[0]!
    expect(marlowe.format).toBe(TxOutputFormat.ARRAY_LEGACY)
    expect(marlowe.format !== TxOutputFormat.MAP_BABBAGE && marlowe.datumHashHex).toBe(
      signed.get('create')!.ledger.tx.body.outputs[0]!.datum?.hash
    )
    expect(tx.auxiliaryData).toEqual({
      type: 'arbitrary_hash',
      params: { hashHex: signed.get('create')!.ledger.tx.body.auxDataHash }
    })
  })

  it('apply as an address party names carol as a required signer', () => {
    expect(request('apply-as-address').requiredSigners).toEqual([
      { type: 'required_signer_hash', hashHex: carol.paymentKeyHash }
    ])
  })

  it('apply and withdraw spend scripts by reference, with collateral and its return', () => {
    for (const kind of ['apply-as-role', 'apply-as-address', 'withdraw'] as const) {
      const tx = request(kind)
      expect(tx.referenceInputs?.length).toBeGreaterThan(0)
      expect(tx.collateralInputs?.length).toBeGreaterThan(0)
      expect(tx.collateralOutput).not.toBeNull()
      expect(tx.totalCollateral).not.toBeNull()
    }
  })
})
