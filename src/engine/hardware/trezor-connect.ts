/**
 * Trezor Connect in the engine's own process (Electron's main process, or `serve`): a device is reached through
 * Trezor Bridge (trezord, HTTP on 127.0.0.1) when one runs, else over USB directly (node-usb). There is no popup:
 * Desk shows what the device will show itself, so a question only a popup could answer (which of several
 * devices) stops the call with the state it means, a passphrase is typed on the device, and with no device
 * connected a call is not made at all (Connect would wait for one). Connect is one per process; it starts
 * at the first Trezor call and is disposed when Desk closes.
 */
import TrezorConnect, {
  DEVICE,
  DEVICE_EVENT,
  UI,
  UI_EVENT,
  type ConnectSettingsPublic,
  type DeviceEventMessage,
  type ERRORS,
  type UiEventMessage
} from '@trezor/connect'
import type { ConnectAnswer, TrezorCardano } from './trezor-device'

/** Connect's own transports for Node, in the order tried: Bridge (ports 21328 and 21325), then node-usb. */
const TREZOR_TRANSPORTS: NonNullable<ConnectSettingsPublic['transports']> = ['BridgeTransport', 'NodeUsbTransport']

/**
 * Who is asking, as Connect requires of every app (Trezor shows it nowhere on the device). Desk has no contact
 * address of its own yet, so none is claimed: the host part says it is local.
 */
const MANIFEST = {
  appName: 'Marlowe Desk',
  appUrl: 'https://github.com/input-output-hk/marlowe-cardano',
  email: 'marlowe-desk@localhost'
}

/** The failure a Connect call ends with when Desk stopped it, in Connect's and the device's codes. */
interface Stop {
  readonly error: string
  readonly code: ERRORS.ErrorCode
}

const NOT_FOUND: Stop = { error: 'no Trezor is connected', code: 'Device_NotFound' }

/** What Desk answers to a question Connect asks the host mid-call: nothing, or stop with a state. */
function stopFor(event: UiEventMessage): Stop | undefined {
  switch (event.type) {
    case UI.SELECT_DEVICE:
      return event.payload.devices.length === 0
        ? NOT_FOUND
        : { error: 'more than one Trezor is connected: keep only the one to use', code: 'Device_CallInProgress' }
    default:
      return undefined
  }
}

export class TrezorConnection {
  private started: Promise<void> | undefined
  private stop: Stop | undefined
  /** The devices Connect has found, by path. */
  private readonly devices = new Set<string>()
  private readonly onDevice = (event: DeviceEventMessage) => {
    if (event.type === DEVICE.CONNECT || event.type === DEVICE.CONNECT_UNACQUIRED) this.devices.add(event.payload.path)
    if (event.type === DEVICE.DISCONNECT) this.devices.delete(event.payload.path)
  }
  private readonly onUi = (event: UiEventMessage) => {
    // Desk never holds a passphrase: the person types it on the device, which then opens that wallet.
    if (event.type === UI.REQUEST_PASSPHRASE) {
      TrezorConnect.uiResponse({
        type: UI.RECEIVE_PASSPHRASE,
        payload: { value: '', passphraseOnDevice: true, save: true }
      })
      return
    }
    const stop = stopFor(event)
    if (stop === undefined) return
    this.stop = stop
    TrezorConnect.cancel(stop.error)
  }

  constructor(private readonly transports: NonNullable<ConnectSettingsPublic['transports']> = TREZOR_TRANSPORTS) {}

  /** Connect's Cardano calls, Connect started on first use. */
  async open(): Promise<TrezorCardano> {
    this.started ??= this.start()
    await this.started
    return this.cardano
  }

  /** Stops Connect and lets go of the transport; the next `open` starts it again. */
  async dispose(): Promise<void> {
    if (this.started === undefined) return
    const started = this.started
    this.started = undefined
    await started.catch(() => undefined)
    this.listen('off')
    this.devices.clear()
    await TrezorConnect.dispose()
  }

  private listen(how: 'on' | 'off'): void {
    TrezorConnect[how](UI_EVENT, this.onUi)
    TrezorConnect[how](DEVICE_EVENT, this.onDevice)
  }

  private async start(): Promise<void> {
    this.listen('on')
    try {
      await TrezorConnect.init({
        manifest: MANIFEST,
        transports: [...this.transports],
        popup: false,
        // Started now (at Desk's first Trezor call), so the devices already connected are known before it.
        lazyLoad: false,
        pendingTransportEvent: true,
        transportReconnect: false,
        trustedHost: true,
        debug: false
      })
      // Connect holds the device events of its start-up and lets them go on the next timer tick.
      await new Promise((resolve) => setTimeout(resolve, 0))
    } catch (e) {
      this.listen('off')
      this.started = undefined
      throw e
    }
  }

  /** Connect's answer, or the state Desk stopped the call for. */
  private async answer<T>(call: () => ConnectAnswer<T>): ConnectAnswer<T> {
    if (this.devices.size === 0) return { success: false, payload: NOT_FOUND }
    this.stop = undefined
    const answer = await call()
    const stop = this.stop
    this.stop = undefined
    return !answer.success && stop !== undefined ? { success: false, payload: stop } : answer
  }

  private readonly cardano: TrezorCardano = {
    cardanoGetPublicKey: (params) => this.answer(() => TrezorConnect.cardanoGetPublicKey(params)),
    cardanoSignTransaction: (params) => this.answer(() => TrezorConnect.cardanoSignTransaction(params)),
    cancel: () => TrezorConnect.cancel('Desk stopped waiting for the device')
  }
}

/** The process's Trezor Connect on the transports Desk uses. */
export const TREZOR = new TrezorConnection()
