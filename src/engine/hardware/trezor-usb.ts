/**
 * The process's Trezor Connect, loaded at the first Trezor call: Connect and its USB transport (a native addon)
 * are large, and most runs of Desk never reach a Trezor.
 */
import { deviceStateError } from './device-states'
import type { TrezorCardano } from './trezor-device'

let loaded: Promise<typeof import('./trezor-connect')> | undefined

export async function openTrezorUsb(): Promise<TrezorCardano> {
  loaded ??= import('./trezor-connect')
  let connect
  try {
    connect = await loaded
  } catch (e) {
    loaded = undefined
    throw deviceStateError('no-device', 'trezor', ` (Trezor Connect cannot start here: ${(e as Error).message})`)
  }
  return connect.TREZOR.open()
}

/** Lets go of Connect and its transport, if a Trezor call started it. */
export async function closeTrezorUsb(): Promise<void> {
  const connect = await loaded?.catch(() => undefined)
  await connect?.TREZOR.dispose()
}
