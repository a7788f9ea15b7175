/**
 * The Trezor device states, from the errors Trezor Connect itself makes (its `ERRORS.TypedError` codes and the
 * device's `Failure_*` codes it passes on), and Connect's signed payload matched to the paths Desk asked for.
 */
import { ERRORS, PROTO } from '@trezor/connect/lib/constants'
import { describe, expect, it } from 'vitest'
import { bytesToHex } from '../../../src/core/bytes'
import { trezorSigned, trezorStateError } from '../../../src/engine/hardware/trezor-device'
import { childPublicKey } from '../../../src/engine/keys/derivation'
import { CAROL_ACCOUNT, softwareSignatures } from './support'

const failure = (e: InstanceType<typeof ERRORS.TrezorError>) => ({ error: e.message, code: e.code })

describe('Trezor device states', () => {
  it.each([
    [ERRORS.TypedError('Device_NotFound'), 'HardwareWalletNotFound'],
    [ERRORS.TypedError('Transport_Missing'), 'HardwareWalletNotFound'],
    [new ERRORS.TrezorError('Failure_PinCancelled', 'PIN cancelled'), 'HardwareWalletLocked'],
    [ERRORS.TypedError('Device_MissingCapabilityBtcOnly'), 'HardwareWalletWrongApp'],
    [ERRORS.TypedError('Device_FwException', 'ui-device_firmware_outdated'), 'HardwareWalletAppTooOld'],
    [new ERRORS.TrezorError('Failure_ActionCancelled', 'Action cancelled by user'), 'HardwareWalletRejected'],
    [ERRORS.TypedError('Device_Disconnected'), 'HardwareWalletDisconnected']
  ])('%s is %s', (error, code) => {
    const e = trezorStateError(failure(error))
    expect(e.code).toBe(code)
    expect(e.details).toMatchObject({ vendor: 'trezor' })
  })

  it('says what to do', () => {
    expect(
      trezorStateError(failure(ERRORS.TypedError('Device_FwException', 'ui-device_firmware_outdated'))).message
    ).toBe(
      "The Trezor's firmware is too old for Cardano Plutus transactions (ui-device_firmware_outdated). Update it (in Trezor Suite), then try again"
    )
    expect(trezorStateError(failure(ERRORS.TypedError('Device_NotFound'))).message).toBe(
      'No Trezor was found (Device not found). Connect it by USB, unlock it and keep Trezor Bridge or the USB connection available, then try again'
    )
  })

  it('keeps any other failure as Trezor said it', () => {
    const e = trezorStateError(failure(ERRORS.TypedError('Device_CallInProgress')))
    expect(e).toMatchObject({ code: 'HardwareWalletFailed', message: 'Trezor answered: Device call in progress' })
  })
})

describe("Trezor's signed payload", () => {
  const path = [0x80000000 + 1852, 0x80000000 + 1815, 0x80000000, 0, 0]
  const hash = 'ab'.repeat(32)
  const [signature] = softwareSignatures(hash, [path])
  const pubKey = bytesToHex(childPublicKey(CAROL_ACCOUNT.xvk, 'payment', 0, false))

  it('names each witness by the requested path of its key', () => {
    const payload = {
      hash,
      witnesses: [{ type: PROTO.CardanoTxWitnessType.SHELLEY_WITNESS, pubKey, signature: signature!.signatureHex }]
    }
    expect(trezorSigned(payload, CAROL_ACCOUNT, [path])).toEqual({
      vendor: 'trezor',
      txHashHex: hash,
      signatures: [{ path, signatureHex: signature!.signatureHex }]
    })
  })

  it('refuses a witness by a key Desk did not ask for', () => {
    const other = bytesToHex(childPublicKey(CAROL_ACCOUNT.xvk, 'payment', 1, false))
    const payload = {
      hash,
      witnesses: [
        { type: PROTO.CardanoTxWitnessType.SHELLEY_WITNESS, pubKey: other, signature: signature!.signatureHex }
      ]
    }
    expect(() => trezorSigned(payload, CAROL_ACCOUNT, [path])).toThrow(
      `Trezor returned a signature by key ${other}, which is none of the keys Desk asked it to sign with`
    )
  })
})
