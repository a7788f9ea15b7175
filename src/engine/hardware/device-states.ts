/**
 * What can stand between Desk and a hardware wallet, each with what to do about it. Both vendors' errors map
 * onto these states, so the app shows one message per state whatever the device.
 */
import { EngineError } from '../errors'
import type { HardwareVendor } from '../keys'
import { VENDOR_NAME } from './device-plan'

export type DeviceState = 'no-device' | 'locked' | 'wrong-app' | 'app-too-old' | 'rejected' | 'unplugged' | 'timeout'

const CODES: Readonly<Record<DeviceState, string>> = {
  'no-device': 'HardwareWalletNotFound',
  locked: 'HardwareWalletLocked',
  'wrong-app': 'HardwareWalletWrongApp',
  'app-too-old': 'HardwareWalletAppTooOld',
  rejected: 'HardwareWalletRejected',
  unplugged: 'HardwareWalletDisconnected',
  timeout: 'HardwareWalletTimeout'
}

function message(state: DeviceState, vendor: HardwareVendor, detail: string): string {
  const name = VENDOR_NAME[vendor]
  const app = vendor === 'ledger' ? 'open the Cardano app' : 'keep Trezor Bridge or the USB connection available'
  switch (state) {
    case 'no-device':
      return `No ${name} was found${detail}. Connect it by USB, unlock it and ${app}, then try again`
    case 'locked':
      return `The ${name} is locked. Enter its PIN on the device${vendor === 'ledger' ? ', open the Cardano app' : ''}, then try again`
    case 'wrong-app':
      return `The Cardano app is not open on the ${name} (${detail}). Open the Cardano app, then try again`
    case 'app-too-old':
      return `${detail}. Update it (${vendor === 'ledger' ? 'in Ledger Live' : 'in Trezor Suite'}), then try again`
    case 'rejected':
      return `The request was rejected on the ${name}: nothing was signed or shared. Try again to review it on the device once more`
    case 'unplugged':
      return `The ${name} was disconnected before it answered: nothing was signed. Reconnect it and try again`
    case 'timeout':
      return `The ${name} did not answer within ${detail}: nothing was signed. Check the device, then try again`
  }
}

export function deviceStateError(state: DeviceState, vendor: HardwareVendor, detail = ''): EngineError {
  return new EngineError('Unavailable', CODES[state], message(state, vendor, detail), { vendor, state })
}

/**
 * `work`, or the timeout state once `ms` pass without an answer; `abandon` then releases the device (a device
 * waiting for the user to confirm never answers by itself).
 */
export async function withDeviceTimeout<T>(
  vendor: HardwareVendor,
  ms: number,
  work: Promise<T>,
  abandon: () => Promise<void>
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      void abandon().catch(() => undefined)
      reject(deviceStateError('timeout', vendor, ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`))
    }, ms)
  })
  try {
    return await Promise.race([work, timeout])
  } finally {
    clearTimeout(timer)
  }
}
