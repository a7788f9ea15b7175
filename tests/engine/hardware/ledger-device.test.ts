/**
 * The Ledger device states, through the Ledger transport mocker replaying APDU exchanges written from the
 * Cardano app's published APDU documentation (vacuumlabs/ledger-app-cardano-shelley, doc/; the app's status
 * words in src/errors.h, which those pages name) and the Ledger OS status words (@ledgerhq/errors StatusCodes).
 */
import { DisconnectedDeviceDuringOperation } from '@ledgerhq/errors'
import { openTransportReplayer, RecordStore } from '@ledgerhq/hw-transport-mocker'
import { describe, expect, it } from 'vitest'
import { bytesToHex } from '../../../src/core/bytes'
import { openLedgerUsb, readLedgerAccount } from '../../../src/engine/hardware/ledger-device'
import { failure } from '../build/support'
import { CAROL_ACCOUNT } from './support'

const OK = '9000'

/** doc/ins_get_app_version.md: CLA 0xD7, INS 0x00, P1 = P2 = 0, Lc = 0; answers major, minor, patch, flags. */
const GET_VERSION = 'd700000000'
const version = (major: number, minor: number, patch: number): string =>
  [major, minor, patch, 0].map((n) => n.toString(16).padStart(2, '0')).join('') + OK

/**
 * doc/ins_get_public_keys.md: CLA 0xD7, INS 0x10, P1 = P2 = 0, data = path length (1 byte) then each index
 * (4 bytes, big endian), with no "remaining keys" field for a single key: m/1852'/1815'/0'. Answers
 * pub_key (32) ‖ chain_code (32).
 */
const GET_ACCOUNT_KEY = 'd71000000d03' + '8000073c' + '80000717' + '80000000'
const ACCOUNT_KEY = bytesToHex(CAROL_ACCOUNT.xvk) + OK

async function replay(exchanges: [string, string][]) {
  const store = new RecordStore(exchanges)
  return { store, transport: await openTransportReplayer(store) }
}

const SESSION = { timeoutMs: 60_000 }

describe('reading the account key from a Ledger', () => {
  it("checks the app, then reads m/1852'/1815'/0' as the documented exchanges give it", async () => {
    const { store, transport } = await replay([
      [GET_VERSION, version(7, 1, 0)],
      [GET_VERSION, version(7, 1, 0)],
      [GET_ACCOUNT_KEY, ACCOUNT_KEY]
    ])
    expect(await readLedgerAccount({ ...SESSION, transport }, 0)).toEqual(CAROL_ACCOUNT.xvk)
    store.ensureQueueEmpty()
  })

  it.each([
    ['the app, at its PIN screen (ERR_DEVICE_LOCKED 0x6E11)', '6e11', 'HardwareWalletLocked'],
    ['the OS, locked (LOCKED_DEVICE 0x5515)', '5515', 'HardwareWalletLocked'],
    ['another app (CLA_NOT_SUPPORTED 0x6E00)', '6e00', 'HardwareWalletWrongApp'],
    ['another app (INS_NOT_SUPPORTED 0x6D00)', '6d00', 'HardwareWalletWrongApp'],
    ['the dashboard, no app open (0x6E01)', '6e01', 'HardwareWalletWrongApp']
  ])('names the state when %s answers', async (_, status, code) => {
    const { transport } = await replay([[GET_VERSION, status]])
    const e = await failure(readLedgerAccount({ ...SESSION, transport }, 0))
    expect(e.code).toBe(code)
    expect(e.details).toMatchObject({ vendor: 'ledger' })
  })

  it('says the messages with a way on', async () => {
    const locked = await failure(
      readLedgerAccount({ ...SESSION, transport: (await replay([[GET_VERSION, '6e11']])).transport }, 0)
    )
    expect(locked.message).toBe(
      'The Ledger is locked. Enter its PIN on the device, open the Cardano app, then try again'
    )
    const wrong = await failure(
      readLedgerAccount({ ...SESSION, transport: (await replay([[GET_VERSION, '6e00']])).transport }, 0)
    )
    expect(wrong.message).toBe(
      'The Cardano app is not open on the Ledger (status 0x6e00). Open the Cardano app, then try again'
    )
  })

  it('refuses an app too old for Conway-era Plutus transactions, naming its version', async () => {
    const { transport } = await replay([[GET_VERSION, version(5, 0, 0)]])
    const e = await failure(readLedgerAccount({ ...SESSION, transport }, 0))
    expect(e.code).toBe('HardwareWalletAppTooOld')
    expect(e.message).toBe(
      "The Ledger's Cardano app is version 5.0.0; Plutus transactions with Conway's encoding need 7.0 or later. Update it (in Ledger Live), then try again"
    )
  })

  it('reports a refusal on the device (ERR_REJECTED_BY_USER 0x6E09, the documented answer)', async () => {
    const { transport } = await replay([
      [GET_VERSION, version(7, 1, 0)],
      [GET_VERSION, version(7, 1, 0)],
      [GET_ACCOUNT_KEY, '6e09']
    ])
    const e = await failure(readLedgerAccount({ ...SESSION, transport }, 0))
    expect(e.code).toBe('HardwareWalletRejected')
    expect(e.message).toBe(
      'The request was rejected on the Ledger: nothing was signed or shared. Try again to review it on the device once more'
    )
  })

  it('reports a device unplugged between exchanges', async () => {
    const { transport } = await replay([[GET_VERSION, version(7, 1, 0)]])
    const replayOne = transport.exchange.bind(transport)
    let calls = 0
    transport.exchange = async (apdu: Buffer) => {
      calls += 1
      if (calls > 1) throw new DisconnectedDeviceDuringOperation('the device was unplugged')
      return replayOne(apdu)
    }
    const e = await failure(readLedgerAccount({ ...SESSION, transport }, 0))
    expect(e.code).toBe('HardwareWalletDisconnected')
  })

  it('gives up on a device that never answers, and releases it', async () => {
    const { transport } = await replay([[GET_VERSION, version(7, 1, 0)]])
    transport.enableExchangeBlocker()
    let closed = false
    const close = transport.close.bind(transport)
    transport.close = async () => {
      closed = true
      return close()
    }
    const e = await failure(readLedgerAccount({ transport, timeoutMs: 10 }, 0))
    expect(e.code).toBe('HardwareWalletTimeout')
    expect(e.message).toBe(
      'The Ledger did not answer within 10 ms: nothing was signed. Check the device, then try again'
    )
    expect(closed).toBe(true)
  })

  it('finds no device on a machine without one (node-hid loaded on demand)', async () => {
    const e = await failure(openLedgerUsb())
    expect(e.code).toBe('HardwareWalletNotFound')
    expect(e.message).toMatch(
      /^No Ledger was found \(.+\)\. Connect it by USB, unlock it and open the Cardano app, then try again$/
    )
  })
})
