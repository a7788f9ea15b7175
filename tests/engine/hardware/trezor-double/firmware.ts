/**
 * A Trezor Model T on firmware 2.9.1 unless told otherwise (releases Connect bundles, so it checks them offline), holding
 * carol's account as its seed: Initialize/GetFeatures → Features, CardanoGetPublicKey → CardanoPublicKey, and
 * the Cardano signing exchange (CardanoSignTxInit, one CardanoTxItemAck per item, the witness requests, the
 * body hash). Like the firmware, it rebuilds the body's CBOR from the items it is sent and signs the hash of
 * what it rebuilt, so a signature verifies only if the items reproduce Desk's exact body.
 */
import { createRequire } from 'node:module'
import { bytesToHex } from '../../../../src/core/bytes'
import { childPublicKey } from '../../../../src/engine/keys/derivation'
import { CAROL_ACCOUNT, softwareSignatures } from '../support'
import { Unplugged, type DeviceDouble, type Message, type Reply } from './bridge'
import { ProcessError, TxBodyRebuild } from './tx-body'

const HARDENED = 0x80000000
const ACCOUNT_PATH = [HARDENED + 1852, HARDENED + 1815, HARDENED]
const ROLES = ['payment', 'change', 'stake'] as const
const STATE_PATH = [HARDENED + 44, HARDENED + 1, HARDENED, 0, 0]

const require = createRequire(import.meta.url)

/** The commit a release was built from, as Connect's bundled release data names it (Features.revision). */
function revision(version: string, bitcoinOnly: boolean): string {
  const kind = bitcoinOnly ? 'bitcoinonly' : 'universal'
  const release = require(`@trezor/connect-common/files/firmware/t2t1/${kind}/t2t1-${version}-${kind}.json`) as {
    firmware_revision: string
  }
  return release.firmware_revision
}

/** What the person holding the device does, and what becomes of the device, at a given message. */
export interface DeviceScript {
  /** Its firmware release (2.9.1 unless named), and whether it is the Bitcoin-only build (no Cardano app). */
  readonly firmware?: string
  readonly bitcoinOnly?: boolean
  /** The device asks for its PIN (on its own screen) and the person cancels it. */
  readonly locked?: boolean
  /** Passphrase protection is on: the device asks the host how the passphrase is entered, at the first seed use. */
  readonly passphrase?: boolean
  /** The person presses "cancel" on the final confirmation, shown once the last item of the body came. */
  readonly reject?: boolean
  /** The cable is pulled when this message arrives. */
  readonly unplugAt?: string
  /** The device shows the request and the person never answers: the call waits until the host cancels it. */
  readonly neverConfirms?: boolean
  /** Its firmware writes sets without their 258 tag whatever the host asks: it rebuilds another body. */
  readonly untaggedSets?: boolean
}

const failure = (code: string, message: string): Reply => ({ type: 'Failure', message: { code, message } })
const ack: Reply = { type: 'CardanoTxItemAck', message: {} }

export class TrezorModelT implements DeviceDouble {
  /** The bodies rebuilt from the items received, as CBOR hex, one per signing. */
  readonly rebuilt: string[] = []
  private signing: TxBodyRebuild | undefined
  /** The rebuilt body's hash once the witness requests began, and whether the host was told it. */
  private bodyHash: string | undefined
  private hashSent = false
  private pinAsked = false
  /** The answer a person has not given yet, given by a `Cancel`. */
  private waiting: ((reply: Reply) => void) | undefined
  private passphraseEntered = false
  private stateAsked: Message | undefined

  constructor(private readonly script: DeviceScript = {}) {}

  answer(type: string, message: Message): Reply | Promise<Reply> | undefined {
    if (type === 'Cancel' && this.waiting !== undefined) {
      this.waiting(failure('Failure_ActionCancelled', 'Cancelled'))
      this.waiting = undefined
      return undefined
    }
    if (type === 'ButtonAck' && this.script.neverConfirms) {
      return new Promise<Reply>((resolve) => {
        this.waiting = resolve
      })
    }
    try {
      return this.step(type, message)
    } catch (e) {
      if (!(e instanceof ProcessError)) throw e
      this.signing = undefined
      return failure('Failure_ProcessError', e.message)
    }
  }

  private step(type: string, message: Message): Reply {
    if (type === this.script.unplugAt) throw new Unplugged()
    switch (type) {
      case 'Cancel':
        this.signing = undefined
        this.pinAsked = false
        return failure('Failure_ActionCancelled', 'Cancelled')
      case 'Initialize':
      case 'GetFeatures':
        return { type: 'Features', message: this.features() }
      case 'ButtonAck':
        if (!this.pinAsked) return failure('Failure_UnexpectedMessage', 'Unexpected message')
        this.pinAsked = false
        return failure('Failure_PinCancelled', 'PIN entry cancelled')
      case 'GetAddress':
        if (this.script.passphrase && !this.passphraseEntered) {
          this.stateAsked = message
          return { type: 'PassphraseRequest', message: {} }
        }
        return this.stateAddress(message)
      case 'PassphraseAck':
        // Entered on the device's own screen, or refused: this double takes only that way.
        if (message.on_device !== true)
          return failure('Failure_DataError', 'this double takes the passphrase on the device')
        this.passphraseEntered = true
        return this.stateAddress(this.stateAsked ?? {})
      case 'CardanoGetPublicKey':
        if (this.script.neverConfirms) return { type: 'ButtonRequest', message: { code: 'ButtonRequest_Other' } }
        return this.publicKey(message)
      case 'CardanoSignTxInit':
        if (this.script.locked) return this.askPin()
        this.signing = new TxBodyRebuild(message, this.script.untaggedSets)
        this.bodyHash = undefined
        this.hashSent = false
        return ack
      case 'CardanoTxWitnessRequest':
        return this.witness(message)
      case 'CardanoTxHostAck':
        return this.hostAck()
      default:
        return this.item(type, message)
    }
  }

  /**
   * A body item. The firmware acknowledges the last one only after the final confirmation, so a "cancel" there
   * is the answer to that item.
   */
  private item(type: string, message: Message): Reply {
    const signing = this.signing
    if (signing === undefined) return failure('Failure_UnexpectedMessage', 'Unexpected message')
    const reply = signing.item(type, message) ?? ack
    if (this.script.reject && signing.missing().length === 0) {
      this.signing = undefined
      return failure('Failure_ActionCancelled', 'Action cancelled by user')
    }
    return reply
  }

  private askPin(): Reply {
    this.pinAsked = true
    return { type: 'ButtonRequest', message: { code: 'ButtonRequest_PinEntry' } }
  }

  private features(): Message {
    const version = this.script.firmware ?? '2.9.1'
    const [major, minor, patch] = version.split('.').map(Number)
    return {
      vendor: 'trezor.io',
      major_version: major,
      minor_version: minor,
      patch_version: patch,
      device_id: 'DESKTESTDOUBLE01',
      pin_protection: this.script.locked === true,
      passphrase_protection: this.script.passphrase === true,
      language: 'en-US',
      label: 'Desk double',
      initialized: true,
      revision: revision(version, this.script.bitcoinOnly === true),
      unlocked: this.script.locked !== true,
      backup_availability: 'NotAvailable',
      model: 'T',
      internal_model: 'T2T1',
      capabilities: this.script.bitcoinOnly
        ? ['Capability_Bitcoin', 'Capability_Crypto', 'Capability_PassphraseEntry']
        : [
            'Capability_Bitcoin',
            'Capability_Bitcoin_like',
            'Capability_Cardano',
            'Capability_Crypto',
            'Capability_Shamir',
            'Capability_ShamirGroups',
            'Capability_PassphraseEntry'
          ],
      session_id: '11'.repeat(32),
      safety_checks: 'Strict',
      busy: false,
      language_version_matches: true
    }
  }

  /**
   * Connect names a device's session by the seed's first Bitcoin testnet address (m/44'/1'/0'/0/0) and uses it
   * for nothing else; this double has no Bitcoin app, so one fixed testnet address stands for it.
   */
  private stateAddress(message: Message): Reply {
    if (this.script.locked) return this.askPin()
    if (message.coin_name !== 'Testnet' || JSON.stringify(message.address_n) !== JSON.stringify(STATE_PATH))
      return failure('Failure_DataError', 'this double has no Bitcoin app')
    return { type: 'Address', message: { address: 'mkDeskDoub1eStateAddressXXXXXXXXXX' } }
  }

  private publicKey(message: Message): Reply {
    if (this.script.locked) return this.askPin()
    const path = message.address_n as number[]
    if (JSON.stringify(path) !== JSON.stringify(ACCOUNT_PATH))
      return failure('Failure_DataError', 'this double holds account 0 only')
    const key = CAROL_ACCOUNT.xvk
    return {
      type: 'CardanoPublicKey',
      message: {
        xpub: bytesToHex(key),
        node: {
          depth: 3,
          fingerprint: 0,
          child_num: HARDENED,
          public_key: bytesToHex(key.subarray(0, 32)),
          chain_code: bytesToHex(key.subarray(32, 64))
        }
      }
    }
  }

  private witness(message: Message): Reply {
    const signing = this.signing
    if (signing === undefined) return failure('Failure_UnexpectedMessage', 'Unexpected message')
    if (this.bodyHash === undefined) {
      const body = signing.finish()
      this.rebuilt.push(bytesToHex(body.cbor))
      this.bodyHash = body.hash
    }
    const path = message.path as number[]
    const [signature] = softwareSignatures(this.bodyHash, [path])
    const role = ROLES[path[3]!]!
    return {
      type: 'CardanoTxWitnessResponse',
      message: {
        type: 'SHELLEY_WITNESS',
        pub_key: bytesToHex(childPublicKey(CAROL_ACCOUNT.xvk, role, path[4]!, false)),
        signature: signature!.signatureHex
      }
    }
  }

  private hostAck(): Reply {
    if (this.signing === undefined) return failure('Failure_UnexpectedMessage', 'Unexpected message')
    if (this.signing.expectsHostAck()) return ack
    if (this.bodyHash === undefined) throw new ProcessError('no witness was requested')
    if (!this.hashSent) {
      this.hashSent = true
      return { type: 'CardanoTxBodyHash', message: { tx_hash: this.bodyHash } }
    }
    this.signing = undefined
    return { type: 'CardanoSignTxFinished', message: {} }
  }
}
