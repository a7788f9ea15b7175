import { describe, expect, test } from 'vitest'
import {
  FAUCET_GENESIS_LOVELACE,
  GENESIS_ID,
  GENESIS_OUTPUTS,
  SANDBOX_FAUCET,
  SANDBOX_REFERENCE_SCRIPTS,
  SANDBOX_WALLETS,
  WALLET_GENESIS_LOVELACE
} from '../../../src/chain/sandbox'
import { ratioFromDecimal } from '../../../src/chain/sandbox/params'
import { walletFromMnemonic } from '../../../src/chain/sandbox/wallets'
import { parseShelleyAddress } from '../../../src/core/cardano/address'
import { sandboxes } from '../support/lifecycle'
import { ADA } from '../support/txkit'

const fresh = sandboxes()

describe('sandbox wallets', () => {
  test('derive CIP-1852 keys and base addresses like the CIP-19 test vector', () => {
    // The mnemonic behind the CIP-19 test vectors; its mainnet base address is the published one.
    const vector = walletFromMnemonic('alice', 'test walk nut penalty hip pave soap entry language right filter choice')
    const published = parseShelleyAddress(
      'addr1qx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer3jcu5d8ps7zex2k2xt3uqxgjqnnj83ws8lhrn648jjxtwqfjkjv7'
    )
    expect(parseShelleyAddress(vector.address)).toEqual({ ...published, mainnet: false })
    expect(vector.paymentKeyHash).toBe(published.payment.hash)
    expect(vector.stakeKeyHash).toBe(published.stake?.hash)
  })

  test('are fixed: alice, bob, carol, dave and the faucet, on network 0', () => {
    expect(SANDBOX_WALLETS.map((w) => [w.name, w.address])).toEqual([
      [
        'alice',
        'addr_test1qqp99n7t8crh8e0fwlzyzsaf53zrlpx5r3qxzp2alcnqyr7smdmm5zhfw4uaw0040wcxeedrng9nqrxy82xjjp6c0e5skk86wq'
      ],
      [
        'bob',
        'addr_test1qpfdqzf4xsq6pztadsxddmax2mazh08eacqckv8yfkhgnw27mcpvhs7vz7dhdrwcsnuxgkvaaekg9v2hx9ruufvwz6yqp26ken'
      ],
      [
        'carol',
        'addr_test1qq6mlyzvdudfv9cvedu6ysm5q7ny3ycrywaz07hy9ksc5yhyphqywnyy94rpyuz9wx8rz4gmnpf0xkaam3n8npzfys0s644x7m'
      ],
      [
        'dave',
        'addr_test1qzlmr56358kk4mz9v77drdw23ycafeenpar6d8xr6h6fxg237plp84e2kya4tmpnt22584k89m8mnagl6helkj08q59s2ydygt'
      ]
    ])
    expect(SANDBOX_FAUCET.address).toBe(
      'addr_test1qqqn9zp6jy577sfyasp6e7j00pkcdqmuak7yqrwj5rzwln8l6ehw2adalff23mk3t8nl8c4tfnkcyynz283wgy88s0ys6qmk9q'
    )
    for (const w of [...SANDBOX_WALLETS, SANDBOX_FAUCET]) {
      expect(w.mnemonic.split(' ')).toHaveLength(24)
      expect(walletFromMnemonic(w.name, w.mnemonic)).toEqual(w)
      expect(parseShelleyAddress(w.address).payment).toEqual({ type: 'key', hash: w.paymentKeyHash })
    }
  })
})

describe('sandbox genesis', () => {
  test('funds each wallet with 10,000 ada in four UTxOs, one of them collateral-sized', async () => {
    const sandbox = fresh()
    expect(WALLET_GENESIS_LOVELACE.reduce((a, b) => a + b)).toBe(10_000n * ADA)
    for (const wallet of SANDBOX_WALLETS) {
      const utxos = await sandbox.utxosAt([wallet.address])
      expect(utxos.map((u) => u.value.lovelace).sort((a, b) => (a < b ? -1 : 1))).toEqual([
        5n * ADA,
        1_995n * ADA,
        3_000n * ADA,
        5_000n * ADA
      ])
      expect(utxos.every((u) => Object.keys(u.value.assets).length === 0)).toBe(true)
    }
    const [faucet] = await sandbox.utxosAt([SANDBOX_FAUCET.address])
    expect(faucet!.value.lovelace).toBe(FAUCET_GENESIS_LOVELACE)
  })

  test('holds the stand-in Marlowe scripts as reference scripts at their own script addresses', async () => {
    const sandbox = fresh()
    for (const r of Object.values(SANDBOX_REFERENCE_SCRIPTS)) {
      const [utxo] = await sandbox.utxosByRef([r.ref])
      expect(utxo).toEqual({
        ref: r.ref,
        address: r.address,
        value: { lovelace: r.lovelace, assets: {} },
        scriptRef: { language: 'PlutusV2', bytes: r.script.bytes }
      })
      expect(parseShelleyAddress(r.address).payment).toEqual({ type: 'script', hash: r.script.hash })
    }
  })

  test('is block 0: its transactions are confirmed there and the tip starts there', async () => {
    const sandbox = fresh()
    expect(await sandbox.tip()).toMatchObject({ blockNo: 0n, blockHash: GENESIS_ID })
    for (const txId of new Set(GENESIS_OUTPUTS.map((o) => o.ref.txId))) {
      expect(await sandbox.txStatus(txId)).toEqual({
        status: 'confirmed',
        block: { slot: 0n, blockNo: 0n, blockHash: GENESIS_ID }
      })
    }
  })
})

describe('sandbox protocol parameters', () => {
  test("are the emulator's, with exact prices and the Conway reference-script fee", async () => {
    const sandbox = fresh()
    expect(sandbox.network).toBe('sandbox')
    expect(sandbox.networkId).toBe(0)
    expect(await sandbox.era()).toBe('conway')
    const p = await sandbox.protocolParameters()
    expect(p).toMatchObject({
      minFeeA: 44n,
      minFeeB: 155_381n,
      coinsPerUtxoByte: 4_310n,
      maxTxSize: 16_384,
      maxValueSize: 5_000,
      keyDeposit: 2_000_000n,
      poolDeposit: 500_000_000n,
      priceMem: { numerator: 577n, denominator: 10_000n },
      priceSteps: { numerator: 721n, denominator: 10_000_000n },
      minFeeRefScriptCostPerByte: { numerator: 15n, denominator: 1n },
      collateralPercentage: 150,
      maxCollateralInputs: 3,
      maxTxExUnits: { mem: 14_000_000n, steps: 10_000_000_000n },
      protocolVersion: { major: 9, minor: 0 }
    })
    expect([p.costModels.PlutusV1?.length, p.costModels.PlutusV2?.length, p.costModels.PlutusV3?.length]).toEqual([
      166, 175, 297
    ])
  })

  test('decimal parameters become the ratios they were written as', () => {
    expect(ratioFromDecimal(0.0577)).toEqual({ numerator: 577n, denominator: 10_000n })
    expect(ratioFromDecimal(721e-7)).toEqual({ numerator: 721n, denominator: 10_000_000n })
    expect(ratioFromDecimal(1.2e-8)).toEqual({ numerator: 3n, denominator: 250_000_000n })
    expect(ratioFromDecimal(15)).toEqual({ numerator: 15n, denominator: 1n })
    expect(ratioFromDecimal(0)).toEqual({ numerator: 0n, denominator: 1n })
    expect(() => ratioFromDecimal(-1)).toThrow(/not a non-negative decimal/)
  })
})
