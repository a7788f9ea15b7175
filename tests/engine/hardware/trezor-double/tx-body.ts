/**
 * The transaction body a Trezor rebuilds from the items of a Cardano signing exchange, written the way the
 * firmware's Cardano app writes it (apps/cardano/sign_tx): a map whose keys follow the Conway body's numbering,
 * each present only when the init message announced it; sets tagged 258 when `tag_cbor_sets` is set; outputs in
 * the array (legacy) or map (Babbage) format the host named; token bundles and mint as maps in the order sent;
 * inline datums and reference scripts from their chunks. Items out of order or counts not met are refused, as
 * the firmware refuses them.
 */
import { bech32 } from '@scure/base'
import { blake2bHex } from '../../../../src/core/blake2b'
import { concatBytes, hexToBytes } from '../../../../src/core/bytes'
import { encodeByteString, encodeHead, encodeInt } from '../../../../src/core/cardano/cbor'
import type { Message, Reply } from './bridge'

const MAJOR_ARRAY = 4
const MAJOR_MAP = 5
const MAJOR_TAG = 6
const SET_TAG = 258
const EMBEDDED_CBOR_TAG = 24

/** A refusal the way the firmware answers a malformed exchange. */
export class ProcessError extends Error {}

const int = (v: unknown): bigint => BigInt(String(v))
const bytes = (hex: unknown): Uint8Array => encodeByteString(hexToBytes(String(hex)))
const array = (items: readonly Uint8Array[]) => concatBytes([encodeHead(MAJOR_ARRAY, items.length), ...items])
const map = (entries: readonly (readonly [Uint8Array, Uint8Array])[]) =>
  concatBytes([encodeHead(MAJOR_MAP, entries.length), ...entries.flat()])
const tag = (n: number, item: Uint8Array) => concatBytes([encodeHead(MAJOR_TAG, n), item])

/** Where each item belongs; items must come in this order, as the firmware takes them. */
const STAGE: Readonly<Record<string, number>> = {
  CardanoTxInput: 0,
  CardanoTxOutput: 1,
  CardanoTxWithdrawal: 3,
  CardanoTxAuxiliaryData: 4,
  CardanoTxMint: 5,
  CardanoTxCollateralInput: 6,
  CardanoTxRequiredSigner: 7,
  CardanoTxReferenceInput: 9
}
const COLLATERAL_RETURN = 8

interface AssetGroup {
  readonly policy: string
  readonly tokens: [string, bigint][]
  tokensLeft: number
}

interface Output {
  readonly message: Message
  readonly groups: AssetGroup[]
  groupsLeft: number
  datum: string
  script: string
}

/** The address bytes of a bech32 Shelley address (what the firmware derives from the text the host sends). */
function addressBytes(output: Message): Uint8Array {
  if (output.address === null) throw new ProcessError('this double takes outputs by address text only')
  const { words } = bech32.decode(String(output.address) as `${string}1${string}`, 1023)
  return Uint8Array.from(bech32.fromWords(words))
}

function multiAsset(groups: readonly AssetGroup[]): Uint8Array {
  return map(groups.map((g) => [bytes(g.policy), map(g.tokens.map(([name, n]) => [bytes(name), encodeInt(n)]))]))
}

function outputCbor(o: Output): Uint8Array {
  const address = encodeByteString(addressBytes(o.message))
  const coin = encodeInt(int(o.message.amount))
  const amount = o.groups.length === 0 ? coin : array([coin, multiAsset(o.groups)])
  const datumHash = o.message.datum_hash
  if (o.message.format !== 'MAP_BABBAGE') {
    return array(datumHash === null ? [address, amount] : [address, amount, bytes(datumHash)])
  }
  const entries: [Uint8Array, Uint8Array][] = [
    [encodeInt(0n), address],
    [encodeInt(1n), amount]
  ]
  if (datumHash !== null) entries.push([encodeInt(2n), array([encodeInt(0n), bytes(datumHash)])])
  if (o.datum !== '') entries.push([encodeInt(2n), array([encodeInt(1n), tag(EMBEDDED_CBOR_TAG, bytes(o.datum))])])
  if (o.script !== '') entries.push([encodeInt(3n), tag(EMBEDDED_CBOR_TAG, bytes(o.script))])
  return map(entries)
}

const input = (m: Message) => array([bytes(m.prev_hash), encodeInt(int(m.prev_index))])

export class TxBodyRebuild {
  private stage = 0
  private readonly inputs: Message[] = []
  private readonly outputs: Output[] = []
  private readonly withdrawals: Message[] = []
  private auxHash: string | undefined
  private hostAckDue = false
  private mintGroupsLeft = 0
  private readonly mint: AssetGroup[] = []
  private readonly collateral: Message[] = []
  private readonly signers: Message[] = []
  private collateralReturn: Output | undefined
  private readonly references: Message[] = []
  private open: Output | undefined

  /** `untaggedSets`: a firmware that writes sets without their tag whatever the host asks (another body). */
  constructor(
    private readonly init: Message,
    private readonly untaggedSets = false
  ) {
    if (init.signing_mode !== 'PLUTUS_TRANSACTION') throw new ProcessError('this double signs Plutus transactions')
    if (int(init.certificates_count) > 0n) throw new ProcessError('this double rebuilds no certificates')
  }

  expectsHostAck(): boolean {
    const due = this.hostAckDue
    this.hostAckDue = false
    return due
  }

  /** Takes one item; the answer when it is not a plain CardanoTxItemAck. */
  item(type: string, message: Message): Reply | undefined {
    if (this.open !== undefined && this.partOfOutput(type, message)) return undefined
    this.open = undefined
    if (type === 'CardanoAssetGroup' || type === 'CardanoToken') return this.mintItem(type, message)
    const stage = STAGE[type]
    if (stage === undefined) throw new ProcessError(`unexpected message ${type}`)
    const outputsDone = this.outputs.length === Number(this.init.outputs_count)
    const at = type === 'CardanoTxOutput' && outputsDone ? COLLATERAL_RETURN : stage
    if (at < this.stage) throw new ProcessError(`${type} after a later item`)
    this.stage = at
    switch (type) {
      case 'CardanoTxInput':
        this.inputs.push(message)
        return undefined
      case 'CardanoTxOutput':
        this.open = { message, groups: [], groupsLeft: Number(message.asset_groups_count ?? 0), datum: '', script: '' }
        if (at === COLLATERAL_RETURN) this.collateralReturn = this.open
        else this.outputs.push(this.open)
        return undefined
      case 'CardanoTxWithdrawal':
        this.withdrawals.push(message)
        return undefined
      case 'CardanoTxAuxiliaryData':
        if (message.hash === null) throw new ProcessError('this double takes auxiliary data by hash only')
        this.auxHash = String(message.hash)
        this.hostAckDue = true
        return { type: 'CardanoTxAuxiliaryDataSupplement', message: { type: 'NONE' } }
      case 'CardanoTxMint':
        this.mintGroupsLeft = Number(message.asset_groups_count)
        return undefined
      case 'CardanoTxCollateralInput':
        this.collateral.push(message)
        return undefined
      case 'CardanoTxRequiredSigner':
        if (message.key_hash === null) throw new ProcessError('this double takes required signers by hash only')
        this.signers.push(message)
        return undefined
      default:
        this.references.push(message)
        return undefined
    }
  }

  /** An output's token groups, tokens and chunks, while the output still expects them. */
  private partOfOutput(type: string, message: Message): boolean {
    const o = this.open!
    const group = o.groups.at(-1)
    if (type === 'CardanoToken' && group !== undefined && group.tokensLeft > 0) {
      group.tokens.push([String(message.asset_name_bytes), int(message.amount)])
      group.tokensLeft -= 1
      return true
    }
    if (type === 'CardanoAssetGroup' && o.groupsLeft > 0) {
      o.groups.push({ policy: String(message.policy_id), tokens: [], tokensLeft: Number(message.tokens_count) })
      o.groupsLeft -= 1
      return true
    }
    if (type === 'CardanoTxInlineDatumChunk' && o.datum.length / 2 < Number(o.message.inline_datum_size ?? 0)) {
      o.datum += String(message.data)
      return true
    }
    if (
      type === 'CardanoTxReferenceScriptChunk' &&
      o.script.length / 2 < Number(o.message.reference_script_size ?? 0)
    ) {
      o.script += String(message.data)
      return true
    }
    return false
  }

  private mintItem(type: string, message: Message): undefined {
    const group = this.mint.at(-1)
    if (type === 'CardanoAssetGroup' && this.mintGroupsLeft > 0) {
      this.mint.push({ policy: String(message.policy_id), tokens: [], tokensLeft: Number(message.tokens_count) })
      this.mintGroupsLeft -= 1
      return undefined
    }
    if (type === 'CardanoToken' && group !== undefined && group.tokensLeft > 0 && message.mint_amount !== null) {
      group.tokens.push([String(message.asset_name_bytes), int(message.mint_amount)])
      group.tokensLeft -= 1
      return undefined
    }
    throw new ProcessError(`unexpected ${type}`)
  }

  /** What the init message announced and has not come yet; none once the body is whole. */
  missing(): string[] {
    const init = this.init
    const counted: [string, number, unknown][] = [
      ['inputs', this.inputs.length, init.inputs_count],
      ['outputs', this.outputs.length, init.outputs_count],
      ['withdrawals', this.withdrawals.length, init.withdrawals_count],
      ['collateral inputs', this.collateral.length, init.collateral_inputs_count],
      ['required signers', this.signers.length, init.required_signers_count],
      ['reference inputs', this.references.length, init.reference_inputs_count]
    ]
    const missing = counted
      .filter(([, got, announced]) => got !== Number(announced))
      .map(([what, got, announced]) => `${what}: ${got} sent, ${String(announced)} announced`)
    if ((this.auxHash !== undefined) !== init.has_auxiliary_data) missing.push('auxiliary data')
    if ((this.collateralReturn !== undefined) !== init.has_collateral_return) missing.push('collateral return')
    if (this.hostAckDue) missing.push('the host ack of the auxiliary data')
    if (this.mintGroupsLeft > 0 || (this.mint.at(-1)?.tokensLeft ?? 0) > 0) missing.push('mint')
    const open = this.open
    if (
      open !== undefined &&
      (open.groupsLeft > 0 ||
        (open.groups.at(-1)?.tokensLeft ?? 0) > 0 ||
        open.datum.length / 2 < Number(open.message.inline_datum_size ?? 0) ||
        open.script.length / 2 < Number(open.message.reference_script_size ?? 0))
    )
      missing.push('the parts of an output')
    return missing
  }

  /** The body's CBOR and its hash, once every announced item came. */
  finish(): { readonly cbor: Uint8Array; readonly hash: string } {
    const init = this.init
    const missing = this.missing()
    if (missing.length > 0) throw new ProcessError(`the body is not whole: ${missing.join(', ')}`)
    const tagged = init.tag_cbor_sets === true && !this.untaggedSets
    const set = (items: readonly Uint8Array[]) => (tagged ? tag(SET_TAG, array(items)) : array(items))
    const network = Number(init.network_id)
    const entries: [number, Uint8Array][] = [
      [0, set(this.inputs.map(input))],
      [1, array(this.outputs.map(outputCbor))],
      [2, encodeInt(int(init.fee))]
    ]
    if (init.ttl !== null) entries.push([3, encodeInt(int(init.ttl))])
    if (this.withdrawals.length > 0) {
      entries.push([
        5,
        map(
          this.withdrawals.map((w) => {
            if (w.key_hash === null && w.script_hash === null) throw new ProcessError('withdrawal by path')
            const header = (w.key_hash === null ? 0xf0 : 0xe0) | network
            const reward = concatBytes([Uint8Array.of(header), hexToBytes(String(w.key_hash ?? w.script_hash))])
            return [encodeByteString(reward), encodeInt(int(w.amount))]
          })
        )
      ])
    }
    if (this.auxHash !== undefined) entries.push([7, bytes(this.auxHash)])
    if (init.validity_interval_start !== null) entries.push([8, encodeInt(int(init.validity_interval_start))])
    if (this.mint.length > 0) entries.push([9, multiAsset(this.mint)])
    if (init.script_data_hash !== null) entries.push([11, bytes(init.script_data_hash)])
    if (this.collateral.length > 0) entries.push([13, set(this.collateral.map(input))])
    if (this.signers.length > 0) entries.push([14, set(this.signers.map((s) => bytes(s.key_hash)))])
    if (init.include_network_id) entries.push([15, encodeInt(BigInt(network))])
    if (this.collateralReturn !== undefined) entries.push([16, outputCbor(this.collateralReturn)])
    if (init.total_collateral !== null) entries.push([17, encodeInt(int(init.total_collateral))])
    if (this.references.length > 0) entries.push([18, set(this.references.map(input))])
    const cbor = map(entries.map(([k, v]) => [encodeInt(BigInt(k)), v]))
    return { cbor, hash: blake2bHex(cbor, 32) }
  }
}
