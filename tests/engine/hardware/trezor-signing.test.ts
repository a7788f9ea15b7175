/**
 * Every kind of transaction Desk builds, signed through Trezor Connect (its `cardanoSignTransaction`, its
 * BridgeTransport) by the Model T double behind a Bridge double: the device rebuilds the body's CBOR from the
 * items Connect sends and signs the hash of what it rebuilt, so these pass only if Desk's parameters reproduce
 * Desk's exact body. The witnesses are verified and spliced, and the sandbox confirms each transaction. Then the
 * states a signing can end in: rejected on the device, unplugged mid-way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bytesToHex } from '../../../src/core/bytes'
import { decodeTransaction } from '../../../src/core/cardano/tx'
import { planDeviceSigning, spliceDeviceWitnesses, type DeviceSigningPlan } from '../../../src/engine/hardware'
import { TrezorConnection } from '../../../src/engine/hardware/trezor-connect'
import { signWithTrezor } from '../../../src/engine/hardware/trezor-device'
import { serviceHarness, type ServiceHarness } from '../service/support'
import { failure } from '../build/support'
import { CAROL_ACCOUNT, carol, everyTxKind, type Built, type TxKind } from './support'
import { BridgeDouble } from './trezor-double/bridge'
import { TrezorModelT, type DeviceScript } from './trezor-double/firmware'

interface Signed {
  readonly built: Built
  readonly plan: DeviceSigningPlan
  /** The body the device rebuilt from Connect's messages, hex. */
  readonly rebuilt: string
  readonly signedTx: Uint8Array
  readonly received: readonly string[]
}

let h: ServiceHarness
let bridge: BridgeDouble
let connection: TrezorConnection
const signed = new Map<TxKind, Signed>()

const session = async () => ({ connect: await connection.open(), timeoutMs: 60_000 })

async function plan(built: Built): Promise<DeviceSigningPlan> {
  const resolved = await built.resolved()
  return planDeviceSigning({ tx: built.tx, vendor: 'trezor', account: CAROL_ACCOUNT, network: 'sandbox', resolved })
}

/** Plugs in a device double acting as `script`, once Connect has let go of the one before. */
async function plug(script: DeviceScript = {}): Promise<TrezorModelT> {
  const device = new TrezorModelT(script)
  await bridge.plugSeen(device)
  return device
}

let lastBuilt: Built | undefined

beforeAll(async () => {
  h = await serviceHarness()
  bridge = await BridgeDouble.start()
  connection = new TrezorConnection([bridge.transport()])
  const device = new TrezorModelT()
  bridge.plug(device)
  await everyTxKind(h, async (built) => {
    const planned = await plan(built)
    if (planned.device.vendor !== 'trezor') throw new Error('a Trezor plan')
    const from = bridge.received.length
    const answer = await signWithTrezor(await session(), planned.device.request, CAROL_ACCOUNT)
    const { tx } = spliceDeviceWitnesses(built.tx, built.txId, CAROL_ACCOUNT, answer)
    signed.set(built.kind, {
      built,
      plan: planned,
      rebuilt: device.rebuilt.at(-1)!,
      signedTx: tx,
      received: bridge.received.slice(from)
    })
    lastBuilt = built
    return tx
  })
}, 180_000)

afterAll(async () => {
  await connection.dispose()
  await bridge.close()
  await h.close()
  await h.sandbox.close()
})

const KINDS: readonly TxKind[] = ['create', 'apply-as-role', 'apply-as-address', 'withdraw']

describe.each(KINDS)('%s signed through Trezor Connect', (kind) => {
  const of = (): Signed => signed.get(kind)!

  it("the device rebuilt Desk's exact body from Connect's messages", () => {
    const { built, rebuilt } = of()
    expect(rebuilt).toBe(bytesToHex(decodeTransaction(built.tx).bodyBytes))
  })

  it('its witness verifies against the body hash, is spliced, and the sandbox confirms the transaction', async () => {
    const { built, signedTx } = of()
    const decoded = decodeTransaction(signedTx)
    expect(decoded.id).toBe(built.txId)
    expect(bytesToHex(decoded.bodyBytes)).toBe(bytesToHex(decodeTransaction(built.tx).bodyBytes))
    expect(decoded.witnessSet.vkeys.map((w) => w.keyHash)).toEqual([carol.paymentKeyHash])
    expect(await h.sandbox.txStatus(built.txId)).toMatchObject({ status: 'confirmed' })
  })
})

describe('what each kind sent the device', () => {
  const items = (kind: TxKind) => signed.get(kind)!.received

  it('create: the mint (its asset group and token), the auxiliary data by hash', () => {
    expect(items('create')).toEqual(
      expect.arrayContaining(['CardanoSignTxInit', 'CardanoTxMint', 'CardanoTxAuxiliaryData', 'CardanoTxHostAck'])
    )
  })

  it('apply and withdraw: collateral, its return, reference inputs; apply as an address: the required signer', () => {
    for (const kind of ['apply-as-role', 'apply-as-address', 'withdraw'] as const) {
      expect(items(kind)).toEqual(
        expect.arrayContaining(['CardanoTxCollateralInput', 'CardanoTxReferenceInput', 'CardanoTxWitnessRequest'])
      )
    }
    expect(items('apply-as-address')).toContain('CardanoTxRequiredSigner')
  })
})

describe('the rebuild depends on what Desk sends', () => {
  it('parameters that drop a body detail (sets without their 258 tag): another body, its signatures refused', async () => {
    const device = await plug()
    const planned = await plan(lastBuilt!)
    if (planned.device.vendor !== 'trezor') throw new Error('a Trezor plan')
    const request = { ...planned.device.request, tagCborSets: !planned.device.request.tagCborSets }
    const answer = await signWithTrezor(await session(), request, CAROL_ACCOUNT)
    expect(device.rebuilt.at(-1)).not.toBe(bytesToHex(decodeTransaction(lastBuilt!.tx).bodyBytes))
    expect(() => spliceDeviceWitnesses(lastBuilt!.tx, lastBuilt!.txId, CAROL_ACCOUNT, answer)).toThrow(
      expect.objectContaining({ code: 'HardwareWalletBodyMismatch' })
    )
  })
})

describe('a signing that ends on the device', () => {
  const request = async () => {
    const planned = await plan(lastBuilt!)
    if (planned.device.vendor !== 'trezor') throw new Error('a Trezor plan')
    return planned.device.request
  }

  it('rejected at the final confirmation: HardwareWalletRejected, nothing signed', async () => {
    await plug({ reject: true })
    const e = await failure(signWithTrezor(await session(), await request(), CAROL_ACCOUNT))
    expect(e.code).toBe('HardwareWalletRejected')
    expect(bridge.received.at(-1)).toBe('CardanoTxReferenceInput')
  })

  it('firmware 2.5.3, older than Plutus signing needs: HardwareWalletAppTooOld, before anything is sent', async () => {
    await plug({ firmware: '2.5.3' })
    const from = bridge.received.length
    const e = await failure(signWithTrezor(await session(), await request(), CAROL_ACCOUNT))
    expect(e.code).toBe('HardwareWalletAppTooOld')
    expect(bridge.received.slice(from)).not.toContain('CardanoSignTxInit')
  })

  it('the Bitcoin-only firmware (no Cardano app): HardwareWalletWrongApp', async () => {
    await plug({ bitcoinOnly: true })
    const e = await failure(signWithTrezor(await session(), await request(), CAROL_ACCOUNT))
    expect(e.code).toBe('HardwareWalletWrongApp')
  })

  it('unplugged while the outputs are sent: HardwareWalletDisconnected', async () => {
    await plug({ unplugAt: 'CardanoTxOutput' })
    const e = await failure(signWithTrezor(await session(), await request(), CAROL_ACCOUNT))
    expect(e.code).toBe('HardwareWalletDisconnected')
  })
})
