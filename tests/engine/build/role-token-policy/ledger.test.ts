/**
 * The role-token policy on the sandbox ledger, evaluated for real: the one good mint goes through, and each bad
 * mint (the seed not spent or only read, an extra token, a missing one, a wrong quantity, a second mint once the
 * seed is spent, a mint mixed with a burn) is refused by the script; burning is allowed at any time after.
 */
import { afterEach, describe, expect, test } from 'vitest'
import { ChainError, type ExUnits, type ProtocolParameters, type Utxo } from '../../../../src/chain/provider'
import { sandboxWallet, signWithSandboxWallets, type SandboxProvider } from '../../../../src/chain/sandbox'
import { bytesToHex, utf8Encode } from '../../../../src/core/bytes'
import { decodeTransaction } from '../../../../src/core/cardano/tx'
import { roleTokenPolicy, type RoleToken } from '../../../../src/engine/build/role-token-policy/policy'
import { adaUtxos, openSandbox } from '../../../chain/support/sandbox'
import {
  ADA,
  buildTx,
  evaluated,
  policyScript,
  txId,
  type Pay,
  type PlutusV2Script
} from '../../../chain/support/txkit'

const alice = sandboxWallet('alice')
const bob = sandboxWallet('bob')
const hex = (name: string): string => bytesToHex(utf8Encode(name)!)
const UNIT = new Uint8Array([0xd8, 0x79, 0x80])
/** Enough for any run of the policy: a failing script must fail by its own check, not by running out. */
const GENEROUS: ExUnits = { mem: 3_000_000n, steps: 1_500_000_000n }

const TOKENS: readonly RoleToken[] = [
  { assetName: hex('Buyer'), quantity: 1n },
  { assetName: hex('Seller'), quantity: 2n },
  { assetName: '', quantity: 1n }
]

let sandbox: SandboxProvider
let params: ProtocolParameters
afterEach(async () => {
  await sandbox.close()
})

interface Setup {
  readonly seed: Utxo
  readonly other: Utxo
  readonly collateral: Utxo
  readonly policy: PlutusV2Script
}

/** A fresh sandbox; the policy is alice's largest UTxO's, and she has another to spend instead. */
async function setup(): Promise<Setup> {
  ;({ sandbox } = openSandbox())
  params = await sandbox.protocolParameters()
  const [seed, other, , collateral] = await adaUtxos(sandbox, alice.address)
  expect(collateral!.value.lovelace).toBe(5n * ADA)
  return {
    seed: seed!,
    other: other!,
    collateral: collateral!,
    policy: policyScript(roleTokenPolicy(seed!.ref, TOKENS))
  }
}

interface MintSpec {
  readonly inputs: readonly Utxo[]
  readonly referenceInputs?: readonly Utxo[]
  readonly assets: readonly { readonly name: string; readonly quantity: bigint }[]
  readonly collateral: Utxo
  readonly changeAddress?: string
}

/** Minted tokens with a positive quantity go to bob; the rest of the inputs comes back as change. */
function mintTx(policy: PlutusV2Script, spec: MintSpec, exUnits: ExUnits): Uint8Array {
  const outputs: Pay[] = spec.assets.some((a) => a.quantity > 0n)
    ? [
        {
          address: bob.address,
          lovelace: 2n * ADA,
          assets: spec.assets.filter((a) => a.quantity > 0n).map((a) => ({ policy: policy.hash, ...a }))
        }
      ]
    : []
  return buildTx({
    params,
    inputs: spec.inputs,
    ...(spec.referenceInputs === undefined ? {} : { referenceInputs: spec.referenceInputs }),
    changeAddress: spec.changeAddress ?? alice.address,
    mint: { policy, assets: spec.assets, redeemer: UNIT, exUnits },
    outputs,
    collateral: spec.collateral
  })
}

const asAssets = (tokens: readonly RoleToken[]) => tokens.map((t) => ({ name: t.assetName, quantity: t.quantity }))

async function refusal(tx: Uint8Array, signers = [alice]): Promise<ChainError> {
  const error: unknown = await sandbox.submit(signWithSandboxWallets(tx, signers)).then(
    () => undefined,
    (e: unknown) => e
  )
  if (!(error instanceof ChainError)) throw new Error(`expected a ChainError, got ${String(error)}`)
  return error
}

/** The ledger refuses the tx because the policy script failed, and evaluation says the same. */
async function expectScriptRefusal(policy: PlutusV2Script, spec: MintSpec, signers = [alice]): Promise<void> {
  await expect(sandbox.evaluate(mintTx(policy, spec, GENEROUS))).rejects.toMatchObject({ kind: 'EvaluationFailed' })
  const error = await refusal(mintTx(policy, spec, GENEROUS), signers)
  expect(error.kind).toBe('Rejected')
  expect(error.reason).toMatch(/^failed script execution Mint\[0\] the validator crashed/)
}

async function goodMint(s: Setup): Promise<string> {
  const spec = { inputs: [s.seed], assets: asAssets(TOKENS), collateral: s.collateral }
  const tx = await evaluated(sandbox, (budget) => mintTx(s.policy, spec, budget('mint')))
  return sandbox.submit(signWithSandboxWallets(tx, [alice]))
}

describe('the role-token policy on the ledger', () => {
  test('mints exactly its tokens in the tx that spends the seed', async () => {
    const s = await setup()
    const tx = mintTx(s.policy, { inputs: [s.seed], assets: asAssets(TOKENS), collateral: s.collateral }, GENEROUS)
    const budgets = await sandbox.evaluate(tx)
    expect(budgets).toEqual([{ tag: 'mint', index: 0, exUnits: expect.anything() }])
    const { mem, steps } = budgets[0]!.exUnits
    expect(mem).toBeLessThan(GENEROUS.mem)
    expect(steps).toBeLessThan(GENEROUS.steps)

    // The same budget the refusals below declare: they fail by the policy's checks, not by running out.
    const id = await sandbox.submit(signWithSandboxWallets(tx, [alice]))
    const [minted] = await sandbox.utxosByRef([{ txId: id, index: 0 }])
    expect(minted!.value.assets).toEqual({ [s.policy.hash]: { [hex('Buyer')]: 1n, [hex('Seller')]: 2n, '': 1n } })
    expect(await sandbox.utxosByRef([s.seed.ref])).toEqual([])
  })

  test('refuses a mint that does not spend the seed, also one that only reads it', async () => {
    const s = await setup()
    const spec = { inputs: [s.other], assets: asAssets(TOKENS), collateral: s.collateral }
    await expectScriptRefusal(s.policy, spec)
    const reading = { ...spec, referenceInputs: [s.seed] }
    expect(decodeTransaction(mintTx(s.policy, reading, GENEROUS)).body.referenceInputs).toEqual([s.seed.ref])
    await expectScriptRefusal(s.policy, reading)
  })

  test('refuses an extra token, a missing token and a wrong quantity, even with the seed', async () => {
    const s = await setup()
    const extra = [...asAssets(TOKENS), { name: hex('Extra'), quantity: 1n }]
    const missing = asAssets(TOKENS).slice(1)
    const more = asAssets(TOKENS).map((a) => (a.name === hex('Seller') ? { ...a, quantity: 3n } : a))
    const fewer = asAssets(TOKENS).map((a) => (a.name === hex('Seller') ? { ...a, quantity: 1n } : a))
    for (const assets of [extra, missing, more, fewer]) {
      await expectScriptRefusal(s.policy, { inputs: [s.seed], assets, collateral: s.collateral })
    }
    // The seed is still there: the good mint goes through after all these.
    await goodMint(s)
  })

  test('refuses a second mint once the seed is spent', async () => {
    const s = await setup()
    await goodMint(s)
    await expectScriptRefusal(s.policy, { inputs: [s.other], assets: asAssets(TOKENS), collateral: s.collateral })
    // The seed itself cannot be spent again: the ledger refuses before any script runs.
    const again = await refusal(
      mintTx(s.policy, { inputs: [s.seed], assets: asAssets(TOKENS), collateral: s.collateral }, GENEROUS)
    )
    const { txId: seedTx, index } = s.seed.ref
    expect(again.reason).toBe(`Input {"index":${index},"txId":"${seedTx}"} not found in the ledger.`)
  })

  test('burning is allowed at any time after, without the seed; a burn mixed with a mint is not', async () => {
    const s = await setup()
    const minted = await goodMint(s)
    const [held] = await sandbox.utxosByRef([{ txId: minted, index: 0 }])
    const [bobFunds, , , bobCollateral] = await adaUtxos(sandbox, bob.address)
    const burnSpec = (assets: MintSpec['assets']): MintSpec => ({
      inputs: [held!, bobFunds!],
      assets,
      collateral: bobCollateral!,
      changeAddress: bob.address
    })

    await expectScriptRefusal(
      s.policy,
      burnSpec([
        { name: hex('Seller'), quantity: -1n },
        { name: hex('Extra'), quantity: 1n }
      ]),
      [bob]
    )

    const burn = burnSpec([
      { name: hex('Seller'), quantity: -2n },
      { name: '', quantity: -1n }
    ])
    const tx = await evaluated(sandbox, (budget) => mintTx(s.policy, burn, budget('mint')))
    const id = await sandbox.submit(signWithSandboxWallets(tx, [bob]))
    expect(id).toBe(txId(tx))
    const bobTokens = (await sandbox.utxosAt([bob.address])).map((u) => u.value.assets[s.policy.hash] ?? {})
    expect(Object.assign({}, ...bobTokens)).toEqual({ [hex('Buyer')]: 1n })
  })
})
