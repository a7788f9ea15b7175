/** Canned chain data in Blockfrost's shapes (preprod-like), and a provider wired to a local peer. */
import { bytesToHex, concatBytes, hexToBytes } from '../../../src/core/bytes'
import { formatShelleyAddress } from '../../../src/core/cardano/address'
import { encodeHead } from '../../../src/core/cardano/cbor'
import { blake2b256Hex, scriptHashHex } from '../../../src/core/cardano/tx'
import { JsonDecimal, type JsonObject } from '../../../src/core/json/lossless'
import { BlockfrostProvider, type BlockfrostOptions } from '../../../src/chain/blockfrost'
import { BlockfrostPeer } from './peer'
import { txContent } from './peer-chain'

export const MAX_U64 = '18446744073709551615'

export const ADDR_A = formatShelleyAddress({ mainnet: false, payment: { type: 'key', hash: 'a1'.repeat(28) } })
export const ADDR_B = formatShelleyAddress({ mainnet: false, payment: { type: 'key', hash: 'b2'.repeat(28) } })
export const SCRIPT_ADDR = formatShelleyAddress({ mainnet: false, payment: { type: 'script', hash: 'c3'.repeat(28) } })

export const POLICY = 'd4'.repeat(28)
export const TOKEN = '4d61726c6f7765' // "Marlowe"

export const TX1 = '11'.repeat(32)
export const TX2 = '22'.repeat(32)
export const TX3 = '33'.repeat(32)
export const BLOCK = 'bb'.repeat(32)

/** Constr 0 [] */
export const INLINE_DATUM = 'd87980'
/** Constr 0 [42] */
export const HASHED_DATUM = 'd8799f182aff'
export const HASHED_DATUM_HASH = blake2b256Hex(hexToBytes(HASHED_DATUM))
export const UNKNOWN_DATUM_HASH = 'ee'.repeat(32)

/** Some flat bytes; a Plutus script's ledger form is them in one CBOR byte string. */
export const FLAT = '0100003222253330044a229309b2b2b9a1'
export const PLUTUS_SCRIPT = bytesToHex(concatBytes([encodeHead(2, FLAT.length / 2), hexToBytes(FLAT)]))
export const PLUTUS_HASH = scriptHashHex(2, hexToBytes(PLUTUS_SCRIPT))
/** What Blockfrost serves at /scripts/{hash}/cbor: wrapped once more. */
export const PLUTUS_SERVED = bytesToHex(
  concatBytes([encodeHead(2, PLUTUS_SCRIPT.length / 2), hexToBytes(PLUTUS_SCRIPT)])
)

export const KEY_HASH = 'e5'.repeat(28)
export const NATIVE_JSON: JsonObject = {
  type: 'all',
  scripts: [
    { type: 'sig', keyHash: KEY_HASH },
    { type: 'before', slot: 1000n }
  ]
}
/** The same script's CBOR, written out by hand: [1, [[0, h'…'], [5, 1000]]]. */
export const NATIVE_CBOR = `8201828200581c${KEY_HASH}82051903e8`
export const NATIVE_HASH = scriptHashHex(0, hexToBytes(NATIVE_CBOR))

const dec = (text: string): JsonDecimal => new JsonDecimal(text)

/** Three models of a few numbers each stand in for the real ones: the order is what matters. */
export const COST_MODELS_RAW = {
  PlutusV1: [205665n, 812n, 1n, 1n, 1000n],
  PlutusV2: [100788n, 420n, 1n, 1n, 1000n, 173n],
  PlutusV3: [100788n, 420n, 1n, 1n, 1000n, 173n, -900n]
}

export function protocolParameters(): JsonObject {
  return {
    epoch: 180n,
    min_fee_a: 44n,
    min_fee_b: 155381n,
    max_block_size: 90112n,
    max_tx_size: 16384n,
    max_block_header_size: 1100n,
    key_deposit: '2000000',
    pool_deposit: '500000000',
    e_max: 18n,
    n_opt: 500n,
    a0: dec('0.3'),
    rho: dec('0.003'),
    tau: dec('0.2'),
    decentralisation_param: 0n,
    extra_entropy: null,
    protocol_major_ver: 10n,
    protocol_minor_ver: 0n,
    min_utxo: '4310',
    min_pool_cost: '170000000',
    nonce: 'ab'.repeat(32),
    cost_models: { PlutusV1: { 'addInteger-cpu-arguments-intercept': 205665n } },
    cost_models_raw: COST_MODELS_RAW,
    price_mem: dec('0.0577'),
    price_step: dec('0.0000721'),
    max_tx_ex_mem: '14000000',
    max_tx_ex_steps: '10000000000',
    max_block_ex_mem: '62000000',
    max_block_ex_steps: '20000000000',
    max_val_size: '5000',
    collateral_percent: 150n,
    max_collateral_inputs: 3n,
    coins_per_utxo_size: '4310',
    coins_per_utxo_word: '4310',
    min_fee_ref_script_cost_per_byte: 15n,
    gov_action_deposit: '100000000000'
  }
}

/** Preprod's first eras (Byron's 20 s slots, then 1 s) with its genesis start. */
export const ERAS = [
  {
    start: { time: 0n, slot: 0n, epoch: 0n },
    end: { time: 1728000n, slot: 86400n, epoch: 4n },
    parameters: { epoch_length: 21600n, slot_length: 20n, safe_zone: 4320n }
  },
  {
    start: { time: 1728000n, slot: 86400n, epoch: 4n },
    end: { time: 2160000n, slot: 518400n, epoch: 5n },
    parameters: { epoch_length: 432000n, slot_length: 1n, safe_zone: 129600n }
  },
  {
    start: { time: 2160000n, slot: 518400n, epoch: 5n },
    end: { time: 102384000n, slot: 100742400n, epoch: 237n },
    parameters: { epoch_length: 432000n, slot_length: 1n, safe_zone: 129600n }
  }
]

export const GENESIS: JsonObject = {
  active_slots_coefficient: dec('0.05'),
  update_quorum: 5n,
  max_lovelace_supply: '45000000000000000',
  network_magic: 1n,
  epoch_length: 432000n,
  system_start: 1654041600n,
  slots_per_kes_period: 129600n,
  slot_length: 1n,
  max_kes_evolutions: 62n,
  security_param: 2160n
}

export function amount(lovelace: string, assets: ReadonlyArray<[string, string]> = []): JsonObject[] {
  return [{ unit: 'lovelace', quantity: lovelace }, ...assets.map(([unit, quantity]) => ({ unit, quantity }))]
}

/** An item of `GET /addresses/{a}/utxos`. */
export function addressUtxo(address: string, txHash: string, index: number, extra: JsonObject = {}): JsonObject {
  return {
    address,
    tx_hash: txHash,
    tx_index: BigInt(index),
    output_index: BigInt(index),
    amount: amount('2000000'),
    block: BLOCK,
    data_hash: null,
    inline_datum: null,
    reference_script_hash: null,
    ...extra
  }
}

/** An output of `GET /txs/{h}/utxos`. */
export function txOutput(address: string, index: number, extra: JsonObject = {}): JsonObject {
  return {
    address,
    amount: amount('2000000'),
    output_index: BigInt(index),
    data_hash: null,
    inline_datum: null,
    collateral: false,
    reference_script_hash: null,
    consumed_by_tx: null,
    ...extra
  }
}

/** A chain with every kind of output the adapter must read. */
export function seed(peer: BlockfrostPeer): void {
  const s = peer.state
  s.parameters = protocolParameters()
  s.eras = ERAS
  s.genesis = GENESIS
  s.latestBlock = {
    time: 1730000000n,
    height: 2_800_123n,
    hash: BLOCK,
    slot: 75_958_400n,
    epoch: 180n,
    epoch_slot: 1000n,
    slot_leader: 'pool1xyz',
    size: 3n,
    tx_count: 1n,
    output: '1000',
    fees: '170000',
    block_vrf: 'vrf_vk1xyz',
    op_cert: 'cc'.repeat(32),
    op_cert_counter: '2',
    previous_block: 'aa'.repeat(32),
    next_block: null,
    confirmations: 0n
  }
  s.addressUtxos.set(ADDR_A, [
    addressUtxo(ADDR_A, TX1, 0, { amount: amount('5000000') }),
    addressUtxo(ADDR_A, TX1, 1, {
      amount: amount(MAX_U64, [
        [POLICY + TOKEN, MAX_U64],
        [POLICY, '7']
      ])
    })
  ])
  s.addressUtxos.set(SCRIPT_ADDR, [
    addressUtxo(SCRIPT_ADDR, TX2, 0, {
      data_hash: blake2b256Hex(hexToBytes(INLINE_DATUM)),
      inline_datum: INLINE_DATUM
    }),
    addressUtxo(SCRIPT_ADDR, TX2, 1, { data_hash: HASHED_DATUM_HASH }),
    addressUtxo(SCRIPT_ADDR, TX2, 2, { data_hash: UNKNOWN_DATUM_HASH }),
    addressUtxo(SCRIPT_ADDR, TX2, 3, { reference_script_hash: PLUTUS_HASH }),
    addressUtxo(SCRIPT_ADDR, TX2, 4, { reference_script_hash: NATIVE_HASH })
  ])
  s.datums.set(HASHED_DATUM_HASH, HASHED_DATUM)
  s.scripts.set(PLUTUS_HASH, { type: 'plutusV2', cbor: PLUTUS_SERVED })
  s.scripts.set(NATIVE_HASH, { type: 'timelock', cbor: null, json: NATIVE_JSON })
  s.txUtxos.set(TX3, {
    hash: TX3,
    inputs: [],
    outputs: [
      txOutput(ADDR_A, 0, { consumed_by_tx: 'ff'.repeat(32) }),
      txOutput(ADDR_B, 1, { amount: amount('3000000', [[POLICY + TOKEN, '12']]) }),
      txOutput(SCRIPT_ADDR, 2, { inline_datum: INLINE_DATUM, data_hash: blake2b256Hex(hexToBytes(INLINE_DATUM)) }),
      txOutput(ADDR_B, 3, { collateral: true })
    ]
  })
  s.txs.set(TX3, {
    ...txContent({ hash: BLOCK, height: 2_800_100n, slot: 75_957_000n, time: 1729999000n }, 0, TX3),
    output_amount: amount('5000000'),
    fees: '170000',
    size: 300n,
    utxo_count: 4n
  })
}

/** A local Blockfrost serving `seed`'s chain. */
export async function seededPeer(): Promise<BlockfrostPeer> {
  const peer = await BlockfrostPeer.start()
  seed(peer)
  return peer
}

/** Fast retries and a short timeout, so fault tests stay quick. */
export function provider(peer: BlockfrostPeer, options: Partial<BlockfrostOptions> = {}): BlockfrostProvider {
  return new BlockfrostProvider({
    network: 'preprod',
    projectId: peer.projectId,
    baseUrl: peer.url,
    timeoutMs: 2_000,
    retries: 3,
    retryBaseDelayMs: 5,
    retryMaxDelayMs: 50,
    ...options
  })
}
