/** Burning role tokens: the wallet's UTxOs holding them are spent and given back without them, their ada kept. */
import { afterEach, describe, expect, test } from 'vitest'
import { bytesToHex, utf8Encode } from '../../../src/core/bytes'
import { CLOSE } from '../../../src/core/marlowe/types'
import { policyScriptIn } from '../../../src/engine/build/burn'
import type { BurnPolicy, CreateBuild } from '../../../src/engine/build'
import { balance, quantity } from './flows'
import { decodeTx } from './marlowe-validator'
import { failure, harness, testWallet, type Harness } from './support'

const alice = testWallet('alice')
const bob = testWallet('bob')
const hex = (s: string): string => bytesToHex(utf8Encode(s)!)

let h: Harness
afterEach(async () => h.close())

async function createWithRoles(): Promise<CreateBuild> {
  const created = await h.builder.create(
    { changeAddress: alice.address },
    {
      contract: CLOSE,
      roles: {
        type: 'Mint',
        roles: [
          { name: 'Buyer', recipients: [{ destination: { address: alice.address }, quantity: 2n }] },
          { name: 'Seller', recipients: [{ destination: { address: alice.address }, quantity: 1n }] },
          { name: 'Other', recipients: [{ destination: { address: bob.address }, quantity: 1n }] }
        ]
      }
    }
  )
  await h.submit(created, [alice])
  return created
}

describe('burn', () => {
  test('burns the chosen tokens with the policy script of the create tx and returns the ada', async () => {
    h = harness()
    const created = await createWithRoles()
    const policy = created.rolesCurrency
    const script = policyScriptIn(created.tx, policy)
    expect(script).toBeDefined()
    const before = await balance(h, alice.address)
    const asked: string[] = []
    const burnt = await h.builder.burn(
      { changeAddress: alice.address },
      {
        choose: (held): BurnPolicy[] => {
          asked.push(...held.map((t) => `${t.policyId}.${t.assetName}`))
          return [{ policyId: policy, script: script!, assetNames: new Set([hex('Buyer'), hex('Seller')]) }]
        }
      }
    )
    expect(asked.sort()).toEqual([`${policy}.${hex('Buyer')}`, `${policy}.${hex('Seller')}`])
    expect(burnt.burned).toEqual({ lovelace: 0n, assets: { [policy]: { [hex('Buyer')]: 2n, [hex('Seller')]: 1n } } })
    expect(decodeTx(burnt.tx).mint).toEqual({
      lovelace: 0n,
      assets: { [policy]: { [hex('Buyer')]: -2n, [hex('Seller')]: -1n } }
    })
    await h.submit(burnt, [alice])
    const after = await balance(h, alice.address)
    expect(quantity(after, policy, hex('Buyer'))).toBe(0n)
    expect(quantity(after, policy, hex('Seller'))).toBe(0n)
    expect(after.lovelace).toBe(before.lovelace - burnt.fee)
    expect(quantity(await balance(h, bob.address), policy, hex('Other'))).toBe(1n)
  })

  test('nothing chosen is BurnNoTokensToBurn; a refusal from the chooser stands', async () => {
    h = harness()
    await createWithRoles()
    const none = await failure(h.builder.burn({ changeAddress: alice.address }, { choose: () => [] }))
    expect([none.kind, none.code, none.message]).toEqual(['BadRequest', 'BurnNoTokensToBurn', 'No tokens to burn'])
    const refused = await failure(
      h.builder.burn(
        { changeAddress: bob.address },
        {
          choose: () => {
            throw none
          }
        }
      )
    )
    expect(refused).toBe(none)
  })

  test('several policies burn in one tx, each with its own script and redeemer', async () => {
    h = harness()
    const first = await createWithRoles()
    const second = await createWithRoles()
    const policies = [first, second].map((c) => ({
      policyId: c.rolesCurrency,
      script: policyScriptIn(c.tx, c.rolesCurrency)!,
      assetNames: new Set([hex('Buyer')])
    }))
    const burnt = await h.builder.burn({ changeAddress: alice.address }, { choose: () => policies })
    await h.submit(burnt, [alice])
    const after = await balance(h, alice.address)
    for (const c of [first, second]) {
      expect(quantity(after, c.rolesCurrency, hex('Buyer'))).toBe(0n)
      expect(quantity(after, c.rolesCurrency, hex('Seller'))).toBe(1n)
    }
  })
})
