/**
 * The sandbox applies the ledger rules of @blaze-cardano/emulator itself, on its own decoding of the
 * transaction (src/chain/sandbox/rules.ts). Each bad transaction here is refused by the stock emulator loaded
 * with the same ledger and by the sandbox, with the same words; and what the sandbox does not take (stake and
 * governance) is refused with a reason.
 */
import { afterEach, describe, expect, test } from 'vitest'
import { semanticsValidatorAddress } from '../../../src/chain/deployments'
import {
  SANDBOX_REFERENCE_SCRIPTS,
  sandboxWallet,
  signWithSandboxWallets,
  type SandboxProvider
} from '../../../src/chain/sandbox'
import { ChainError, type ExUnits, type Utxo } from '../../../src/chain/provider'
import { CSL, type CslScope } from '../../../src/csl'
import { scratchDirs } from '../support/lifecycle'
import { RawEmulator } from '../support/raw-emulator'
import { adaUtxos, openSandbox } from '../support/sandbox'
import { ADA, buildTx, intDatum, recompose, type TxSpec } from '../support/txkit'

const scratchDir = scratchDirs()
const alice = sandboxWallet('alice')
const bob = sandboxWallet('bob')
const scriptAddress = semanticsValidatorAddress('sandbox')

let sandbox: SandboxProvider
let dataDir: string
afterEach(async () => {
  await sandbox.close()
})

function open(): void {
  dataDir = scratchDir()
  ;({ sandbox } = openSandbox(undefined, { dataDir }))
}

const sign = (tx: Uint8Array): Uint8Array => signWithSandboxWallets(tx, [alice])
const big = (s: CslScope, n: bigint): CSL.BigNum => s.own(CSL.BigNum.from_str(n.toString()))

/** The reasons the stock emulator (with the sandbox's current ledger) and the sandbox refuse the transaction for. */
async function refusals(bad: Uint8Array): Promise<{ readonly peer: string; readonly ours: string }> {
  const peer: unknown = await RawEmulator.fromStateFile(dataDir)
    .submit(bad)
    .then(
      () => undefined,
      (e: unknown) => e
    )
  if (!(peer instanceof Error)) throw new Error(`the stock emulator did not refuse the transaction (${String(peer)})`)
  const ours: unknown = await sandbox.submit(bad).then(
    () => undefined,
    (e: unknown) => e
  )
  if (!(ours instanceof ChainError)) throw new Error(`expected a ChainError, got ${String(ours)}`)
  expect(ours.kind).toBe('Rejected')
  return { peer: peer.message, ours: ours.reason }
}

/** Refused by both in the same words. */
async function sameRefusal(bad: Uint8Array): Promise<string> {
  const { peer, ours } = await refusals(bad)
  expect(ours).toBe(peer)
  return ours
}

async function payment(spec: Partial<TxSpec> = {}): Promise<Uint8Array> {
  const [funds] = await adaUtxos(sandbox, alice.address)
  return buildTx({
    params: await sandbox.protocolParameters(),
    inputs: [funds!],
    changeAddress: alice.address,
    outputs: [{ address: bob.address, lovelace: 20n * ADA }],
    ...spec
  })
}

/** A payment's body (inputs, outputs, fee, script data hash) made again with other outputs or another fee. */
function paymentBody(
  s: CslScope,
  body: CSL.TransactionBody,
  change: { outputs?: CSL.TransactionOutputs; fee?: bigint }
): CSL.TransactionBody {
  const fee = change.fee === undefined ? s.own(body.fee()) : big(s, change.fee)
  const made = s.own(
    CSL.TransactionBody.new_tx_body(s.own(body.inputs()), change.outputs ?? s.own(body.outputs()), fee)
  )
  const hash = body.script_data_hash()
  if (hash !== undefined) made.set_script_data_hash(s.own(hash))
  return made
}

/** The payment with output `index` replaced. */
function changeOutput(
  tx: Uint8Array,
  index: number,
  change: (s: CslScope, o: CSL.TransactionOutput) => CSL.TransactionOutput
): Uint8Array {
  return recompose(tx, (s, p) => {
    const outputs = s.own(p.body.outputs())
    const all = s.own(CSL.TransactionOutputs.new())
    for (let i = 0; i < outputs.len(); i++) {
      const output = s.own(outputs.get(i))
      all.add(i === index ? change(s, output) : output)
    }
    return { ...p, body: paymentBody(s, p.body, { outputs: all }) }
  })
}

/** A datum-less output like `o` with `lovelace` more (or less) in it. */
function addLovelace(s: CslScope, o: CSL.TransactionOutput, lovelace: bigint): CSL.TransactionOutput {
  const amount = s.own(o.amount())
  amount.set_coin(big(s, BigInt(s.own(amount.coin()).to_str()) + lovelace))
  return s.own(CSL.TransactionOutput.new(s.own(o.address()), amount))
}

/** A spend of a locked output through the stand-in validator, built with the budgets `units` makes. */
async function scriptSpend(units: (used: ExUnits) => ExUnits): Promise<{ tx: Uint8Array; collateral: Utxo }> {
  const params = await sandbox.protocolParameters()
  const d0 = intDatum(0n)
  const lockId = await sandbox.submit(
    sign(await payment({ outputs: [{ address: scriptAddress, lovelace: 10n * ADA, datum: d0 }] }))
  )
  const [locked] = await sandbox.utxosByRef([{ txId: lockId, index: 0 }])
  const [reference] = await sandbox.utxosByRef([SANDBOX_REFERENCE_SCRIPTS.semantics.ref])
  const utxos = await adaUtxos(sandbox, alice.address)
  const collateral = utxos.find((u) => u.value.lovelace === 5n * ADA)!
  const build = (exUnits: ExUnits): Uint8Array =>
    buildTx({
      params,
      inputs: [utxos[0]!],
      changeAddress: alice.address,
      scriptSpend: { utxo: locked!, reference: reference!, datum: d0, redeemer: intDatum(1n), exUnits },
      collateral
    })
  const [budget] = await sandbox.evaluate(build({ mem: 0n, steps: 0n }))
  return { tx: build(units(budget!.exUnits)), collateral }
}

describe('the sandbox refuses what the stock emulator refuses, in its words', () => {
  test('a fee below what the size and scripts cost', async () => {
    open()
    const bad = sign(
      recompose(await payment(), (s, p) => {
        return { ...p, body: paymentBody(s, p.body, { fee: BigInt(s.own(p.body.fee()).to_str()) - 1_000n }) }
      })
    )
    expect(await sameRefusal(bad)).toMatch(/^Insufficient transaction fee\. Supplied: \d+, Required: \d+$/)
  })

  test('value that is not conserved', async () => {
    open()
    const bad = sign(changeOutput(await payment(), 0, (s, o) => addLovelace(s, o, 1n * ADA)))
    expect(await sameRefusal(bad)).toBe('Value not conserved. Leftover Value: -1000000, ')
  })

  test('an output below its min-ADA', async () => {
    open()
    const paid = changeOutput(await payment(), 0, (s, o) => addLovelace(s, o, 500_000n - 20n * ADA))
    const bad = sign(changeOutput(paid, 1, (s, o) => addLovelace(s, o, 20n * ADA - 500_000n)))
    expect(await sameRefusal(bad)).toMatch(
      /^Output 0 does not meet the minADA requirement\. Output: 500000, MinADA: \d+$/
    )
  })

  test('a signature that does not sign the transaction', async () => {
    open()
    const signed = sign(await payment())
    const bad = withCslTx(signed, (s, ws) => {
      const vkeys = s.own(ws.vkeys()!)
      const witness = s.own(vkeys.get(0))
      const signature = s.own(witness.signature()).to_bytes()
      signature[0] = signature[0]! ^ 0xff
      const forged = s.own(CSL.Vkeywitnesses.new())
      forged.add(s.own(CSL.Vkeywitness.new(s.own(witness.vkey()), s.own(CSL.Ed25519Signature.from_bytes(signature)))))
      ws.set_vkeys(forged)
    })
    // The emulator meant to name the key too, but printed an object.
    const { peer, ours } = await refusals(bad)
    expect(peer).toBe('Invalid vkey in witness set with hash [object Object]')
    expect(ours).toBe(`Invalid vkey in witness set with hash ${alice.paymentKeyHash}`)
  })

  test('a signature nobody asked for, and a required signer who did not sign', async () => {
    open()
    const extra = signWithSandboxWallets(await payment(), [alice, bob])
    expect(await sameRefusal(extra)).toBe(`Extraneous VKey witness. ${bob.paymentKeyHash} has not been consumed.`)
    const required = sign(
      recompose(await payment(), (s, p) => {
        const signers = s.own(CSL.Ed25519KeyHashes.new())
        signers.add(s.own(CSL.Ed25519KeyHash.from_hex(bob.paymentKeyHash)))
        p.body.set_required_signers(signers)
        return p
      })
    )
    expect(await sameRefusal(required)).toBe(`Vkey (hash ${bob.paymentKeyHash}) not found in witness set.`)
  })

  test('a datum in the witness set that no output or input names', async () => {
    open()
    const withDatum = await payment({ outputs: [{ address: bob.address, lovelace: 20n * ADA, datum: intDatum(9n) }] })
    const bad = sign(
      // The same output without its datum hash: the datum stays in the witness set, named by nothing.
      changeOutput(withDatum, 0, (s, o) => s.own(CSL.TransactionOutput.new(s.own(o.address()), s.own(o.amount()))))
    )
    expect(await sameRefusal(bad)).toMatch(/^Extraneous Datum witness\. [0-9a-f]{64} has not been consumed\.$/)
  })

  test('a redeemer budget below what the script uses', async () => {
    open()
    const { tx } = await scriptSpend((used) => ({ mem: used.mem - 1n, steps: used.steps }))
    expect(await sameRefusal(sign(tx))).toBe('Underestimated budget (spend 0): -1 Memory, 0 Steps')
  })

  test('collateral that does not cover the scripts', async () => {
    open()
    const { tx, collateral } = await scriptSpend((used) => used)
    const bad = sign(
      recompose(tx, (s, p) => {
        const back = s.own(p.body.collateral_return()!)
        const returned = BigInt(s.own(s.own(back.amount()).coin()).to_str())
        p.body.set_collateral_return(addLovelace(s, back, collateral.value.lovelace - 100_000n - returned))
        return p
      })
    )
    expect(await sameRefusal(bad)).toBe('Collateral inputs are insufficient.')
  })
})

describe('what the sandbox ledger does not take', () => {
  test('a stake certificate is refused with the reason', async () => {
    open()
    const bad = sign(
      recompose(await payment(), (s, p) => {
        const certs = s.own(CSL.Certificates.new())
        const stake = s.own(CSL.Credential.from_keyhash(s.own(CSL.Ed25519KeyHash.from_hex(alice.stakeKeyHash))))
        certs.add(s.own(CSL.Certificate.new_stake_registration(s.own(CSL.StakeRegistration.new(stake)))))
        p.body.set_certs(certs)
        return p
      })
    )
    await expect(sandbox.submit(bad)).rejects.toMatchObject({
      kind: 'Rejected',
      reason: 'the sandbox ledger does not take certificates: it keeps no stake or governance state'
    })
  })
})

/** The signed transaction with its witness set changed in place (the body, and so the id, kept). */
function withCslTx(tx: Uint8Array, change: (s: CslScope, ws: CSL.TransactionWitnessSet) => void): Uint8Array {
  return recompose(tx, (s, p) => {
    change(s, p.witnesses)
    return p
  })
}
