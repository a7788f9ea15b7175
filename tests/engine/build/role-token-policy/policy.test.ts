/**
 * One policy per parameter set: the seed and the exact tokens make the script, so the policy id; the order the
 * tokens are listed in does not. The script is the compiled program applied to the parameters as Data.
 */
import { HexBlob, PlutusData, PlutusV2Script, Script } from '@blaze-cardano/core'
import { UPLCDecoder } from '@blaze-cardano/uplc'
import { describe, expect, test } from 'vitest'
import { bytesToHex, hexToBytes, utf8Encode } from '../../../../src/core/bytes'
import { decodeCbor } from '../../../../src/core/cardano/cbor'
import { constrData, decodePlutusData, encodePlutusData } from '../../../../src/core/marlowe/plutus/data'
import { CSL, withCsl } from '../../../../src/csl'
import { ROLE_TOKENS_PROGRAM } from '../../../../src/engine/build/role-token-policy/compiled'
import { roleTokenPolicy, type RoleToken } from '../../../../src/engine/build/role-token-policy/policy'

const hex = (name: string): string => bytesToHex(utf8Encode(name)!)
const seed = { txId: '5f'.repeat(32), index: 1 }
const buyer: RoleToken = { assetName: hex('Buyer'), quantity: 1n }
const seller: RoleToken = { assetName: hex('Seller'), quantity: 2n }
const thread: RoleToken = { assetName: '', quantity: 1n }
/** Of `seed` with Buyer 1, Seller 2 and the thread token: computed once, kept so a change shows. */
const GOLDEN_POLICY_ID = 'a29f48e674200923a43d5383576a417883fffefa99a55d8cbd7b42ae'

const flatOf = (script: Uint8Array): Uint8Array => {
  const { item } = decodeCbor(script)
  if (item.kind !== 'bytes') throw new Error(`the script is a CBOR ${item.kind}`)
  return item.value
}

describe('roleTokenPolicy', () => {
  test('is the compiled program applied to [seed TxOutRef, {name: quantity}] with the names in byte order', () => {
    const { script } = roleTokenPolicy(seed, [seller, buyer, thread])
    const applied = UPLCDecoder.decodeFromHex(bytesToHex(flatOf(script)))
    const compiled = UPLCDecoder.decodeFromHex(ROLE_TOKENS_PROGRAM)
    expect(applied).toMatchObject({
      version: '1.0.0',
      body: { type: 'Apply', function: compiled.body, argument: { type: 'Constant', valueType: 'Data' } }
    })
    const argument = (applied.body as { argument: { value: ReturnType<PlutusData['toCore']> } }).argument.value
    expect(decodePlutusData(hexToBytes(PlutusData.fromCore(argument).toCbor()))).toEqual({
      list: [
        constrData(0, [constrData(0, [hexToBytes(seed.txId)]), 1n]),
        {
          map: [
            [new Uint8Array(), 1n],
            [utf8Encode('Buyer')!, 1n],
            [utf8Encode('Seller')!, 2n]
          ]
        }
      ]
    })
  })

  test('its policy id is the script hash as CSL and Blaze compute it, and stays what it is', () => {
    const { script, policyId } = roleTokenPolicy(seed, [buyer, seller, thread])
    expect(policyId).toBe(withCsl((s) => s.own(s.own(CSL.PlutusScript.new_v2(script)).hash()).to_hex()))
    expect(policyId).toBe(Script.newPlutusV2Script(new PlutusV2Script(HexBlob(bytesToHex(script)))).hash())
    // A change here changes every new contract's roles currency: only with a change to the policy itself.
    expect(policyId).toBe(GOLDEN_POLICY_ID)
  })

  test('one policy per seed and token set; the order of the tokens does not matter', () => {
    const { policyId } = roleTokenPolicy(seed, [buyer, seller])
    expect(roleTokenPolicy({ ...seed }, [seller, buyer]).policyId).toBe(policyId)
    const others = [
      roleTokenPolicy({ ...seed, index: 2 }, [buyer, seller]),
      roleTokenPolicy({ txId: '60'.repeat(32), index: 1 }, [buyer, seller]),
      roleTokenPolicy(seed, [buyer]),
      roleTokenPolicy(seed, [buyer, seller, thread]),
      roleTokenPolicy(seed, [buyer, { ...seller, quantity: 3n }]),
      roleTokenPolicy(seed, [buyer, { ...seller, assetName: hex('Sellers') }])
    ].map((p) => p.policyId)
    expect(new Set([policyId, ...others]).size).toBe(others.length + 1)
  })

  test('refuses parameters no contract could use', () => {
    expect(() => roleTokenPolicy({ txId: 'abcd', index: 0 }, [buyer])).toThrow(/32 bytes/)
    expect(() => roleTokenPolicy({ ...seed, index: -1 }, [buyer])).toThrow(/not natural/)
    expect(() => roleTokenPolicy(seed, [])).toThrow(/at least one token/)
    expect(() => roleTokenPolicy(seed, [buyer, { ...buyer, quantity: 2n }])).toThrow(/listed twice/)
    expect(() => roleTokenPolicy(seed, [{ ...buyer, quantity: 0n }])).toThrow(/must be positive/)
    expect(() => roleTokenPolicy(seed, [{ assetName: '00'.repeat(33), quantity: 1n }])).toThrow(/at most 32 bytes/)
  })

  test('holds the parameters as the CBOR the engine encodes, so the policy id follows that encoding', () => {
    const { script } = roleTokenPolicy(seed, [buyer])
    const expected = encodePlutusData({
      list: [constrData(0, [constrData(0, [hexToBytes(seed.txId)]), 1n]), { map: [[utf8Encode('Buyer')!, 1n]] }]
    })
    expect(bytesToHex(flatOf(script))).toContain(bytesToHex(expected))
  })
})
