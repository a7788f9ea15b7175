import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { hexToBytes } from '../../../src/core/bytes'
import {
  ADDR_A,
  ADDR_B,
  addressUtxo,
  BLOCK,
  COST_MODELS_RAW,
  HASHED_DATUM,
  HASHED_DATUM_HASH,
  INLINE_DATUM,
  MAX_U64,
  NATIVE_CBOR,
  NATIVE_HASH,
  PLUTUS_HASH,
  PLUTUS_SCRIPT,
  POLICY,
  provider,
  SCRIPT_ADDR,
  seededPeer,
  TOKEN,
  TX1,
  TX2,
  TX3,
  UNKNOWN_DATUM_HASH
} from './fixtures'
import type { BlockfrostPeer } from './peer'
import { JsonDecimal } from '../../../src/core/json/lossless'
import { chainFailure } from '../support/failure'

let peer: BlockfrostPeer

beforeEach(async () => {
  peer = await seededPeer()
})
afterEach(() => peer.close())

describe('Blockfrost protocol parameters and era', () => {
  test('every field converts, prices as the exact ratios they were written as', async () => {
    const p = await provider(peer).protocolParameters()
    expect(p).toEqual({
      minFeeA: 44n,
      minFeeB: 155381n,
      coinsPerUtxoByte: 4310n,
      maxTxSize: 16384,
      maxValueSize: 5000,
      keyDeposit: 2_000_000n,
      poolDeposit: 500_000_000n,
      priceMem: { numerator: 577n, denominator: 10_000n },
      priceSteps: { numerator: 721n, denominator: 10_000_000n },
      minFeeRefScriptCostPerByte: { numerator: 15n, denominator: 1n },
      collateralPercentage: 150,
      maxCollateralInputs: 3,
      maxTxExUnits: { mem: 14_000_000n, steps: 10_000_000_000n },
      costModels: COST_MODELS_RAW,
      protocolVersion: { major: 10, minor: 0 }
    })
    const [request] = peer.requestsTo(/^GET \/epochs\/latest\/parameters$/)
    expect(request?.headers['project_id']).toBe(peer.projectId)
  })

  test('exponent-form and fractional prices stay exact; a missing reference-script fee reads as zero', async () => {
    peer.state.parameters = {
      ...peer.state.parameters,
      price_step: new JsonDecimal('7.21e-5'),
      min_fee_ref_script_cost_per_byte: new JsonDecimal('15.5')
    }
    let p = await provider(peer).protocolParameters()
    expect(p.priceSteps).toEqual({ numerator: 721n, denominator: 10_000_000n })
    expect(p.minFeeRefScriptCostPerByte).toEqual({ numerator: 31n, denominator: 2n })
    peer.state.parameters = { ...peer.state.parameters, min_fee_ref_script_cost_per_byte: null }
    p = await provider(peer).protocolParameters()
    expect(p.minFeeRefScriptCostPerByte).toEqual({ numerator: 0n, denominator: 1n })
  })

  test('without cost_models_raw, index-keyed models are read in order and named ones are refused', async () => {
    const { cost_models_raw: _, ...rest } = peer.state.parameters
    peer.state.parameters = { ...rest, cost_models: { PlutusV2: { '0': 5n, '1': 6n, '2': 7n } } }
    expect((await provider(peer).protocolParameters()).costModels).toEqual({ PlutusV2: [5n, 6n, 7n] })
    peer.state.parameters = { ...rest, cost_models: { PlutusV2: { 'addInteger-cpu-arguments-intercept': 5n } } }
    const e = await chainFailure(provider(peer).protocolParameters())
    expect(e.kind).toBe('BadResponse')
    expect(e.reason).toContain('cost_models.PlutusV2')
  })

  test('the era follows the protocol major version', async () => {
    expect(await provider(peer).era()).toBe('conway')
    peer.state.parameters = { ...peer.state.parameters, protocol_major_ver: 8n }
    expect(await provider(peer).era()).toBe('babbage')
  })

  test('a missing field is a BadResponse naming it', async () => {
    const { max_tx_size: _, ...rest } = peer.state.parameters
    peer.state.parameters = rest
    const e = await chainFailure(provider(peer).protocolParameters())
    expect(e.kind).toBe('BadResponse')
    expect(e.reason).toContain('max_tx_size')
  })
})

describe('Blockfrost era summaries and tip', () => {
  test('era bounds become POSIX ms from the genesis system start; the current era has no end', async () => {
    const eras = await provider(peer).eraSummaries()
    expect(eras).toEqual([
      {
        start: { slot: 0n, time: 1_654_041_600_000n },
        end: { slot: 86_400n, time: 1_655_769_600_000n },
        slotLength: 20_000n
      },
      {
        start: { slot: 86_400n, time: 1_655_769_600_000n },
        end: { slot: 518_400n, time: 1_656_201_600_000n },
        slotLength: 1_000n
      },
      { start: { slot: 518_400n, time: 1_656_201_600_000n }, slotLength: 1_000n }
    ])
  })

  test('genesis is read once; an instance serving another network is refused', async () => {
    const p = provider(peer)
    await p.eraSummaries()
    await p.eraSummaries()
    expect(peer.requestsTo(/^GET \/genesis$/)).toHaveLength(1)
    peer.state.genesis = { ...peer.state.genesis, network_magic: 764824073n }
    const e = await chainFailure(provider(peer).eraSummaries())
    expect(e.kind).toBe('Unavailable')
    expect(e.reason).toContain('not preprod')
  })

  test('tip from the latest block', async () => {
    expect(await provider(peer).tip()).toEqual({ slot: 75_958_400n, blockNo: 2_800_123n, blockHash: BLOCK })
  })
})

describe('Blockfrost UTxOs at addresses', () => {
  test('values convert exactly, to the last unit of a 64-bit quantity', async () => {
    const utxos = await provider(peer).utxosAt([ADDR_A])
    expect(utxos).toEqual([
      { ref: { txId: TX1, index: 0 }, address: ADDR_A, value: { lovelace: 5_000_000n, assets: {} } },
      {
        ref: { txId: TX1, index: 1 },
        address: ADDR_A,
        value: { lovelace: BigInt(MAX_U64), assets: { [POLICY]: { [TOKEN]: BigInt(MAX_U64), '': 7n } } }
      }
    ])
  })

  test('datums: inline carried as is, hashes resolved and checked, unknown ones left as the hash', async () => {
    const utxos = await provider(peer).utxosAt([SCRIPT_ADDR])
    const byIndex = new Map(utxos.map((u) => [u.ref.index, u]))
    expect(byIndex.get(0)?.datum).toEqual(hexToBytes(INLINE_DATUM))
    expect(byIndex.get(0)?.datumHash).toBeUndefined()
    expect(byIndex.get(1)?.datumHash).toBe(HASHED_DATUM_HASH)
    expect(byIndex.get(1)?.datum).toEqual(hexToBytes(HASHED_DATUM))
    expect(byIndex.get(2)?.datumHash).toBe(UNKNOWN_DATUM_HASH)
    expect(byIndex.get(2)?.datum).toBeUndefined()
  })

  test('reference scripts: Plutus in its ledger form (one CBOR wrapping), native scripts from their JSON', async () => {
    const utxos = await provider(peer).utxosAt([SCRIPT_ADDR])
    const byIndex = new Map(utxos.map((u) => [u.ref.index, u]))
    expect(byIndex.get(3)?.scriptRef).toEqual({ language: 'PlutusV2', bytes: hexToBytes(PLUTUS_SCRIPT) })
    expect(byIndex.get(4)?.scriptRef).toEqual({ language: 'Native', bytes: hexToBytes(NATIVE_CBOR) })
    for (const u of utxos) expect(u.scriptRef === undefined).toBe(u.ref.index < 3)
  })

  test('a Plutus script served once wrapped or bare converts the same; one with other bytes is refused', async () => {
    for (const served of [PLUTUS_SCRIPT, PLUTUS_SCRIPT.slice(2)]) {
      peer.state.scripts.set(PLUTUS_HASH, { type: 'plutusV2', cbor: served })
      const [u] = (await provider(peer).utxosAt([SCRIPT_ADDR])).filter((x) => x.ref.index === 3)
      expect(u?.scriptRef?.bytes).toEqual(hexToBytes(PLUTUS_SCRIPT))
    }
    peer.state.scripts.set(PLUTUS_HASH, { type: 'plutusV1', cbor: PLUTUS_SCRIPT })
    const e = await chainFailure(provider(peer).utxosAt([SCRIPT_ADDR]))
    expect(e.kind).toBe('BadResponse')
    expect(e.reason).toContain(PLUTUS_HASH)
  })

  test('a datum that does not hash to its hash is refused', async () => {
    peer.state.datums.set(HASHED_DATUM_HASH, 'd87980')
    expect((await chainFailure(provider(peer).utxosAt([SCRIPT_ADDR]))).kind).toBe('BadResponse')
  })

  test('scripts and datums are fetched once per provider', async () => {
    const p = provider(peer)
    await p.utxosAt([SCRIPT_ADDR])
    await p.utxosAt([SCRIPT_ADDR])
    expect(peer.requestsTo(/^GET \/scripts\/[0-9a-f]{56}\/cbor$/)).toHaveLength(2)
    expect(peer.requestsTo(new RegExp(`^GET /scripts/datum/${HASHED_DATUM_HASH}/cbor$`))).toHaveLength(1)
    // Not-yet-known datums are asked again: a later transaction may reveal them.
    expect(peer.requestsTo(new RegExp(`^GET /scripts/datum/${UNKNOWN_DATUM_HASH}/cbor$`))).toHaveLength(2)
  })

  test('an address never seen on chain has no UTxOs; several addresses are read together', async () => {
    const utxos = await provider(peer).utxosAt([ADDR_B, ADDR_A, ADDR_A])
    expect(utxos.map((u) => `${u.ref.txId}#${u.ref.index}`)).toEqual([`${TX1}#0`, `${TX1}#1`])
  })

  test('more than 100 UTxOs are read page by page', async () => {
    const many = Array.from({ length: 250 }, (_, i) => addressUtxo(ADDR_B, TX2, i))
    peer.state.addressUtxos.set(ADDR_B, many)
    const utxos = await provider(peer).utxosAt([ADDR_B])
    expect(utxos.map((u) => u.ref.index)).toEqual(many.map((_, i) => i))
    const pages = peer
      .requestsTo(/^GET \/addresses\/.*\/utxos$/)
      .map((r) => [r.query.get('count'), r.query.get('page')])
    expect(pages).toEqual([
      ['100', '1'],
      ['100', '2'],
      ['100', '3']
    ])
  })

  test('exactly 100 UTxOs end with an empty page; a backend ignoring `page` is caught', async () => {
    peer.state.addressUtxos.set(
      ADDR_B,
      Array.from({ length: 100 }, (_, i) => addressUtxo(ADDR_B, TX2, i))
    )
    expect(await provider(peer).utxosAt([ADDR_B])).toHaveLength(100)
    const first = Array.from({ length: 100 }, (_, i) => addressUtxo(ADDR_B, TX2, i))
    peer.state.addressUtxos.set(ADDR_B, [...first, ...first, ...first])
    const e = await chainFailure(provider(peer).utxosAt([ADDR_B]))
    expect(e.kind).toBe('BadResponse')
    expect(e.reason).toContain('repeats')
  })

  test('items without an `address` field (older backends) take the address asked about', async () => {
    const { address: _, ...item } = addressUtxo(ADDR_B, TX2, 0)
    peer.state.addressUtxos.set(ADDR_B, [item])
    const [u] = await provider(peer).utxosAt([ADDR_B])
    expect(u?.address).toBe(ADDR_B)
  })

  test('an amount that is not a number is a BadResponse', async () => {
    peer.state.addressUtxos.set(ADDR_B, [
      addressUtxo(ADDR_B, TX2, 0, { amount: [{ unit: 'lovelace', quantity: '1e6' }] })
    ])
    const e = await chainFailure(provider(peer).utxosAt([ADDR_B]))
    expect(e.kind).toBe('BadResponse')
    expect(e.reason).toContain('quantity')
  })
})

describe('Blockfrost UTxOs by reference', () => {
  test('unspent outputs only, in the order asked; spent, collateral and unknown ones are absent', async () => {
    const utxos = await provider(peer).utxosByRef([
      { txId: TX3, index: 2 },
      { txId: TX3, index: 0 },
      { txId: TX3, index: 1 },
      { txId: TX3, index: 3 },
      { txId: TX3, index: 9 },
      { txId: TX1, index: 0 },
      { txId: 'not-a-tx-id', index: 0 },
      { txId: TX3, index: 1 }
    ])
    expect(utxos).toEqual([
      {
        ref: { txId: TX3, index: 2 },
        address: SCRIPT_ADDR,
        value: { lovelace: 2_000_000n, assets: {} },
        datum: hexToBytes(INLINE_DATUM)
      },
      {
        ref: { txId: TX3, index: 1 },
        address: ADDR_B,
        value: { lovelace: 3_000_000n, assets: { [POLICY]: { [TOKEN]: 12n } } }
      }
    ])
    // One request per transaction, however many of its outputs are asked for.
    expect(peer.requestsTo(new RegExp(`^GET /txs/${TX3}/utxos$`))).toHaveLength(1)
  })

  test('upper-case ids are found', async () => {
    const [u] = await provider(peer).utxosByRef([{ txId: TX3.toUpperCase(), index: 1 }])
    expect(u?.ref).toEqual({ txId: TX3, index: 1 })
  })
})

describe('Blockfrost transaction status', () => {
  test('confirmed with its block, pending in the mempool, else unknown', async () => {
    const p = provider(peer)
    expect(await p.txStatus(TX3)).toEqual({
      status: 'confirmed',
      block: { slot: 75_957_000n, blockNo: 2_800_100n, blockHash: BLOCK }
    })
    peer.state.mempool.set(TX2, { tx: { hash: TX2 }, inputs: [], outputs: [], redeemers: [] })
    expect(await p.txStatus(TX2)).toEqual({ status: 'pending' })
    expect(await p.txStatus(TX1)).toEqual({ status: 'unknown' })
    expect(await p.txStatus('xyz')).toEqual({ status: 'unknown' })
    expect(peer.requestsTo(/^GET \/mempool\//).map((r) => r.path)).toEqual([`/mempool/${TX2}`, `/mempool/${TX1}`])
  })

  test('a confirmed tx answer without a block is a BadResponse', async () => {
    peer.state.txs.set(TX1, { hash: TX1, block_height: 5n, slot: 6n })
    expect((await chainFailure(provider(peer).txStatus(TX1))).kind).toBe('BadResponse')
  })
})

test('network and network id', () => {
  expect(provider(peer).networkId).toBe(0)
  expect(provider(peer, { network: 'mainnet' }).networkId).toBe(1)
  expect(NATIVE_HASH).toHaveLength(56)
})
