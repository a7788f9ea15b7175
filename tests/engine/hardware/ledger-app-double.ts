/**
 * A Ledger with the Cardano app open, at the transport: `exchange(apdu)` answers as the app does, so
 * ledgerjs-hw-app-cardano talks to it exactly as to a device. Written from the app's published protocol
 * (vacuumlabs/ledger-app-cardano-shelley, doc/ins_get_app_version.md, doc/ins_get_public_keys.md,
 * doc/ins_sign_tx.md) and, for the Babbage/Conway elements those pages leave out, from the app's own source
 * (src/signTx.c: the init header, the stage order and each P1; src/signTxOutput.c and src/signTxMint.c: the
 * output and mint sub-machines, datum and reference-script chunks; src/txHashBuilder.c: the body CBOR;
 * src/securityPolicy.c: what it refuses; src/errors.h: the status words).
 *
 * Like the app, it never receives the body: it rebuilds the body CBOR from the APDUs, appending every piece to
 * a running blake2b-256 as it goes, answers the confirmation with that hash, and signs that hash at each
 * requested path with a software key. A signature that verifies against Desk's body hash therefore proves the
 * request made the device write exactly Desk's body.
 *
 * Modelled: GET_VERSION, GET_EXT_PUBLIC_KEY, and SIGN_TX's init, arbitrary-hash auxiliary data, inputs, outputs
 * to third-party addresses (tokens, datum by hash or inline in chunks, reference scripts in chunks), fee, TTL,
 * validity start, mint, script data hash, collateral inputs, required signers by hash, network id, collateral
 * return, total collateral, reference inputs, confirmation and witnesses. Not modelled (Desk sends none, and an
 * APDU for one fails the test loudly rather than answering as a device might): certificates, reward
 * withdrawals, CIP-36 registrations, device-owned outputs, required signers by path, votes, treasury, donation.
 * The host's side of the cable is modelled too: the user confirming or rejecting each screen, or walking away
 * from one; the cable pulled before a given APDU.
 */
import { DisconnectedDevice, DisconnectedDeviceDuringOperation } from '@ledgerhq/errors'
import Transport from '@ledgerhq/hw-transport'
import { blake2b } from '@noble/hashes/blake2.js'
import { bytesToHex, concatBytes } from '../../../src/core/bytes'
import { encodeHead } from '../../../src/core/cardano/cbor'

/** src/errors.h. */
export const SW = {
  ok: 0x9000,
  malformedHeader: 0x6e01,
  badCla: 0x6e02,
  unknownIns: 0x6e03,
  stillInCall: 0x6e04,
  invalidParameters: 0x6e05,
  invalidState: 0x6e06,
  invalidData: 0x6e07,
  rejectedByUser: 0x6e09,
  rejectedByPolicy: 0x6e10
} as const

/**
 * A screen the app shows and waits on, with the app's wording on a Nano S (src/signTx_ui.c) where it has one;
 * `confirm` returning false is the user pressing reject.
 */
export interface Screen {
  readonly kind: 'start' | 'output' | 'fee' | 'mint' | 'collateral-return' | 'tx-id' | 'confirm' | 'witness'
  readonly text: string
}

export interface CardanoAppKeys {
  /** pub_key ‖ chain_code at `path`. */
  extendedPublicKey(path: readonly number[]): Uint8Array
  /** The 64-byte Ed25519 signature of `hash` by the key at `path`. */
  sign(path: readonly number[], hash: Uint8Array): Uint8Array
}

export interface CardanoAppOptions {
  readonly keys: CardanoAppKeys
  /** Defaults to the app's current release, 7.1.3. */
  readonly version?: readonly [number, number, number]
  /** The user at each screen; confirms everything by default. */
  readonly confirm?: (screen: Screen) => boolean
  /** The cable is pulled just before this APDU (1-based, counted over the whole session) reaches the device. */
  readonly unplugAtApdu?: number
  /** The user walks away at the first screen of this kind: the APDU that shows it is never answered. */
  readonly waitsAt?: Screen['kind']
}

const CLA = 0xd7
const INS = { getVersion: 0x00, getPublicKeys: 0x10, signTx: 0x21 } as const

/** src/signTx.c lookup_subhandler. */
const P1 = {
  init: 0x01,
  inputs: 0x02,
  outputs: 0x03,
  fee: 0x04,
  ttl: 0x05,
  auxData: 0x08,
  validityStart: 0x09,
  confirm: 0x0a,
  mint: 0x0b,
  scriptDataHash: 0x0c,
  collateralInputs: 0x0d,
  requiredSigners: 0x0e,
  witnesses: 0x0f,
  totalCollateral: 0x10,
  referenceInputs: 0x11,
  collateralOutput: 0x12
} as const

/** src/signTxOutput.c and src/signTxMint.c sub-machine instructions (P2). */
const P2 = {
  topLevel: 0x30,
  assetGroup: 0x31,
  token: 0x32,
  confirm: 0x33,
  datum: 0x34,
  datumChunk: 0x35,
  refScript: 0x36,
  refScriptChunk: 0x37
} as const

/** src/signTx.h sign_tx_signingmode_t. */
const SIGNING_MODES: Readonly<Record<number, string>> = { 3: 'ordinary', 6: 'multisig', 7: 'Plutus' }
const PLUTUS_MODE = 7
/** src/txHashBuilder.h datum_type_t; the Byron address type (src/addressUtilsShelley.h). */
const DATUM_HASH = 0
const DATUM_INLINE = 1
const BYRON = 0b1000
const MAINNET_MAGIC = 764824073
const EMPTY = new Uint8Array(0)
const MAX_CHUNK_SIZE = 240
const HARDENED = 0x80000000

/** CBOR major types and the tags the body builder writes (src/cbor.h). */
const MAJOR = { uint: 0, negint: 1, bytes: 2, array: 4, map: 5, tag: 6 } as const
const TAG_SET = 258
const TAG_EMBEDDED_CBOR = 24

/** A status word the app answers with, ending the instruction (the app's autorespond errors). */
class AppStatus extends Error {
  constructor(readonly sw: number) {
    super(`status 0x${sw.toString(16)}`)
  }
}

/** The double was asked for something it does not model: the test fails instead of guessing the device. */
class NotModelled extends Error {
  constructor(what: string) {
    super(`the Cardano app double does not model ${what}`)
  }
}

/** The screen stays up: the device answers nothing until the host lets go of it. */
class UserAway extends Error {}

interface Apdu {
  readonly ins: number
  readonly p1: number
  readonly p2: number
  readonly data: Uint8Array
}

/** An instruction in progress: answers each APDU with response data until it returns its last answer. */
type Instruction = Generator<Uint8Array, Uint8Array, Apdu>

/** src/bufView.h: big-endian reads that fail with ERR_INVALID_DATA past the end. */
class WireView {
  private at = 0
  constructor(private readonly data: Uint8Array) {}
  private take(n: number): Uint8Array {
    if (this.at + n > this.data.length) throw new AppStatus(SW.invalidData)
    const out = this.data.subarray(this.at, this.at + n)
    this.at += n
    return out
  }
  u8(): number {
    return this.take(1)[0]!
  }
  u32(): number {
    const b = this.take(4)
    return ((b[0]! << 24) | (b[1]! << 16) | (b[2]! << 8) | b[3]!) >>> 0
  }
  u64(): bigint {
    return BigInt('0x' + bytesToHex(this.take(8)))
  }
  i64(): bigint {
    return BigInt.asIntN(64, this.u64())
  }
  bytes(n: number): Uint8Array {
    return this.take(n)
  }
  /** ITEM_INCLUDED_NO = 1 / ITEM_INCLUDED_YES = 2 (src/io.h). */
  included(): boolean {
    const v = this.u8()
    if (v !== 1 && v !== 2) throw new AppStatus(SW.invalidData)
    return v === 2
  }
  /** bip44_parseFromWire: a length byte, then that many 4-byte indices. */
  path(): number[] {
    const length = this.u8()
    if (length > 10) throw new AppStatus(SW.invalidData)
    return Array.from({ length }, () => this.u32())
  }
  end(): void {
    if (this.at !== this.data.length) throw new AppStatus(SW.invalidData)
  }
}

/** src/txHashBuilder.c: every piece of the body goes into a running blake2b-256 as it is written. */
class BodyHashBuilder {
  private readonly hash = blake2b.create({ dkLen: 32 })
  private readonly written: Uint8Array[] = []
  constructor(private readonly tagSets: boolean) {}
  private append(bytes: Uint8Array): void {
    this.hash.update(bytes)
    this.written.push(bytes)
  }
  head(major: number, n: number | bigint): void {
    this.append(encodeHead(major, n))
  }
  uint(n: number | bigint): void {
    this.head(MAJOR.uint, n)
  }
  int(n: bigint): void {
    if (n < 0n) this.head(MAJOR.negint, -1n - n)
    else this.head(MAJOR.uint, n)
  }
  bytes(b: Uint8Array): void {
    this.head(MAJOR.bytes, b.length)
    this.append(b)
  }
  raw(b: Uint8Array): void {
    this.append(b)
  }
  /** A body key whose value is a set: tagged 258 when the init options ask for tagged sets. */
  setOf(key: number, count: number): void {
    this.uint(key)
    if (this.tagSets) this.head(MAJOR.tag, TAG_SET)
    this.head(MAJOR.array, count)
  }
  finish(): { hash: Uint8Array; body: Uint8Array } {
    return { hash: this.hash.digest(), body: concatBytes(this.written) }
  }
}

/** src/signTx.c signTx_handleInitAPDU's wire header. */
interface TxInit {
  readonly tagCborSets: boolean
  readonly networkId: number
  readonly ttl: boolean
  readonly auxData: boolean
  readonly validityStart: boolean
  readonly mint: boolean
  readonly scriptDataHash: boolean
  readonly networkIdInBody: boolean
  readonly collateralOutput: boolean
  readonly totalCollateral: boolean
  readonly signingMode: number
  readonly inputs: number
  readonly outputs: number
  readonly collateralInputs: number
  readonly requiredSigners: number
  readonly referenceInputs: number
  readonly witnesses: number
}

function parseInit(data: Uint8Array): TxInit {
  const v = new WireView(data)
  const options = v.u64()
  if ((options & ~1n) !== 0n) throw new AppStatus(SW.invalidData)
  const networkId = v.u8()
  const protocolMagic = v.u32()
  const [ttl, auxData, validityStart, mint, scriptDataHash, networkIdInBody, collateralOutput, totalCollateral] = [
    v.included(),
    v.included(),
    v.included(),
    v.included(),
    v.included(),
    v.included(),
    v.included(),
    v.included()
  ]
  const [treasury, donation] = [v.included(), v.included()]
  const signingMode = v.u8()
  const [inputs, outputs, certificates, withdrawals, collateralInputs, requiredSigners, referenceInputs, votes] = [
    v.u32(),
    v.u32(),
    v.u32(),
    v.u32(),
    v.u32(),
    v.u32(),
    v.u32(),
    v.u32()
  ]
  const witnesses = v.u32()
  v.end()
  if (SIGNING_MODES[signingMode] === undefined) throw new NotModelled(`signing mode ${signingMode}`)
  if (networkId > 0b1111 || inputs === 0) throw new AppStatus(SW.invalidData)
  if (certificates > 0) throw new NotModelled('certificates')
  if (withdrawals > 0) throw new NotModelled('reward withdrawals')
  if (votes > 0 || treasury || donation) throw new NotModelled('votes, treasury or donation')
  // src/securityPolicy.c policyForSignTxInit: Shelley mainnet with another protocol magic, and Plutus elements
  // outside the Plutus mode, are refused.
  if (networkId === 1 && protocolMagic !== MAINNET_MAGIC) throw new AppStatus(SW.rejectedByPolicy)
  const plutusOnly = collateralInputs > 0 || collateralOutput || totalCollateral || referenceInputs > 0
  if (signingMode !== PLUTUS_MODE && plutusOnly) throw new AppStatus(SW.rejectedByPolicy)
  return {
    tagCborSets: options === 1n,
    networkId,
    ttl,
    auxData,
    validityStart,
    mint,
    scriptDataHash,
    networkIdInBody,
    collateralOutput,
    totalCollateral,
    signingMode,
    inputs,
    outputs,
    collateralInputs,
    requiredSigners,
    referenceInputs,
    witnesses
  }
}

/** src/cbor.c cbor_mapKeyFulfillsCanonicalOrdering: shorter keys first, then bytewise, strictly increasing. */
function canonicallyAfter(previous: Uint8Array | undefined, next: Uint8Array): boolean {
  if (previous === undefined) return true
  if (previous.length !== next.length) return previous.length < next.length
  for (let i = 0; i < next.length; i++) if (previous[i] !== next[i]) return previous[i]! < next[i]!
  return false
}

function formatPath(path: readonly number[]): string {
  return 'm/' + path.map((i) => (i >= HARDENED ? `${i - HARDENED}'` : `${i}`)).join('/')
}

export class LedgerCardanoAppDouble extends Transport {
  private readonly version: readonly [number, number, number]
  private readonly confirm: (screen: Screen) => boolean
  private instruction: { ins: number; run: Instruction } | undefined
  private apdus = 0
  private unplugged = false
  /** Every screen shown, in order, with what the user did. */
  readonly screens: (Screen & { confirmed: boolean })[] = []
  /** The body the app rebuilt in its last signing, as it hashed it. */
  rebuiltBody: Uint8Array | undefined
  /** The host let go of the device (the transport was closed). */
  closed = false
  private abandon: (() => void) | undefined

  constructor(private readonly options: CardanoAppOptions) {
    super()
    this.version = options.version ?? [7, 1, 3]
    this.confirm = options.confirm ?? (() => true)
  }

  override async exchange(apdu: Buffer): Promise<Buffer> {
    this.apdus += 1
    if (this.unplugged) throw new DisconnectedDevice()
    if (this.apdus === this.options.unplugAtApdu) {
      this.unplugged = true
      throw new DisconnectedDeviceDuringOperation('the device was unplugged')
    }
    try {
      return answer(SW.ok, this.handle(apdu))
    } catch (e) {
      this.instruction = undefined
      if (e instanceof AppStatus) return answer(e.sw)
      if (e instanceof UserAway)
        return new Promise((_, reject) => (this.abandon = () => reject(new DisconnectedDevice())))
      throw e
    }
  }

  override async close(): Promise<void> {
    this.closed = true
    this.abandon?.()
  }

  /** src/main.c: the header checks, one instruction at a time, and the handler for its INS. */
  private handle(raw: Uint8Array): Uint8Array {
    if (raw.length < 5 || raw.length !== 5 + raw[4]!) throw new AppStatus(SW.malformedHeader)
    if (raw[0] !== CLA) throw new AppStatus(SW.badCla)
    const apdu: Apdu = { ins: raw[1]!, p1: raw[2]!, p2: raw[3]!, data: raw.subarray(5) }
    if (this.instruction !== undefined && this.instruction.ins !== apdu.ins) throw new AppStatus(SW.stillInCall)
    let run = this.instruction?.run
    let result: IteratorResult<Uint8Array, Uint8Array>
    if (run === undefined) {
      if (apdu.ins === INS.getVersion) return this.getVersion(apdu)
      if (apdu.ins === INS.getPublicKeys) run = this.getPublicKeys(apdu)
      else if (apdu.ins === INS.signTx) run = this.signTx(apdu)
      else throw new AppStatus(SW.unknownIns)
      this.instruction = { ins: apdu.ins, run }
      result = run.next()
    } else {
      result = run.next(apdu)
    }
    if (result.done) this.instruction = undefined
    return result.value
  }

  private show(screen: Screen): void {
    if (screen.kind === this.options.waitsAt) throw new UserAway()
    const confirmed = this.confirm(screen)
    this.screens.push({ ...screen, confirmed })
    if (!confirmed) throw new AppStatus(SW.rejectedByUser)
  }

  /** doc/ins_get_app_version.md: major, minor, patch, flags. */
  private getVersion(apdu: Apdu): Uint8Array {
    if (apdu.p1 !== 0 || apdu.p2 !== 0) throw new AppStatus(SW.invalidParameters)
    if (apdu.data.length !== 0) throw new AppStatus(SW.invalidData)
    return Uint8Array.of(...this.version, 0)
  }

  /** doc/ins_get_public_keys.md: the first path and how many follow; each further key in its own APDU (P1 = 1). */
  private *getPublicKeys(first: Apdu): Instruction {
    if (first.p1 !== 0 || first.p2 !== 0) throw new AppStatus(SW.invalidParameters)
    const v = new WireView(first.data)
    const path = v.path()
    const remaining = first.data.length > 1 + 4 * path.length ? v.u32() : 0
    v.end()
    let key = this.publicKey(path)
    for (let i = 0; i < remaining; i++) {
      const next: Apdu = yield key
      if (next.p1 !== 1) throw new AppStatus(SW.invalidState)
      const nv = new WireView(next.data)
      const nextPath = nv.path()
      nv.end()
      key = this.publicKey(nextPath)
    }
    return key
  }

  /** src/securityPolicy.c policyForGetExtendedPublicKey, as far as Cardano wallet keys go. */
  private publicKey(path: readonly number[]): Uint8Array {
    if (path.length < 3 || path.length > 5) throw new AppStatus(SW.rejectedByPolicy)
    if (!isWalletPath(path)) throw new AppStatus(SW.rejectedByPolicy)
    return this.options.keys.extendedPublicKey(path)
  }

  /** src/signTx.c: the stages in the order tx_advanceStage walks them, each written as txHashBuilder writes it. */
  private *signTx(first: Apdu): Instruction {
    if (first.p1 !== P1.init) throw new AppStatus(SW.invalidState)
    if (first.p2 !== 0) throw new AppStatus(SW.invalidParameters)
    const init = parseInit(first.data)
    this.show({ kind: 'start', text: `New ${SIGNING_MODES[init.signingMode]} transaction?` })
    let apdu: Apdu = yield EMPTY

    let auxDataHash: Uint8Array | undefined
    if (init.auxData) {
      const v = stage(apdu, P1.auxData)
      if (v.u8() !== 0) throw new NotModelled('auxiliary data other than an arbitrary hash')
      auxDataHash = v.bytes(32)
      v.end()
      apdu = yield EMPTY
    }

    const body = new BodyHashBuilder(init.tagCborSets)
    const items = [
      true,
      true,
      true,
      init.ttl,
      init.auxData,
      init.validityStart,
      init.mint,
      init.scriptDataHash,
      init.collateralInputs > 0,
      init.requiredSigners > 0,
      init.networkIdInBody,
      init.collateralOutput,
      init.totalCollateral,
      init.referenceInputs > 0
    ]
    body.head(MAJOR.map, items.filter(Boolean).length)

    apdu = yield* txInputs(body, apdu, P1.inputs, 0, init.inputs)
    body.uint(1)
    body.head(MAJOR.array, init.outputs)
    for (let i = 0; i < init.outputs; i++) apdu = yield* this.output(body, init, apdu, P1.outputs, `Output #${i}`)

    const fee = stageU64(apdu, P1.fee)
    body.uint(2)
    body.uint(fee)
    this.show({ kind: 'fee', text: `Fees ${fee}` })
    apdu = yield EMPTY
    if (init.ttl) {
      body.uint(3)
      body.uint(stageU64(apdu, P1.ttl))
      apdu = yield EMPTY
    }
    if (auxDataHash !== undefined) {
      body.uint(7)
      body.bytes(auxDataHash)
    }
    if (init.validityStart) {
      body.uint(8)
      body.uint(stageU64(apdu, P1.validityStart))
      apdu = yield EMPTY
    }
    if (init.mint) {
      body.uint(9)
      apdu = yield* this.mint(body, apdu)
    }
    if (init.scriptDataHash) {
      const v = stage(apdu, P1.scriptDataHash)
      body.uint(11)
      body.bytes(v.bytes(32))
      v.end()
      apdu = yield EMPTY
    }
    if (init.collateralInputs > 0) apdu = yield* txInputs(body, apdu, P1.collateralInputs, 13, init.collateralInputs)
    if (init.requiredSigners > 0) {
      body.setOf(14, init.requiredSigners)
      for (let i = 0; i < init.requiredSigners; i++) {
        const v = stage(apdu, P1.requiredSigners)
        if (v.u8() !== 1) throw new NotModelled('required signers given by path')
        body.bytes(v.bytes(28))
        v.end()
        apdu = yield EMPTY
      }
    }
    if (init.networkIdInBody) {
      body.uint(15)
      body.uint(init.networkId)
    }
    if (init.collateralOutput) {
      body.uint(16)
      apdu = yield* this.output(body, init, apdu, P1.collateralOutput, 'Collateral return')
    }
    if (init.totalCollateral) {
      body.uint(17)
      body.uint(stageU64(apdu, P1.totalCollateral))
      apdu = yield EMPTY
    }
    if (init.referenceInputs > 0) apdu = yield* txInputs(body, apdu, P1.referenceInputs, 18, init.referenceInputs)

    stage(apdu, P1.confirm).end()
    const { hash, body: rebuilt } = body.finish()
    this.rebuiltBody = rebuilt
    // src/signTx.c _shouldDisplayTxId: a Plutus transaction is checked by its id, its datums being too long to show.
    if (init.signingMode === PLUTUS_MODE) this.show({ kind: 'tx-id', text: `Transaction id ${bytesToHex(hash)}` })
    this.show({ kind: 'confirm', text: 'Confirm transaction?' })
    let answer = hash
    for (let i = 0; i < init.witnesses; i++) {
      apdu = yield answer
      const v = stage(apdu, P1.witnesses)
      const path = v.path()
      v.end()
      // src/securityPolicy.c _plutusWitnessPolicy: any wallet key may sign, shown; pool cold keys never.
      if (!isWalletPath(path)) throw new AppStatus(SW.rejectedByPolicy)
      this.show({ kind: 'witness', text: `Sign with ${formatPath(path)}` })
      answer = this.options.keys.sign(path, hash)
    }
    return answer
  }

  /**
   * src/signTxOutput.c: one output (or the collateral return) as its sub-machine takes it: top-level data, asset
   * groups and tokens, the datum (by hash, or inline in chunks), the reference script in chunks, the confirmation.
   * Starts at its top-level APDU; returns the APDU after its confirmation.
   */
  private *output(body: BodyHashBuilder, init: TxInit, top: Apdu, p1: number, label: string): Step {
    const collateral = p1 === P1.collateralOutput
    const next = subMachine(p1)
    const v = next(top, P2.topLevel)
    const format = v.u8()
    if (format !== 0 && format !== 1) throw new AppStatus(SW.invalidData)
    if (v.u8() !== 1) throw new NotModelled('device-owned output destinations')
    const addressSize = v.u32()
    if (addressSize > 128) throw new AppStatus(SW.invalidData)
    const address = v.bytes(addressSize)
    const coin = v.u64()
    const groups = v.u32()
    const includeDatum = v.included()
    const includeRefScript = v.included()
    v.end()
    // src/securityPolicy.c is_addressBytes_suitable_for_tx_output: no reward address, a Shelley address on the
    // transaction's network; and a collateral return carries neither datum nor script.
    const addressType = address[0]! >> 4
    if (addressType === 0b1110 || addressType === 0b1111) throw new AppStatus(SW.rejectedByPolicy)
    if (addressType !== BYRON && (address[0]! & 0x0f) !== init.networkId) throw new AppStatus(SW.rejectedByPolicy)
    if (collateral && (includeDatum || includeRefScript)) throw new AppStatus(SW.rejectedByPolicy)
    if (format === 0 && includeRefScript) throw new AppStatus(SW.invalidData)

    if (format === 0) {
      body.head(MAJOR.array, 2 + (includeDatum ? 1 : 0))
      body.bytes(address)
    } else {
      body.head(MAJOR.map, 2 + (includeDatum ? 1 : 0) + (includeRefScript ? 1 : 0))
      body.uint(0)
      body.bytes(address)
      body.uint(1)
    }
    if (groups === 0) {
      body.uint(coin)
    } else {
      body.head(MAJOR.array, 2)
      body.uint(coin)
      body.head(MAJOR.map, groups)
    }
    this.show({
      kind: collateral ? 'collateral-return' : 'output',
      text: `${label}: ${coin} to ${bytesToHex(address)}`
    })
    let apdu: Apdu = yield EMPTY
    apdu = yield* assetGroups(body, apdu, groups, next, 'unsigned')

    if (includeDatum) {
      const dv = next(apdu, P2.datum)
      const type = dv.u8()
      if (type !== DATUM_HASH && type !== DATUM_INLINE) throw new AppStatus(SW.invalidData)
      if (format === 0 && type === DATUM_INLINE) throw new AppStatus(SW.invalidData)
      if (format === 1) {
        body.uint(2)
        body.head(MAJOR.array, 2)
        body.uint(type)
      }
      if (type === DATUM_HASH) {
        body.bytes(dv.bytes(32))
        dv.end()
        apdu = yield EMPTY
      } else {
        body.head(MAJOR.tag, TAG_EMBEDDED_CBOR)
        apdu = yield* chunks(body, dv, next, P2.datumChunk, 'first')
      }
    }
    if (includeRefScript) {
      body.uint(3)
      body.head(MAJOR.tag, TAG_EMBEDDED_CBOR)
      apdu = yield* chunks(body, next(apdu, P2.refScript), next, P2.refScriptChunk, 'later')
    }
    next(apdu, P2.confirm).end()
    return yield EMPTY
  }

  /** src/signTxMint.c: the number of asset groups, the groups and tokens (signed amounts), the confirmation. */
  private *mint(body: BodyHashBuilder, top: Apdu): Step {
    const next = subMachine(P1.mint)
    const v = next(top, P2.topLevel)
    const groups = v.u32()
    v.end()
    if (groups === 0) throw new AppStatus(SW.invalidData)
    body.head(MAJOR.map, groups)
    let apdu: Apdu = yield EMPTY
    apdu = yield* assetGroups(body, apdu, groups, next, 'signed')
    next(apdu, P2.confirm).end()
    this.show({ kind: 'mint', text: `Mint: ${groups} polic${groups === 1 ? 'y' : 'ies'}` })
    return yield EMPTY
  }
}

/** Part of an instruction: answers APDUs, and returns the first APDU that is no longer its own. */
type Step = Generator<Uint8Array, Apdu, Apdu>

/** CHECK_STAGE: an APDU for another stage than the current one is ERR_INVALID_STATE. */
function stage(apdu: Apdu, p1: number): WireView {
  if (apdu.p1 !== p1) throw new AppStatus(SW.invalidState)
  if (apdu.p2 !== 0) throw new AppStatus(SW.invalidParameters)
  return new WireView(apdu.data)
}

function stageU64(apdu: Apdu, p1: number): bigint {
  const v = stage(apdu, p1)
  const n = v.u64()
  v.end()
  return n
}

/** A sub-machine's APDU: its P1, and the P2 its state expects (an unknown P2 is ERR_INVALID_REQUEST_PARAMETERS). */
function subMachine(p1: number): (apdu: Apdu, p2: number) => WireView {
  return (apdu, p2) => {
    if (apdu.p1 !== p1) throw new AppStatus(SW.invalidState)
    if (apdu.p2 !== p2) {
      throw new AppStatus((Object.values(P2) as number[]).includes(apdu.p2) ? SW.invalidState : SW.invalidParameters)
    }
    return new WireView(apdu.data)
  }
}

/** Inputs, collateral inputs or reference inputs: a set of [tx hash, index], one APDU each. */
function* txInputs(body: BodyHashBuilder, first: Apdu, p1: number, key: number, count: number): Step {
  body.setOf(key, count)
  let apdu = first
  for (let i = 0; i < count; i++) {
    const v = stage(apdu, p1)
    body.head(MAJOR.array, 2)
    body.bytes(v.bytes(32))
    body.uint(v.u32())
    v.end()
    apdu = yield EMPTY
  }
  return apdu
}

/** Asset groups then their tokens, keys in canonical order (src/signTxOutput.c, src/signTxMint.c). */
function* assetGroups(
  body: BodyHashBuilder,
  first: Apdu,
  groups: number,
  next: (apdu: Apdu, p2: number) => WireView,
  amounts: 'unsigned' | 'signed'
): Step {
  let apdu = first
  let previousPolicy: Uint8Array | undefined
  for (let g = 0; g < groups; g++) {
    const gv = next(apdu, P2.assetGroup)
    const policy = gv.bytes(28)
    const tokens = gv.u32()
    gv.end()
    if (tokens === 0 || !canonicallyAfter(previousPolicy, policy)) throw new AppStatus(SW.invalidData)
    previousPolicy = policy
    body.bytes(policy)
    body.head(MAJOR.map, tokens)
    apdu = yield EMPTY
    let previousName: Uint8Array | undefined
    for (let t = 0; t < tokens; t++) {
      const tv = next(apdu, P2.token)
      const nameSize = tv.u32()
      if (nameSize > 32) throw new AppStatus(SW.invalidData)
      const name = tv.bytes(nameSize)
      const amount = amounts === 'signed' ? tv.i64() : tv.u64()
      tv.end()
      if (!canonicallyAfter(previousName, name)) throw new AppStatus(SW.invalidData)
      previousName = name
      body.bytes(name)
      body.int(amount)
      apdu = yield EMPTY
    }
  }
  return apdu
}

/**
 * A byte string sent as its total size with a first chunk, then further chunks of at most 240 bytes. Where the
 * app insists on full chunks while 240 bytes or more remain, `full` says: for an inline datum the first chunk,
 * for a reference script the later ones (src/signTxOutput.c, handleDatumInline and handleRefScriptChunkAPDU).
 */
function* chunks(
  body: BodyHashBuilder,
  first: WireView,
  next: (apdu: Apdu, p2: number) => WireView,
  p2: number,
  full: 'first' | 'later'
): Step {
  const total = first.u32()
  if (total === 0) throw new AppStatus(SW.invalidData)
  body.head(MAJOR.bytes, total)
  let remaining = total
  let v = first
  for (;;) {
    const size = v.u32()
    if (size === 0 || size > MAX_CHUNK_SIZE || size > remaining) throw new AppStatus(SW.invalidData)
    const mustBeFull = (v === first) === (full === 'first') && remaining >= MAX_CHUNK_SIZE
    if (mustBeFull && size !== MAX_CHUNK_SIZE) throw new AppStatus(SW.invalidData)
    body.raw(v.bytes(size))
    v.end()
    remaining -= size
    const apdu: Apdu = yield EMPTY
    if (remaining === 0) return apdu
    v = next(apdu, p2)
  }
}

/** m/1852'/1815'/… or m/44'/1815'/…: a wallet's keys, the ones the app signs with in every ordinary mode. */
function isWalletPath(path: readonly number[]): boolean {
  return (path[0] === HARDENED + 1852 || path[0] === HARDENED + 44) && path[1] === HARDENED + 1815
}

function answer(sw: number, data: Uint8Array = new Uint8Array(0)): Buffer {
  return Buffer.concat([data, Buffer.from([sw >> 8, sw & 0xff])])
}
