/**
 * Signing on a Ledger, APDU by APDU: every kind of transaction Desk builds goes through the product's plan and
 * `signWithLedger` (ledgerjs-hw-app-cardano) to the Cardano app double, which rebuilds the body from the APDUs
 * and hashes it as the app does; the device's hash must be the body's id, its signature must verify, and the
 * product splices it and the sandbox confirms the transaction. Then what the device can do mid-signing: the
 * user rejects, the cable is pulled, the app refuses the body. Last, the Babbage output elements no Desk
 * transaction carries (an inline datum and a reference script, each sent in chunks) against CSL's serialisation.
 */
import { TxOutputFormat } from '@cardano-foundation/ledgerjs-hw-app-cardano'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bytesToHex, hexToBytes } from '../../../src/core/bytes'
import { decodeTransaction } from '../../../src/core/cardano/tx'
import { CSL, withCsl } from '../../../src/csl'
import {
  deviceNetwork,
  ledgerSignRequest,
  planDeviceSigning,
  readLedgerAccount,
  signWithLedger,
  spliceDeviceWitnesses,
  type DeviceSigned
} from '../../../src/engine/hardware'
import { childPublicKey } from '../../../src/engine/keys/derivation'
import { failure } from '../build/support'
import { serviceHarness, type ServiceHarness } from '../service/support'
import { LedgerCardanoAppDouble, type CardanoAppOptions } from './ledger-app-double'
import { CAROL_ACCOUNT, CAROL_LEDGER_KEYS, carol, everyTxKind, type TxKind } from './support'

const SESSION = { timeoutMs: 60_000 }
const CAROL_PAYMENT_PATH = "m/1852'/1815'/0'/0/0"

const app = (options: Partial<CardanoAppOptions> = {}) =>
  new LedgerCardanoAppDouble({ keys: CAROL_LEDGER_KEYS, ...options })

describe('the Cardano app double answers as the app does', () => {
  it("reads the account key through GET_VERSION and GET_EXT_PUBLIC_KEY (m/1852'/1815'/0')", async () => {
    expect(await readLedgerAccount({ ...SESSION, transport: app() }, 0)).toEqual(CAROL_ACCOUNT.xvk)
  })

  it('refuses a key outside the Cardano wallet paths by its policy (0x6E10)', async () => {
    const bitcoinAccount = Buffer.from('03' + '8000002c' + '80000000' + '80000000', 'hex')
    await expect(app().send(0xd7, 0x10, 0, 0, bitcoinAccount)).rejects.toMatchObject({ statusCode: 0x6e10 })
  })

  it('an app too old for Conway is named before any signing APDU', async () => {
    const device = app({ version: [6, 1, 0] })
    const e = await failure(readLedgerAccount({ ...SESSION, transport: device }, 0))
    expect(e.code).toBe('HardwareWalletAppTooOld')
    expect(device.screens).toEqual([])
  })
})

interface Signed {
  readonly unsigned: Uint8Array
  readonly txId: string
  readonly device: LedgerCardanoAppDouble
  readonly signed: DeviceSigned
  /** The transaction with the device's witness spliced in by the product, as submitted. */
  readonly spliced: Uint8Array
  readonly request: Extract<Awaited<ReturnType<typeof planDeviceSigning>>['device'], { vendor: 'ledger' }>['request']
}

let h: ServiceHarness
const signings = new Map<TxKind, Signed>()

beforeAll(async () => {
  h = await serviceHarness()
  await everyTxKind(h, async (built) => {
    const plan = await planDeviceSigning({
      tx: built.tx,
      vendor: 'ledger',
      account: CAROL_ACCOUNT,
      network: 'sandbox',
      resolved: await built.resolved()
    })
    if (plan.device.vendor !== 'ledger') throw new Error('a Ledger plan')
    const device = app()
    const signed = await signWithLedger({ ...SESSION, transport: device }, plan.device.request)
    const spliced = spliceDeviceWitnesses(built.tx, built.txId, CAROL_ACCOUNT, signed).tx
    signings.set(built.kind, {
      unsigned: built.tx,
      txId: built.txId,
      device,
      signed,
      spliced,
      request: plan.device.request
    })
    return spliced
  })
}, 180_000)

afterAll(async () => {
  await h.close()
  await h.sandbox.close()
})

const KINDS: readonly TxKind[] = ['create', 'apply-as-role', 'apply-as-address', 'withdraw']

describe.each(KINDS)('%s signed through ledgerjs over the app double', (kind) => {
  const of = (): Signed => signings.get(kind)!

  it('the app rebuilt exactly the body Desk built, so its hash is the transaction id', () => {
    const { unsigned, txId, device, signed } = of()
    const decoded = decodeTransaction(unsigned)
    expect(device.rebuiltBody).toEqual(unsigned.subarray(decoded.bodyRange.start, decoded.bodyRange.end))
    expect(signed.txHashHex).toBe(txId)
  })

  it("the device's signature, at carol's payment key, verifies against the body hash", () => {
    const { txId, signed } = of()
    expect(signed.signatures.map((s) => s.path)).toEqual([[0x8000073c, 0x80000717, 0x80000000, 0, 0]])
    const key = childPublicKey(CAROL_ACCOUNT.xvk, 'payment', 0, false)
    const verifies = withCsl((s) =>
      s
        .own(CSL.PublicKey.from_bytes(key))
        .verify(
          hexToBytes(txId),
          s.own(CSL.Ed25519Signature.from_bytes(hexToBytes(signed.signatures[0]!.signatureHex)))
        )
    )
    expect(verifies).toBe(true)
  })

  it('the device showed each output, the fee, the transaction id and the key before signing', () => {
    const { unsigned, txId, device } = of()
    const body = decodeTransaction(unsigned).body
    const kinds = device.screens.map((s) => s.kind)
    expect(device.screens[0]).toMatchObject({ kind: 'start', text: 'New Plutus transaction?' })
    expect(kinds.filter((k) => k === 'output')).toHaveLength(body.outputs.length)
    expect(kinds.filter((k) => k === 'collateral-return')).toHaveLength(body.collateralReturn === undefined ? 0 : 1)
    expect(kinds.includes('mint')).toBe(body.mint.length > 0)
    expect(device.screens.find((s) => s.kind === 'tx-id')?.text).toBe(`Transaction id ${txId}`)
    expect(device.screens.at(-1)).toEqual({ kind: 'witness', text: `Sign with ${CAROL_PAYMENT_PATH}`, confirmed: true })
    expect(device.screens.every((s) => s.confirmed)).toBe(true)
  })

  it('spliced by the product and confirmed on the sandbox', async () => {
    const { txId, spliced } = of()
    const submitted = decodeTransaction(spliced)
    expect(submitted.id).toBe(txId)
    expect(submitted.witnessSet.vkeys.map((w) => w.keyHash)).toEqual([carol.paymentKeyHash])
    expect(await h.sandbox.txStatus(txId)).toMatchObject({ status: 'confirmed' })
  })
})

describe('what the device does mid-signing', () => {
  const request = () => signings.get('create')!.request

  it('the user rejects at the final confirmation: HardwareWalletRejected, no signature given', async () => {
    const device = app({ confirm: (s) => s.kind !== 'confirm' })
    const e = await failure(signWithLedger({ ...SESSION, transport: device }, request()))
    expect(e.code).toBe('HardwareWalletRejected')
    expect(e.message).toBe(
      'The request was rejected on the Ledger: nothing was signed or shared. Try again to review it on the device once more'
    )
    expect(device.screens.at(-1)).toMatchObject({ kind: 'confirm', confirmed: false })
    expect(device.screens.some((s) => s.kind === 'witness')).toBe(false)
  })

  it('the user rejects at the first screen', async () => {
    const device = app({ confirm: () => false })
    const e = await failure(signWithLedger({ ...SESSION, transport: device }, request()))
    expect(e.code).toBe('HardwareWalletRejected')
    expect(device.screens).toEqual([{ kind: 'start', text: 'New Plutus transaction?', confirmed: false }])
  })

  it('unplugged mid-signing (at the 12th APDU, before the fee): HardwareWalletDisconnected', async () => {
    const device = app({ unplugAtApdu: 12 })
    const e = await failure(signWithLedger({ ...SESSION, transport: device }, request()))
    expect(e.code).toBe('HardwareWalletDisconnected')
    expect(e.message).toBe(
      'The Ledger was disconnected before it answered: nothing was signed. Reconnect it and try again'
    )
    expect(device.screens[0]).toMatchObject({ kind: 'start', confirmed: true })
    expect(device.screens.some((s) => s.kind === 'fee')).toBe(false)
    expect(device.rebuiltBody).toBeUndefined()
  })

  it('the user never answers the final confirmation: HardwareWalletTimeout, and the device is released', async () => {
    const device = app({ waitsAt: 'confirm' })
    const e = await failure(signWithLedger({ transport: device, timeoutMs: 50 }, request()))
    expect(e.code).toBe('HardwareWalletTimeout')
    expect(e.message).toBe(
      'The Ledger did not answer within 50 ms: nothing was signed. Check the device, then try again'
    )
    expect(device.screens.at(-1)).toMatchObject({ kind: 'tx-id', confirmed: true })
    expect(device.closed).toBe(true)
  })

  it('a body the app refuses (an output on another network than the request names): refused by name', async () => {
    const mainnet = { ...request(), tx: { ...request().tx, network: { networkId: 1, protocolMagic: 764824073 } } }
    const device = app()
    const e = await failure(signWithLedger({ ...SESSION, transport: device }, mainnet))
    expect(e.code).toBe('HardwareWalletRefused')
    expect(e.message).toBe(
      "The Ledger's Cardano app refused this transaction by its security policy (status 0x6e10): nothing was signed. Desk cannot sign it on this device as it is"
    )
    expect(device.screens.filter((s) => s.kind === 'output')).toEqual([])
  })
})

describe('the app double is strict where the app is', () => {
  it('an APDU out of order ends the signing with ERR_INVALID_STATE (0x6E06)', async () => {
    const fee = Buffer.alloc(8)
    await expect(app().send(0xd7, 0x21, 0x04, 0, fee)).rejects.toMatchObject({ statusCode: 0x6e06 })
  })
})

/** One Babbage output to carol with a 600-byte inline datum (three chunks), and a reference script if asked. */
function cslTransaction(referenceScript: boolean): { tx: Uint8Array; scriptRef: Uint8Array } {
  const inputs = CSL.TransactionInputs.new()
  inputs.add(CSL.TransactionInput.new(CSL.TransactionHash.from_hex('07'.repeat(32)), 1))
  const output = CSL.TransactionOutput.new(
    CSL.Address.from_bech32(carol.address),
    CSL.Value.new(CSL.BigNum.from_str('3000000'))
  )
  output.set_plutus_data(CSL.PlutusData.new_bytes(new Uint8Array(600).fill(0x2a)))
  const scriptRef = CSL.ScriptRef.new_plutus_script(CSL.PlutusScript.new_v2(new Uint8Array(300).fill(5)))
  if (referenceScript) output.set_script_ref(scriptRef)
  const outputs = CSL.TransactionOutputs.new()
  outputs.add(output)
  const body = CSL.TransactionBody.new_tx_body(inputs, outputs, CSL.BigNum.from_str('200000'))
  // ScriptRef's bytes are #6.24(bytes .cbor script): the app takes the inner script CBOR (5 bytes of tag and head).
  return {
    tx: CSL.Transaction.new(body, CSL.TransactionWitnessSet.new()).to_bytes(),
    scriptRef: scriptRef.to_bytes().subarray(5)
  }
}

const cslHash = (tx: Uint8Array): string => CSL.FixedTransaction.from_bytes(tx).transaction_hash().to_hex()

describe("Babbage outputs Desk's transactions do not carry, against CSL's serialisation", () => {
  const context = { network: deviceNetwork('sandbox'), witnessPaths: [[0x8000073c, 0x80000717, 0x80000000, 0, 0]] }

  it("an inline datum mapped by the product and sent in 240-byte chunks: the app's hash is CSL's", async () => {
    const { tx } = cslTransaction(false)
    const request = ledgerSignRequest(decodeTransaction(tx), context)
    const signed = await signWithLedger({ ...SESSION, transport: app() }, request)
    expect(signed.txHashHex).toBe(cslHash(tx))
    expect(spliceDeviceWitnesses(tx, cslHash(tx), CAROL_ACCOUNT, signed).witnesses).toHaveLength(1)
  })

  it("and a reference script (which Desk refuses to map) as ledgerjs takes it: the app's hash is CSL's", async () => {
    const { tx, scriptRef } = cslTransaction(true)
    const withoutScript = ledgerSignRequest(decodeTransaction(cslTransaction(false).tx), context)
    const [output] = withoutScript.tx.outputs
    if (output?.format !== TxOutputFormat.MAP_BABBAGE) throw new Error('a Babbage output')
    const request = {
      ...withoutScript,
      tx: { ...withoutScript.tx, outputs: [{ ...output, referenceScriptHex: bytesToHex(scriptRef) }] }
    }
    const signed = await signWithLedger({ ...SESSION, transport: app() }, request)
    expect(signed.txHashHex).toBe(cslHash(tx))
  })
})
