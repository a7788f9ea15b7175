import { afterEach, describe, expect, test } from 'vitest'
import { semanticsValidatorAddress } from '../../../src/chain/deployments'
import { SANDBOX_REFERENCE_SCRIPTS, sandboxWallet, signWithSandboxWallets } from '../../../src/chain/sandbox'
import type { SandboxProvider } from '../../../src/chain/sandbox'
import type { Utxo } from '../../../src/chain/provider'
import { bytesToHex } from '../../../src/core/bytes'
import { roleTokenPolicy } from '../../../src/engine/build/role-token-policy/policy'
import { adaUtxos, openSandbox } from '../support/sandbox'
import { ADA, buildTx, datumHash, evaluated, intDatum, policyScript, txId } from '../support/txkit'

const alice = sandboxWallet('alice')
const bob = sandboxWallet('bob')
const scriptAddress = semanticsValidatorAddress('sandbox')

let sandbox: SandboxProvider
afterEach(async () => {
  await sandbox.close()
})

async function lockAtScript(datum: Uint8Array): Promise<Utxo> {
  const params = await sandbox.protocolParameters()
  const [funds] = await adaUtxos(sandbox, alice.address)
  const tx = buildTx({
    params,
    inputs: [funds!],
    changeAddress: alice.address,
    outputs: [{ address: scriptAddress, lovelace: 10n * ADA, datum }]
  })
  const id = await sandbox.submit(signWithSandboxWallets(tx, [alice]))
  const [locked] = await sandbox.utxosByRef([{ txId: id, index: 0 }])
  return locked!
}

describe('the sandbox accepts well-formed transactions', () => {
  test('a payment is confirmed at once, in its own block at the current slot', async () => {
    ;({ sandbox } = openSandbox())
    const params = await sandbox.protocolParameters()
    const [funds] = await adaUtxos(sandbox, alice.address)
    const tx = signWithSandboxWallets(
      buildTx({
        params,
        inputs: [funds!],
        changeAddress: alice.address,
        outputs: [{ address: bob.address, lovelace: 100n * ADA }]
      }),
      [alice]
    )
    const before = await sandbox.tip()

    const id = await sandbox.submit(tx)

    expect(id).toBe(txId(tx))
    const status = await sandbox.txStatus(id)
    expect(status).toEqual({
      status: 'confirmed',
      block: { slot: before.slot, blockNo: 1n, blockHash: expect.stringMatching(/^[0-9a-f]{64}$/) }
    })
    const tip = await sandbox.tip()
    expect(tip.blockNo).toBe(1n)
    expect(tip.slot).toBe(before.slot)
    const [paid] = await sandbox.utxosByRef([{ txId: id, index: 0 }])
    expect(paid).toMatchObject({ address: bob.address, value: { lovelace: 100n * ADA, assets: {} } })
    expect(await sandbox.utxosByRef([funds!.ref])).toEqual([])
    expect(await sandbox.txStatus('00'.repeat(32))).toEqual({ status: 'unknown' })
  })

  test('a datum-hash output at the stand-in validator is spent through the reference script', async () => {
    ;({ sandbox } = openSandbox())
    const params = await sandbox.protocolParameters()
    const d0 = intDatum(0n)
    const d1 = intDatum(1n)
    const locked = await lockAtScript(d0)
    expect(locked.datumHash).toBe(datumHash(d0))
    expect(bytesToHex(locked.datum!)).toBe(bytesToHex(d0))

    const [reference] = await sandbox.utxosByRef([SANDBOX_REFERENCE_SCRIPTS.semantics.ref])
    const utxos = await adaUtxos(sandbox, alice.address)
    const funds = utxos[0]
    const collateral = utxos.find((u) => u.value.lovelace === 5n * ADA)
    const tip = await sandbox.tip()
    const tx = await evaluated(sandbox, (budget) =>
      buildTx({
        params,
        inputs: [funds!],
        changeAddress: alice.address,
        scriptSpend: {
          utxo: locked,
          reference: reference!,
          datum: d0,
          redeemer: intDatum(7n),
          exUnits: budget('spend')
        },
        outputs: [{ address: scriptAddress, lovelace: 10n * ADA, datum: d1 }],
        collateral: collateral!,
        validFrom: tip.slot,
        ttl: tip.slot + 600n
      })
    )
    const budgets = await sandbox.evaluate(tx)
    expect(budgets).toHaveLength(1)
    expect(budgets[0]).toMatchObject({ tag: 'spend' })
    expect(budgets[0]!.exUnits.mem).toBeGreaterThan(0n)

    const id = await sandbox.submit(signWithSandboxWallets(tx, [alice]))

    const [continuing] = await sandbox.utxosByRef([{ txId: id, index: 0 }])
    expect(continuing).toMatchObject({ address: scriptAddress, datumHash: datumHash(d1) })
    expect(bytesToHex(continuing!.datum!)).toBe(bytesToHex(d1))
    expect(await sandbox.utxosByRef([locked.ref])).toEqual([])
  })

  test("role tokens are minted by the engine's policy of the seed UTxO, evaluated for real", async () => {
    ;({ sandbox } = openSandbox())
    const params = await sandbox.protocolParameters()
    const utxos = await adaUtxos(sandbox, alice.address)
    const seed = utxos[0]!
    const collateral = utxos.find((u) => u.value.lovelace === 5n * ADA)!
    const tokens = [
      { name: bytesToHex(new TextEncoder().encode('Buyer')), quantity: 1n },
      { name: bytesToHex(new TextEncoder().encode('Seller')), quantity: 1n }
    ]
    const policy = policyScript(
      roleTokenPolicy(
        seed.ref,
        tokens.map((t) => ({ assetName: t.name, quantity: t.quantity }))
      )
    )
    const tx = await evaluated(sandbox, (budget) =>
      buildTx({
        params,
        inputs: [seed],
        changeAddress: alice.address,
        mint: { policy, assets: tokens, redeemer: intDatum(0n), exUnits: budget('mint') },
        outputs: [
          { address: bob.address, lovelace: 2n * ADA, assets: tokens.map((t) => ({ policy: policy.hash, ...t })) }
        ],
        collateral
      })
    )

    const id = await sandbox.submit(signWithSandboxWallets(tx, [alice]))

    const [minted] = await sandbox.utxosByRef([{ txId: id, index: 0 }])
    expect(minted!.value.assets).toEqual({ [policy.hash]: { [tokens[0]!.name]: 1n, [tokens[1]!.name]: 1n } })
  })

  test('a closed sandbox refuses further calls, after finishing the queued ones', async () => {
    ;({ sandbox } = openSandbox())
    const queued = sandbox.fund(bob.address, 10n * ADA)
    const closing = sandbox.close()
    await expect(queued).resolves.toMatchObject({ index: 0 })
    await closing
    await expect(sandbox.tip()).rejects.toMatchObject({ kind: 'Unavailable', reason: 'the sandbox has been closed' })
    await expect(sandbox.utxosAt([bob.address])).rejects.toMatchObject({ kind: 'Unavailable' })
  })

  test('evaluation takes outputs not yet on the ledger from additionalUtxos', async () => {
    ;({ sandbox } = openSandbox())
    const params = await sandbox.protocolParameters()
    const d0 = intDatum(0n)
    const utxos = await adaUtxos(sandbox, alice.address)
    const lockTx = buildTx({
      params,
      inputs: [utxos[0]!],
      changeAddress: alice.address,
      outputs: [{ address: scriptAddress, lovelace: 10n * ADA, datum: d0 }]
    })
    const pending: Utxo = {
      ref: { txId: txId(lockTx), index: 0 },
      address: scriptAddress,
      value: { lovelace: 10n * ADA, assets: {} },
      datumHash: datumHash(d0),
      datum: d0
    }
    const [reference] = await sandbox.utxosByRef([SANDBOX_REFERENCE_SCRIPTS.semantics.ref])
    const spend = buildTx({
      params,
      inputs: [utxos[1]!],
      changeAddress: alice.address,
      scriptSpend: {
        utxo: pending,
        reference: reference!,
        datum: d0,
        redeemer: intDatum(1n),
        exUnits: { mem: 0n, steps: 0n }
      },
      collateral: utxos.find((u) => u.value.lovelace === 5n * ADA)!
    })

    await expect(sandbox.evaluate(spend)).rejects.toMatchObject({
      kind: 'EvaluationFailed',
      reason: `input ${pending.ref.txId}#0 is neither on the ledger nor among the additional UTxOs`
    })
    const [budget] = await sandbox.evaluate(spend, [pending])
    expect(budget).toMatchObject({ tag: 'spend', index: expect.any(Number) })
    expect(budget!.exUnits.steps).toBeGreaterThan(0n)
  })

  test('queries answer by address and by reference; a malformed address is refused', async () => {
    ;({ sandbox } = openSandbox())
    expect(await sandbox.utxosAt([alice.address, bob.address])).toHaveLength(8)
    expect(await sandbox.utxosByRef([{ txId: '11'.repeat(32), index: 0 }])).toEqual([])
    await expect(sandbox.utxosAt(['addr_test1xyz'])).rejects.toMatchObject({
      kind: 'Rejected',
      reason: 'not a Cardano address: "addr_test1xyz"'
    })
  })
})
