/**
 * Each hole of the stock emulator (tooling notes §3.1, §3.4.5): the bad transaction is first shown to pass the
 * raw emulator loaded with the same ledger, then to be rejected by the sandbox with the ledger's reason.
 */
import { afterEach, describe, expect, test } from 'vitest'
import { semanticsValidatorAddress } from '../../../src/chain/deployments'
import {
  SANDBOX_REFERENCE_SCRIPTS,
  sandboxWallet,
  signWithSandboxWallets,
  type SandboxProvider
} from '../../../src/chain/sandbox'
import { ChainError, type Utxo } from '../../../src/chain/provider'
import { formatShelleyAddress } from '../../../src/core/cardano/address'
import { CSL } from '../../../src/csl'
import { roleTokenPolicy } from '../../../src/engine/build/role-token-policy/policy'
import { scratchDirs } from '../support/lifecycle'
import { RawEmulator } from '../support/raw-emulator'
import { adaUtxos, openSandbox } from '../support/sandbox'
import {
  ADA,
  buildTx,
  costModels,
  evaluated,
  intDatum,
  policyScript,
  recompose,
  txId,
  type TxSpec
} from '../support/txkit'

const scratchDir = scratchDirs()
const alice = sandboxWallet('alice')
const bob = sandboxWallet('bob')
const carol = sandboxWallet('carol')
const scriptAddress = semanticsValidatorAddress('sandbox')
const WALLET_UTXOS = 4

let sandbox: SandboxProvider
let dataDir: string
afterEach(async () => {
  await sandbox.close()
})

function open(): void {
  dataDir = scratchDir()
  ;({ sandbox } = openSandbox(undefined, { dataDir }))
}

/** The stock emulator with the sandbox's current ledger. */
const raw = (): RawEmulator => RawEmulator.fromStateFile(dataDir)

const sign = (tx: Uint8Array): Uint8Array => signWithSandboxWallets(tx, [alice])

async function rejection(tx: Uint8Array): Promise<ChainError> {
  const error: unknown = await sandbox.submit(tx).then(
    () => undefined,
    (e: unknown) => e
  )
  if (!(error instanceof ChainError)) throw new Error(`expected a ChainError, got ${String(error)}`)
  expect(error.kind).toBe('Rejected')
  return error
}

async function payment(spec: Partial<TxSpec> = {}, to = bob.address): Promise<Uint8Array> {
  const [funds] = await adaUtxos(sandbox, alice.address)
  return buildTx({
    params: await sandbox.protocolParameters(),
    inputs: [funds!],
    changeAddress: alice.address,
    outputs: [{ address: to, lovelace: 20n * ADA }],
    ...spec
  })
}

async function collateral(): Promise<Utxo> {
  return (await adaUtxos(sandbox, alice.address)).find((u) => u.value.lovelace === 5n * ADA)!
}

/** A locked output at the stand-in semantics validator and an evaluated, unsigned spend of it. */
async function scriptSpend(): Promise<Uint8Array> {
  const params = await sandbox.protocolParameters()
  const d0 = intDatum(0n)
  const lockId = await sandbox.submit(
    sign(await payment({ outputs: [{ address: scriptAddress, lovelace: 10n * ADA, datum: d0 }] }))
  )
  const [locked] = await sandbox.utxosByRef([{ txId: lockId, index: 0 }])
  const [reference] = await sandbox.utxosByRef([SANDBOX_REFERENCE_SCRIPTS.semantics.ref])
  const [funds] = await adaUtxos(sandbox, alice.address)
  const coll = await collateral()
  return evaluated(sandbox, (budget) =>
    buildTx({
      params,
      inputs: [funds!],
      changeAddress: alice.address,
      scriptSpend: {
        utxo: locked!,
        reference: reference!,
        datum: d0,
        redeemer: intDatum(1n),
        exUnits: budget('spend')
      },
      collateral: coll
    })
  )
}

const withoutRedeemers = (tx: Uint8Array): Uint8Array =>
  recompose(tx, (s, p) => {
    const witnesses = s.own(CSL.TransactionWitnessSet.new())
    const datums = p.witnesses.plutus_data()
    if (datums !== undefined) witnesses.set_plutus_data(s.own(datums))
    const scripts = p.witnesses.plutus_scripts()
    if (scripts !== undefined) witnesses.set_plutus_scripts(s.own(scripts))
    return { ...p, witnesses }
  })

describe('the sandbox closes the holes of the stock emulator', () => {
  test('two transactions spending one UTxO: the second is rejected, even when submitted together', async () => {
    open()
    const toBob = sign(await payment({}, bob.address))
    const toCarol = sign(await payment({}, carol.address))
    const peer = raw()
    await peer.submit(toBob)
    await peer.submit(toCarol)
    peer.emulator.stepForwardBlock()
    expect(peer.has({ txId: txId(toBob), index: 0 }) && peer.has({ txId: txId(toCarol), index: 0 })).toBe(true)

    const results = await Promise.allSettled([sandbox.submit(toBob), sandbox.submit(toCarol)])

    expect(results[0]).toEqual({ status: 'fulfilled', value: txId(toBob) })
    expect(results[1]).toMatchObject({
      status: 'rejected',
      reason: { kind: 'Rejected', reason: expect.stringMatching(/not found in the ledger/) }
    })
    expect(await sandbox.txStatus(txId(toCarol))).toEqual({ status: 'unknown' })
    expect(await sandbox.utxosAt([carol.address])).toHaveLength(WALLET_UTXOS)
  })

  test('a wrong script data hash', async () => {
    open()
    const good = await scriptSpend()
    const bad = sign(
      recompose(good, (s, p) => {
        p.body.set_script_data_hash(s.own(CSL.ScriptDataHash.from_bytes(new Uint8Array(32))))
        return p
      })
    )
    await expect(raw().submit(bad)).resolves.toBe(txId(bad))

    const error = await rejection(bad)

    expect(error.reason).toMatch(
      /^PPViewHashesDontMatch: the body says script data hash 0{64}, the redeemers, datums and cost models \(PlutusV2\) hash to [0-9a-f]{64}$/
    )
    await expect(sandbox.submit(sign(good))).resolves.toBe(txId(good))
  })

  test('a script data hash on a transaction without redeemers or datums', async () => {
    open()
    const bad = sign(await payment({ scriptDataHash: new Uint8Array(32).fill(1) }))
    await expect(raw().submit(bad)).resolves.toBe(txId(bad))

    expect((await rejection(bad)).reason).toMatch(/^PPViewHashesDontMatch: .* has no redeemers or datums$/)
  })

  test('spending a script output through a reference script without a redeemer', async () => {
    open()
    const bad = sign(withoutRedeemers(await scriptSpend()))
    await expect(raw().submit(bad)).resolves.toBe(txId(bad))

    expect((await rejection(bad)).reason).toMatch(
      /^MissingRedeemers: input [0-9a-f]{64}#0 \(spend index \d\) is locked by Plutus script [0-9a-f]{56} but has no redeemer$/
    )
  })

  test('minting through a reference-script policy without a redeemer', async () => {
    open()
    const params = await sandbox.protocolParameters()
    // The publishing payment spends the largest UTxO: the policy's seed is the next one, spent by the mint.
    const [, seed] = await adaUtxos(sandbox, alice.address)
    const policy = policyScript(roleTokenPolicy(seed!.ref, [{ assetName: '526f6c65', quantity: 1n }]))
    const publish = sign(
      await payment({ outputs: [{ address: alice.address, lovelace: 20n * ADA, scriptRef: policy }] })
    )
    const [reference] = await sandbox.utxosByRef([{ txId: await sandbox.submit(publish), index: 0 }])
    const coll = await collateral()
    const good = await evaluated(sandbox, (budget) =>
      buildTx({
        params,
        inputs: [seed!],
        changeAddress: alice.address,
        mint: {
          policy,
          reference: reference!,
          assets: [{ name: '526f6c65', quantity: 1n }],
          redeemer: intDatum(0n),
          exUnits: budget('mint')
        },
        outputs: [
          {
            address: bob.address,
            lovelace: 2n * ADA,
            assets: [{ policy: policy.hash, name: '526f6c65', quantity: 1n }]
          }
        ],
        collateral: coll
      })
    )
    const bad = sign(withoutRedeemers(good))
    await expect(raw().submit(bad)).resolves.toBe(txId(bad))

    expect((await rejection(bad)).reason).toBe(
      `MissingRedeemers: minting policy ${policy.hash} (mint index 0) is a Plutus script but has no redeemer`
    )
    await expect(sandbox.submit(sign(good))).resolves.toBe(txId(good))
  })

  test('a redeemer that points at nothing', async () => {
    open()
    const bad = sign(
      recompose(await payment(), (s, p) => {
        const redeemers = s.own(CSL.Redeemers.new())
        const units = s.own(CSL.ExUnits.new(s.own(CSL.BigNum.from_str('1')), s.own(CSL.BigNum.from_str('1'))))
        const data = s.own(CSL.PlutusData.from_bytes(intDatum(0n)))
        redeemers.add(
          s.own(CSL.Redeemer.new(s.own(CSL.RedeemerTag.new_spend()), s.own(CSL.BigNum.zero()), data, units))
        )
        p.witnesses.set_redeemers(redeemers)
        return p
      })
    )

    expect((await rejection(bad)).reason).toBe(
      'ExtraRedeemers: the spend redeemer at index 0 points to no Plutus-locked input'
    )
  })

  test('a network id of 1 in the body, and an output to a mainnet address', async () => {
    open()
    const mainnetBody = sign(
      recompose(await payment(), (s, p) => {
        p.body.set_network_id(s.own(CSL.NetworkId.mainnet()))
        return p
      })
    )
    const aliceOnMainnet = formatShelleyAddress({
      mainnet: true,
      payment: { type: 'key', hash: alice.paymentKeyHash },
      stake: { type: 'key', hash: alice.stakeKeyHash }
    })
    const mainnetOutput = sign(await payment({}, aliceOnMainnet))
    await expect(raw().submit(mainnetBody)).resolves.toBe(txId(mainnetBody))
    await expect(raw().submit(mainnetOutput)).resolves.toBe(txId(mainnetOutput))

    expect((await rejection(mainnetBody)).reason).toBe(
      'WrongNetworkInTxBody: the body says network 1, the sandbox is network 0'
    )
    expect((await rejection(mainnetOutput)).reason).toBe(
      `WrongNetwork: output 0 pays to ${aliceOnMainnet}, an address of network 1`
    )
  })

  test('auxiliary data that does not match the body', async () => {
    open()
    const withNote = await payment({ metadata: 'hello' })
    const plain = await payment()
    const wrongHash = sign(
      recompose(withNote, (s, p) => {
        p.body.set_auxiliary_data_hash(s.own(CSL.AuxiliaryDataHash.from_bytes(new Uint8Array(32))))
        return p
      })
    )
    const auxWithoutHash = sign(
      recompose(withNote, (s, p) => ({ ...p, body: s.own(CSL.Transaction.from_bytes(plain).body()) }))
    )
    const hashWithoutAux = sign(recompose(withNote, (_s, p) => ({ ...p, aux: undefined })))
    // (auxWithoutHash is larger than its fee allows, so the stock emulator refuses it for that.)
    for (const bad of [wrongHash, hashWithoutAux]) await expect(raw().submit(bad)).resolves.toBe(txId(bad))

    expect((await rejection(wrongHash)).reason).toMatch(
      /^ConflictingMetadataHash: the body says 0{64}, the auxiliary data hashes to [0-9a-f]{64}$/
    )
    expect((await rejection(auxWithoutHash)).reason).toMatch(/^MissingTxBodyMetadataHash: /)
    expect((await rejection(hashWithoutAux)).reason).toMatch(/^MissingTxMetadata: /)
    await expect(sandbox.submit(sign(withNote))).resolves.toBe(txId(withNote))
  })

  test('an unsigned transaction is rejected for its missing witness, not with a crash', async () => {
    open()
    const unsigned = await payment()
    await expect(raw().submit(unsigned)).rejects.toThrow(TypeError)

    expect((await rejection(unsigned)).reason).toBe(
      `MissingVKeyWitnessesUTXOW: the transaction is not signed; it needs signatures of the keys ${alice.paymentKeyHash}`
    )
    const signedByBob = signWithSandboxWallets(unsigned, [bob])
    expect((await rejection(signedByBob)).reason).toBe(`Vkey (hash ${alice.paymentKeyHash}) not found in witness set.`)
  })

  test('bytes that are not a transaction', async () => {
    open()
    expect((await rejection(new Uint8Array([0x83, 0x01]))).reason).toMatch(/^DeserialiseFailure: /)
  })

  test('a Plutus V2 output without a datum cannot be spent', async () => {
    open()
    const [reference] = await sandbox.utxosByRef([SANDBOX_REFERENCE_SCRIPTS.semantics.ref])
    const lockId = await sandbox.submit(
      sign(await payment({ outputs: [{ address: scriptAddress, lovelace: 10n * ADA }] }))
    )
    const [locked] = await sandbox.utxosByRef([{ txId: lockId, index: 0 }])
    const [funds] = await adaUtxos(sandbox, alice.address)
    const bad = sign(
      buildTx({
        params: await sandbox.protocolParameters(),
        inputs: [funds!],
        changeAddress: alice.address,
        scriptSpend: {
          utxo: locked!,
          reference: reference!,
          datum: intDatum(0n),
          redeemer: intDatum(0n),
          exUnits: { mem: 1_000_000n, steps: 1_000_000_000n }
        },
        collateral: await collateral()
      })
    )

    expect((await rejection(bad)).reason).toBe(
      `UnspendableUTxONoDatumHash: input ${lockId}#0 is locked by Plutus V2 script ${SANDBOX_REFERENCE_SCRIPTS.semantics.script.hash} but holds no datum`
    )
  })

  test('a script input whose script is nowhere in the transaction', async () => {
    open()
    const bad = sign(
      recompose(await scriptSpend(), (s, p) => {
        p.body.set_reference_inputs(s.own(CSL.TransactionInputs.new()))
        return p
      })
    )

    expect((await rejection(bad)).reason).toMatch(
      /^MissingScriptWitnessesUTXOW: script [0-9a-f]{56} for input [0-9a-f]{64}#0 is neither/
    )
  })

  test('a missing datum: evaluation fails and the submit is rejected, both in the evaluator words', async () => {
    open()
    const params = await sandbox.protocolParameters()
    const bad = recompose(await scriptSpend(), (s, p) => {
      const witnesses = s.own(CSL.TransactionWitnessSet.new())
      const redeemers = s.own(p.witnesses.redeemers()!)
      witnesses.set_redeemers(redeemers)
      p.body.set_script_data_hash(s.own(CSL.hash_script_data(redeemers, costModels(s, params))))
      return { ...p, witnesses }
    })

    await expect(sandbox.evaluate(bad)).rejects.toMatchObject({
      kind: 'EvaluationFailed',
      reason: expect.stringMatching(/^missing required datum Datum [0-9a-f]{64}$/)
    })
    expect((await rejection(sign(bad))).reason).toMatch(/^missing required datum Datum [0-9a-f]{64}$/)
  })
})
