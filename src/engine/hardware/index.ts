/**
 * Hardware wallets (Ledger, Trezor, Keystone): the device requests built from a transaction, and the witnesses
 * they return.
 */
export { accountPath, deviceNetwork, VENDOR_NAME, type DeviceNetwork } from './device-plan'
export {
  planDeviceSigning,
  type DeviceRequest,
  type DeviceSigningInput,
  type DeviceSigningPlan
} from './device-signing'
export { spliceDeviceWitnesses, type DeviceSignature, type DeviceSigned } from './device-witnesses'
export { checkLedgerRequest, ledgerSignRequest } from './ledger-request'
export { checkTrezorParams, trezorSignParams } from './trezor-params'
export { deviceStateError, withDeviceTimeout, type DeviceState } from './device-states'
export {
  ledgerStateError,
  openLedgerUsb,
  readLedgerAccount,
  signWithLedger,
  type LedgerSession,
  type LedgerTransport
} from './ledger-device'
export {
  readTrezorAccount,
  signWithTrezor,
  trezorSigned,
  trezorStateError,
  type TrezorCardano,
  type TrezorSession
} from './trezor-device'
export { deviceSteps } from './device-steps'
export {
  KEYSTONE_SIGNATURE_READING,
  keystoneSignRequest,
  spliceKeystoneSignature,
  type IssuedKeystoneRequest,
  type KeystoneSignatureScan
} from './keystone'
export { closeTrezorUsb, openTrezorUsb } from './trezor-usb'
