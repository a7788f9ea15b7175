/**
 * Real transactions built with CSL, for the decoder and review tests: a payment, a Plutus V2 spend with every
 * Alonzo/Babbage field, a mint with CIP-25 metadata, and a Marlowe create and apply (datum/redeemer bytes from
 * our own Plutus Data encoder, handed to CSL with `PlutusData.from_bytes`).
 */
import * as CSL from '@emurgo/cardano-serialization-lib-nodejs'
import { blake2b } from '@noble/hashes/blake2.js'
import { bytesToHex, hexToBytes } from '../../../../src/core/bytes'
import { formatShelleyAddress } from '../../../../src/core/cardano/address'
import { escrow } from '../../../../src/core/marlowe/examples'
import { onChoice, onDeposit, when } from '../../../../src/core/marlowe/examples/dsl'
import { encodeMarloweData, encodePayoutDatum, encodeRedeemer } from '../../../../src/core/marlowe/plutus/marlowe-data'
import { computeTransaction } from '../../../../src/core/marlowe/semantics'
import { ADA, CLOSE, type Contract, type Input, type MarloweData, type Party } from '../../../../src/core/marlowe/types'
import type { ResolvedOutput, SlotEra } from '../../../../src/core/cardano/review'

export const TX_A = 'aa'.repeat(32)
export const TX_B = 'bb'.repeat(32)
export const TX_C = 'cc'.repeat(32)
export const TX_D = 'dd'.repeat(32)
export const TX_E = 'ee'.repeat(32)

/** Slot 0 is this POSIX time; one slot per second (a single era, as on the testnets since Shelley). */
export const ZERO_TIME = 1_700_000_000_000n
export const ERAS: readonly SlotEra[] = [{ start: { slot: 0n, time: ZERO_TIME }, slotLength: 1000n }]
export const slotTime = (slot: number): bigint => ZERO_TIME + BigInt(slot) * 1000n

/** An always-succeeds Plutus V2 script (its serialised form). */
export const V2_SCRIPT = hexToBytes('4e4d01000033222220051200120011')
/** A stand-in for the Marlowe semantics validator: any distinct V2 script, named through the review context. */
export const FAKE_SEMANTICS = hexToBytes('4e4d01000033222220051200120022')
export const PUBLISHED_SEMANTICS_HASH = '377325ad84a55ba0282d844dff2d5f0f18c33fd4a28a0a9d73c6f60d'

export const COST_MODEL_V2: readonly bigint[] = Array.from({ length: 20 }, (_, i) => BigInt(i * 1000 + 7))

export interface Key {
  readonly priv: CSL.PrivateKey
  readonly hash: string
  readonly enterprise: string
}

export function key(seed: number): Key {
  const priv = CSL.PrivateKey.from_normal_bytes(new Uint8Array(32).fill(seed))
  const hash = priv.to_public().hash().to_hex()
  return { priv, hash, enterprise: formatShelleyAddress({ mainnet: false, payment: { type: 'key', hash } }) }
}

export const OWN = key(1)
export const OTHER = key(2)
export const THIRD = key(3)

export function scriptHash(serialised: Uint8Array): string {
  return CSL.PlutusScript.new_v2(serialised).hash().to_hex()
}

export function scriptAddress(hash: string): string {
  return formatShelleyAddress({ mainnet: false, payment: { type: 'script', hash } })
}

const big = (n: bigint | number): CSL.BigNum => CSL.BigNum.from_str(String(n))
const addr = (text: string): CSL.Address => CSL.Address.from_bech32(text)
const input = (txId: string, index: number): CSL.TransactionInput =>
  CSL.TransactionInput.new(CSL.TransactionHash.from_hex(txId), index)

function inputs(...refs: Array<[string, number]>): CSL.TransactionInputs {
  const list = CSL.TransactionInputs.new()
  for (const [txId, index] of refs) list.add(input(txId, index))
  return list
}

function multiAsset(policy: string, name: string, quantity: bigint): CSL.MultiAsset {
  const assets = CSL.Assets.new()
  assets.insert(CSL.AssetName.new(new TextEncoder().encode(name)), big(quantity))
  const ma = CSL.MultiAsset.new()
  ma.insert(CSL.ScriptHash.from_hex(policy), assets)
  return ma
}

function metadata(entries: Record<string, string>): CSL.AuxiliaryData {
  const general = CSL.GeneralTransactionMetadata.new()
  for (const [label, json] of Object.entries(entries)) {
    general.insert(
      CSL.BigNum.from_str(label),
      CSL.encode_json_str_to_metadatum(json, CSL.MetadataJsonSchema.NoConversions)
    )
  }
  const aux = CSL.AuxiliaryData.new()
  aux.set_metadata(general)
  return aux
}

function sign(body: CSL.TransactionBody, ws: CSL.TransactionWitnessSet, keys: readonly Key[]): void {
  if (keys.length === 0) return
  const hash = CSL.FixedTransaction.new_from_body_bytes(body.to_bytes()).transaction_hash()
  const vkeys = CSL.Vkeywitnesses.new()
  for (const k of keys) vkeys.add(CSL.make_vkey_witness(hash, k.priv))
  ws.set_vkeys(vkeys)
}

function finish(
  body: CSL.TransactionBody,
  ws: CSL.TransactionWitnessSet,
  aux: CSL.AuxiliaryData | undefined,
  keys: readonly Key[]
): Uint8Array {
  if (aux !== undefined) body.set_auxiliary_data_hash(CSL.hash_auxiliary_data(aux))
  sign(body, ws, keys)
  return CSL.Transaction.new(body, ws, aux).to_bytes()
}

export function txIdOf(bytes: Uint8Array): string {
  return CSL.FixedTransaction.from_bytes(bytes).transaction_hash().to_hex()
}

function costModels(): CSL.Costmdls {
  const model = CSL.CostModel.new()
  COST_MODEL_V2.forEach((v, i) => model.set(i, CSL.Int.new(big(v))))
  const models = CSL.Costmdls.new()
  models.insert(CSL.Language.new_plutus_v2(), model)
  return models
}

function plutusList(items: readonly Uint8Array[]): CSL.PlutusList {
  const list = CSL.PlutusList.new()
  for (const item of items) list.add(CSL.PlutusData.from_bytes(item))
  return list
}

export const TOKEN_POLICY = 'ab'.repeat(28)

// ---------------------------------------------------------------- payment

export interface PaymentOptions {
  readonly fee?: bigint
  readonly keys?: readonly Key[]
  /** Pays output 0 to this address instead of OTHER's. */
  readonly payTo?: string
}

export function paymentTx(options: PaymentOptions = {}): Uint8Array {
  const outputs = CSL.TransactionOutputs.new()
  const paid = CSL.Value.new(big(5_000_000))
  paid.set_multiasset(multiAsset(TOKEN_POLICY, 'Token', 7n))
  outputs.add(CSL.TransactionOutput.new(addr(options.payTo ?? OTHER.enterprise), paid))
  outputs.add(CSL.TransactionOutput.new(addr(OWN.enterprise), CSL.Value.new(big(3_000_000))))
  const body = CSL.TransactionBody.new_tx_body(inputs([TX_A, 0], [TX_B, 1]), outputs, big(options.fee ?? 200_000n))
  body.set_ttl(big(1000))
  const aux = metadata({ 674: '{"msg":["hello","world"]}' })
  return finish(body, CSL.TransactionWitnessSet.new(), aux, options.keys ?? [OWN])
}

/** Resolutions of the payment's inputs: both own; one holds the tokens paid out. */
export function paymentInputs(): ResolvedOutput[] {
  return [
    {
      ref: { txId: TX_A, index: 0 },
      address: OWN.enterprise,
      value: {
        lovelace: 6_000_000n,
        assets: { [TOKEN_POLICY]: { [bytesToHex(new TextEncoder().encode('Token'))]: 10n } }
      }
    },
    { ref: { txId: TX_B, index: 1 }, address: OWN.enterprise, value: { lovelace: 2_200_000n, assets: {} } }
  ]
}

// ---------------------------------------------------------------- Plutus V2 spend

export const SPEND_DATUM = hexToBytes('d8799f182a41abff')
export const SPEND_REDEEMER = hexToBytes('d87980')

export function plutusSpendTx(): Uint8Array {
  const script = CSL.PlutusScript.new_v2(V2_SCRIPT)
  const outputs = CSL.TransactionOutputs.new()
  outputs.add(CSL.TransactionOutput.new(addr(OTHER.enterprise), CSL.Value.new(big(4_000_000))))
  // Inputs in non-sorted order: TX_C's script input sorts after TX_A's, so the spend redeemer index is 1.
  const body = CSL.TransactionBody.new_tx_body(inputs([TX_C, 0], [TX_A, 2]), outputs, big(400_000))
  body.set_validity_start_interval_bignum(big(100))
  body.set_ttl(big(5000))
  body.set_collateral(inputs([TX_D, 0]))
  body.set_collateral_return(CSL.TransactionOutput.new(addr(OWN.enterprise), CSL.Value.new(big(4_400_000))))
  body.set_total_collateral(big(600_000))
  body.set_reference_inputs(inputs([TX_E, 0]))
  const signers = CSL.Ed25519KeyHashes.new()
  signers.add(CSL.Ed25519KeyHash.from_hex(OWN.hash))
  body.set_required_signers(signers)
  body.set_network_id(CSL.NetworkId.testnet())
  const redeemers = CSL.Redeemers.new()
  redeemers.add(
    CSL.Redeemer.new(
      CSL.RedeemerTag.new_spend(),
      big(1),
      CSL.PlutusData.from_bytes(SPEND_REDEEMER),
      CSL.ExUnits.new(big(1_000_000), big(500_000_000))
    )
  )
  const ws = CSL.TransactionWitnessSet.new()
  const scripts = CSL.PlutusScripts.new()
  scripts.add(script)
  ws.set_plutus_scripts(scripts)
  ws.set_plutus_data(plutusList([SPEND_DATUM]))
  ws.set_redeemers(redeemers)
  body.set_script_data_hash(CSL.hash_script_data(redeemers, costModels(), plutusList([SPEND_DATUM])))
  const aux = metadata({ 674: '{"msg":["plutus"]}' })
  return finish(body, ws, aux, [OWN])
}

export function datumHashHex(bytes: Uint8Array): string {
  return bytesToHex(blake2b(bytes, { dkLen: 32 }))
}

export function plutusSpendInputs(): ResolvedOutput[] {
  return [
    {
      ref: { txId: TX_C, index: 0 },
      address: scriptAddress(scriptHash(V2_SCRIPT)),
      value: { lovelace: 3_000_000n, assets: {} },
      datumHash: datumHashHex(SPEND_DATUM)
    },
    { ref: { txId: TX_A, index: 2 }, address: OWN.enterprise, value: { lovelace: 1_400_000n, assets: {} } },
    { ref: { txId: TX_D, index: 0 }, address: OWN.enterprise, value: { lovelace: 5_000_000n, assets: {} } },
    { ref: { txId: TX_E, index: 0 }, address: OTHER.enterprise, value: { lovelace: 9_000_000n, assets: {} } }
  ]
}

// ---------------------------------------------------------------- mint with CIP-25

export function nativePolicy(k: Key): CSL.NativeScript {
  return CSL.NativeScript.new_script_pubkey(CSL.ScriptPubkey.new(CSL.Ed25519KeyHash.from_hex(k.hash)))
}

export const NFT_POLICY = nativePolicy(OWN).hash().to_hex()

export function mintTx(): Uint8Array {
  const mint = CSL.Mint.new()
  const assets = CSL.MintAssets.new()
  assets.insert(CSL.AssetName.new(new TextEncoder().encode('NFT1')), CSL.Int.new(big(1)))
  assets.insert(CSL.AssetName.new(new TextEncoder().encode('Old')), CSL.Int.new_negative(big(2)))
  mint.insert(CSL.ScriptHash.from_hex(NFT_POLICY), assets)
  const value = CSL.Value.new(big(2_000_000))
  value.set_multiasset(multiAsset(NFT_POLICY, 'NFT1', 1n))
  const outputs = CSL.TransactionOutputs.new()
  outputs.add(CSL.TransactionOutput.new(addr(OWN.enterprise), value))
  const body = CSL.TransactionBody.new_tx_body(inputs([TX_B, 0]), outputs, big(180_000))
  body.set_mint(mint)
  const ws = CSL.TransactionWitnessSet.new()
  const natives = CSL.NativeScripts.new()
  natives.add(nativePolicy(OWN))
  ws.set_native_scripts(natives)
  const cip25 = `{"${NFT_POLICY}":{"NFT1":{"name":"First NFT","image":["ipfs://","QmHash"],"mediaType":"image/png"}}}`
  return finish(body, ws, metadata({ 721: cip25 }), [OWN])
}

// ---------------------------------------------------------------- Marlowe

const party = (k: Key): Party => ({ type: 'Address', address: k.enterprise })
export const SELLER = OWN
export const BUYER = OTHER
export const MEDIATOR = THIRD
export const PRICE = 50_000_000n
export const MIN_ADA = 2_000_000n
/** The contract is created at slot 1000 and the buyer deposits in slots 2000–2600. */
export const CREATE_SLOT = 1000
export const APPLY_START = 2000
export const APPLY_END = 2600

export function escrowContract(): Contract {
  return escrow({
    seller: party(SELLER),
    buyer: party(BUYER),
    mediator: party(MEDIATOR),
    price: PRICE,
    token: ADA,
    paymentDeadline: slotTime(10_000),
    complaintDeadline: slotTime(20_000),
    disputeDeadline: slotTime(30_000),
    mediationDeadline: slotTime(40_000)
  }).contract
}

export function initialDatum(contract: Contract = escrowContract()): MarloweData {
  return {
    params: { rolesCurrency: '' },
    state: {
      accounts: [[{ account: party(SELLER), token: ADA }, MIN_ADA]],
      choices: [],
      boundValues: [],
      minTime: slotTime(CREATE_SLOT)
    },
    contract
  }
}

export const DEPOSIT: Input = {
  content: { type: 'IDeposit', account: party(SELLER), party: party(BUYER), token: ADA, amount: PRICE }
}

/** The datum after the buyer's deposit, computed by the semantics over the apply tx's interval. */
export function depositedDatum(
  before: MarloweData = initialDatum(),
  inputs: readonly Input[] = [DEPOSIT]
): MarloweData {
  const out = computeTransaction(
    { interval: { from: slotTime(APPLY_START), to: slotTime(APPLY_END) - 1n }, inputs },
    before.state,
    before.contract
  )
  if (out.type !== 'Success') throw new Error('the fixture deposit failed')
  return { params: before.params, state: out.state, contract: out.contract }
}

/** Creates an escrow at `scriptHashHex` with its datum by hash in the witness set. */
export function marloweCreateTx(semanticsHash = PUBLISHED_SEMANTICS_HASH): Uint8Array {
  const datum = encodeMarloweData(initialDatum())
  const outputs = CSL.TransactionOutputs.new()
  const out = CSL.TransactionOutput.new(addr(scriptAddress(semanticsHash)), CSL.Value.new(big(MIN_ADA)))
  out.set_data_hash(CSL.DataHash.from_hex(datumHashHex(datum)))
  outputs.add(out)
  outputs.add(CSL.TransactionOutput.new(addr(SELLER.enterprise), CSL.Value.new(big(7_000_000))))
  const body = CSL.TransactionBody.new_tx_body(inputs([TX_A, 5]), outputs, big(250_000))
  body.set_validity_start_interval_bignum(big(CREATE_SLOT))
  body.set_ttl(big(CREATE_SLOT + 600))
  const ws = CSL.TransactionWitnessSet.new()
  ws.set_plutus_data(plutusList([datum]))
  body.set_script_data_hash(CSL.hash_script_data(CSL.Redeemers.new(), CSL.Costmdls.new(), plutusList([datum])))
  const tags = '[2,[["escrow"],["desk.test",{"n":1}],["memo","paid in full"]]]'
  return finish(body, ws, metadata({ 1564: tags }), [SELLER])
}

export interface ApplyOptions {
  /** Replaces the continuing output's datum (to test mismatches). */
  readonly outputDatum?: Uint8Array
  /** The contract in the spent datum (default: the escrow). */
  readonly before?: MarloweData
  readonly inputs?: readonly Input[]
  /** False leaves out the output back to the script (for contracts that close). */
  readonly continuation?: boolean
  /** True leaves the spent datum out of the witness set (the ledger would refuse it; a review must still cope). */
  readonly omitSpentDatum?: boolean
}

/** The buyer deposits the price into the escrow created by `marloweCreateTx(scriptHash(FAKE_SEMANTICS))`. */
export function marloweApplyTx(createTxId: string, options: ApplyOptions = {}): Uint8Array {
  const before = options.before ?? initialDatum()
  const inDatum = encodeMarloweData(before)
  const outDatum = options.outputDatum ?? encodeMarloweData(depositedDatum(before))
  const semantics = CSL.PlutusScript.new_v2(FAKE_SEMANTICS)
  const outputs = CSL.TransactionOutputs.new()
  if (options.continuation ?? true) {
    const out = CSL.TransactionOutput.new(
      addr(scriptAddress(scriptHash(FAKE_SEMANTICS))),
      CSL.Value.new(big(MIN_ADA + PRICE))
    )
    out.set_data_hash(CSL.DataHash.from_hex(datumHashHex(outDatum)))
    outputs.add(out)
  } else {
    outputs.add(CSL.TransactionOutput.new(addr(SELLER.enterprise), CSL.Value.new(big(MIN_ADA + PRICE))))
  }
  outputs.add(CSL.TransactionOutput.new(addr(BUYER.enterprise), CSL.Value.new(big(46_000_000))))
  const body = CSL.TransactionBody.new_tx_body(inputs([createTxId, 0], [TX_B, 7]), outputs, big(1_000_000))
  body.set_validity_start_interval_bignum(big(APPLY_START))
  body.set_ttl(big(APPLY_END))
  body.set_collateral(inputs([TX_B, 8]))
  const signers = CSL.Ed25519KeyHashes.new()
  signers.add(CSL.Ed25519KeyHash.from_hex(BUYER.hash))
  body.set_required_signers(signers)
  const spendIndex = createTxId < TX_B ? 0 : 1
  const redeemers = CSL.Redeemers.new()
  redeemers.add(
    CSL.Redeemer.new(
      CSL.RedeemerTag.new_spend(),
      big(spendIndex),
      CSL.PlutusData.from_bytes(encodeRedeemer(options.inputs ?? [DEPOSIT])),
      CSL.ExUnits.new(big(8_000_000), big(3_000_000_000))
    )
  )
  const ws = CSL.TransactionWitnessSet.new()
  const scripts = CSL.PlutusScripts.new()
  scripts.add(semantics)
  ws.set_plutus_scripts(scripts)
  const spent = options.omitSpentDatum === true ? [] : [inDatum]
  const datums = (options.continuation ?? true) ? [...spent, outDatum] : spent
  ws.set_plutus_data(plutusList(datums))
  ws.set_redeemers(redeemers)
  body.set_script_data_hash(CSL.hash_script_data(redeemers, costModels(), plutusList(datums)))
  return finish(body, ws, undefined, [BUYER])
}

export function marloweApplyInputs(createTxId: string, before: MarloweData = initialDatum()): ResolvedOutput[] {
  return [
    {
      ref: { txId: createTxId, index: 0 },
      address: scriptAddress(scriptHash(FAKE_SEMANTICS)),
      value: { lovelace: MIN_ADA, assets: {} },
      datumHash: datumHashHex(encodeMarloweData(before))
    },
    { ref: { txId: TX_B, index: 7 }, address: BUYER.enterprise, value: { lovelace: 100_000_000n, assets: {} } },
    { ref: { txId: TX_B, index: 8 }, address: BUYER.enterprise, value: { lovelace: 5_000_000n, assets: {} } }
  ]
}

// ---------------------------------------------------------------- Babbage outputs

/** Output 0: map form with an inline datum and a reference script; output 1: a datum hash, legacy form. */
export function babbageOutputsTx(): Uint8Array {
  const outputs = CSL.TransactionOutputs.new()
  const inline = CSL.TransactionOutput.new(addr(OTHER.enterprise), CSL.Value.new(big(9_000_000)))
  inline.set_plutus_data(CSL.PlutusData.from_bytes(SPEND_DATUM))
  inline.set_script_ref(CSL.ScriptRef.new_plutus_script(CSL.PlutusScript.new_v2(V2_SCRIPT)))
  outputs.add(inline)
  const hashed = CSL.TransactionOutput.new(addr(scriptAddress(scriptHash(V2_SCRIPT))), CSL.Value.new(big(2_000_000)))
  hashed.set_data_hash(CSL.DataHash.from_hex(datumHashHex(SPEND_DATUM)))
  outputs.add(hashed)
  const body = CSL.TransactionBody.new_tx_body(inputs([TX_A, 9]), outputs, big(300_000))
  return finish(body, CSL.TransactionWitnessSet.new(), undefined, [OWN])
}

// ---------------------------------------------------------------- certificates, withdrawals, governance

export const POOL_ID = 'cd'.repeat(28)
export const ANCHOR_HASH = 'ef'.repeat(32)

export function rewardAddress(credential: CSL.Credential): string {
  return CSL.RewardAddress.new(0, credential).to_address().to_bech32()
}

export function governanceTx(): Uint8Array {
  const own = CSL.Credential.from_keyhash(CSL.Ed25519KeyHash.from_hex(OWN.hash))
  const script = CSL.Credential.from_scripthash(CSL.ScriptHash.from_hex(scriptHash(V2_SCRIPT)))
  const anchor = CSL.Anchor.new(CSL.URL.new('https://example.com/a.json'), CSL.AnchorDataHash.from_hex(ANCHOR_HASH))
  const certs = CSL.Certificates.new()
  certs.add(CSL.Certificate.new_stake_registration(CSL.StakeRegistration.new(own)))
  certs.add(CSL.Certificate.new_stake_delegation(CSL.StakeDelegation.new(script, CSL.Ed25519KeyHash.from_hex(POOL_ID))))
  certs.add(CSL.Certificate.new_reg_cert(CSL.StakeRegistration.new_with_explicit_deposit(own, big(2_000_000))))
  certs.add(CSL.Certificate.new_vote_delegation(CSL.VoteDelegation.new(own, CSL.DRep.new_always_abstain())))
  certs.add(CSL.Certificate.new_drep_registration(CSL.DRepRegistration.new_with_anchor(own, big(500_000_000), anchor)))
  certs.add(CSL.Certificate.new_unreg_cert(CSL.StakeDeregistration.new_with_explicit_refund(own, big(2_000_000))))
  certs.add(CSL.Certificate.new_pool_retirement(CSL.PoolRetirement.new(CSL.Ed25519KeyHash.from_hex(POOL_ID), 300)))
  const withdrawals = CSL.Withdrawals.new()
  withdrawals.insert(CSL.RewardAddress.new(0, own), big(1_000_000))
  withdrawals.insert(CSL.RewardAddress.new(0, script), big(2_000_000))
  const votes = CSL.VotingProcedures.new()
  const action = CSL.GovernanceActionId.new(CSL.TransactionHash.from_hex(TX_E), 1)
  votes.insert(
    CSL.Voter.new_drep_credential(own),
    action,
    CSL.VotingProcedure.new_with_anchor(CSL.VoteKind.Yes, anchor)
  )
  votes.insert(
    CSL.Voter.new_stake_pool_key_hash(CSL.Ed25519KeyHash.from_hex(POOL_ID)),
    action,
    CSL.VotingProcedure.new(CSL.VoteKind.Abstain)
  )
  const proposals = CSL.VotingProposals.new()
  proposals.add(
    CSL.VotingProposal.new(
      CSL.GovernanceAction.new_info_action(CSL.InfoAction.new()),
      anchor,
      CSL.RewardAddress.new(0, own),
      big(100_000_000_000)
    )
  )
  const outputs = CSL.TransactionOutputs.new()
  outputs.add(CSL.TransactionOutput.new(addr(OWN.enterprise), CSL.Value.new(big(10_000_000))))
  const body = CSL.TransactionBody.new_tx_body(inputs([TX_A, 3]), outputs, big(500_000))
  body.set_certs(certs)
  body.set_withdrawals(withdrawals)
  body.set_voting_procedures(votes)
  body.set_voting_proposals(proposals)
  body.set_donation(big(5_000_000))
  body.set_current_treasury_value(big(1_000_000_000_000))
  const redeemers = CSL.Redeemers.new()
  const unit = CSL.PlutusData.from_bytes(SPEND_REDEEMER)
  const units = CSL.ExUnits.new(big(1000), big(2000))
  redeemers.add(CSL.Redeemer.new(CSL.RedeemerTag.new_reward(), big(0), unit, units))
  redeemers.add(CSL.Redeemer.new(CSL.RedeemerTag.new_cert(), big(1), unit, units))
  redeemers.add(CSL.Redeemer.new(CSL.RedeemerTag.new_vote(), big(0), unit, units))
  redeemers.add(CSL.Redeemer.new(CSL.RedeemerTag.new_voting_proposal(), big(0), unit, units))
  const ws = CSL.TransactionWitnessSet.new()
  const scripts = CSL.PlutusScripts.new()
  scripts.add(CSL.PlutusScript.new_v2(V2_SCRIPT))
  ws.set_plutus_scripts(scripts)
  ws.set_redeemers(redeemers)
  body.set_script_data_hash(CSL.hash_script_data(redeemers, costModels()))
  return finish(body, ws, undefined, [OWN])
}

// ---------------------------------------------------------------- Marlowe role payout withdrawal

export const PUBLISHED_PAYOUT_HASH = 'fcb8885eb5e4f9a5cfca3c75e8c7280e482af32dcdf2d13e47d05d27'
export const ROLES_CURRENCY = '1b9af43b0eaafc42dfaefbbf4e71437af45454c7292a6b6606363741'

/** Withdraws the payout for role "Seller" (TX_C#1) with the role token from TX_B#2; nothing else runs. */
export function payoutWithdrawTx(): Uint8Array {
  const datum = encodePayoutDatum({ rolesCurrency: ROLES_CURRENCY, role: 'Seller' })
  const outputs = CSL.TransactionOutputs.new()
  const back = CSL.Value.new(big(12_000_000))
  back.set_multiasset(multiAsset(ROLES_CURRENCY, 'Seller', 1n))
  outputs.add(CSL.TransactionOutput.new(addr(OWN.enterprise), back))
  const body = CSL.TransactionBody.new_tx_body(inputs([TX_C, 1], [TX_B, 2]), outputs, big(400_000))
  body.set_validity_start_interval_bignum(big(10))
  body.set_ttl(big(900))
  body.set_collateral(inputs([TX_B, 2]))
  const redeemers = CSL.Redeemers.new()
  const index = TX_B < TX_C ? 1 : 0
  redeemers.add(
    CSL.Redeemer.new(
      CSL.RedeemerTag.new_spend(),
      big(index),
      CSL.PlutusData.from_bytes(SPEND_REDEEMER),
      CSL.ExUnits.new(big(100), big(200))
    )
  )
  const ws = CSL.TransactionWitnessSet.new()
  ws.set_plutus_data(plutusList([datum]))
  ws.set_redeemers(redeemers)
  body.set_script_data_hash(CSL.hash_script_data(redeemers, costModels(), plutusList([datum])))
  return finish(body, ws, undefined, [OWN])
}

export function payoutWithdrawInputs(): ResolvedOutput[] {
  const datum = encodePayoutDatum({ rolesCurrency: ROLES_CURRENCY, role: 'Seller' })
  return [
    {
      ref: { txId: TX_C, index: 1 },
      address: scriptAddress(PUBLISHED_PAYOUT_HASH),
      value: { lovelace: 10_000_000n, assets: {} },
      datumHash: datumHashHex(datum)
    },
    {
      ref: { txId: TX_B, index: 2 },
      address: OWN.enterprise,
      value: {
        lovelace: 2_400_000n,
        assets: { [ROLES_CURRENCY]: { [bytesToHex(new TextEncoder().encode('Seller'))]: 1n } }
      }
    }
  ]
}

/** A deposit, then choices to make after it: `levels` nested `When`s of three cases, one of which goes deeper. */
export function largeChoiceContract(
  levels: number,
  parties: { seller: Party; buyer: Party; mediator: Party },
  time: (i: number) => bigint
): Contract {
  let next: Contract = CLOSE
  for (let i = levels; i > 0; i--) {
    next = when(
      [
        onChoice(`approve step ${i}`, parties.buyer, 1n, next),
        onChoice(`reject step ${i}`, parties.seller, 0n, CLOSE),
        onChoice(`arbitrate step ${i}`, parties.mediator, 2n, CLOSE)
      ],
      time(i)
    )
  }
  return when([onDeposit(parties.seller, parties.buyer, ADA, PRICE, next)], time(0))
}

/** Bytes that do not compress, the same on every run (a linear congruential generator). */
export function incompressibleBytes(length: number): Uint8Array {
  const out = new Uint8Array(length)
  let x = 12345
  for (let i = 0; i < length; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0
    out[i] = x >>> 24
  }
  return out
}

/**
 * The largest transaction Desk builds and what its review bundle carries beside it: a ≈16 KB apply (the protocol's
 * maximum size) and the ≈14 KB semantics validator it references, as bytes that do not compress (the worst case).
 */
export function largestApply(): { readonly tx: Uint8Array; readonly resolvedInputs: ResolvedOutput[] } {
  const party = (k: { enterprise: string }): Party => ({ type: 'Address', address: k.enterprise })
  const before = initialDatum(
    largeChoiceContract(28, { seller: party(SELLER), buyer: party(BUYER), mediator: party(MEDIATOR) }, (i) =>
      slotTime(i === 0 ? 10_000 : 20_000 + i * 1000)
    )
  )
  const reference: ResolvedOutput = {
    ref: { txId: 'ff'.repeat(32), index: 1 },
    address: BUYER.enterprise,
    value: { lovelace: 50_000_000n, assets: {} },
    scriptRef: { language: 'PlutusV2', bytes: incompressibleBytes(14_000) }
  }
  return { tx: marloweApplyTx(TX_A, { before }), resolvedInputs: [...marloweApplyInputs(TX_A, before), reference] }
}
