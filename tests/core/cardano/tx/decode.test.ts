import * as CSL from '@emurgo/cardano-serialization-lib-nodejs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { bytesToHex } from '../../../../src/core/bytes'
import { TxDecodeError, decodeTransaction, type DecodedTx } from '../../../../src/core/cardano/tx'
import { decodePlutusData } from '../../../../src/core/marlowe/plutus/data'
import { enc, hex, unhex } from '../cbor/encode'
import { OWN_ADDRESS, craft, minimalBody } from './craft'
import {
  ANCHOR_HASH,
  NFT_POLICY,
  OTHER,
  OWN,
  POOL_ID,
  SPEND_DATUM,
  SPEND_REDEEMER,
  TOKEN_POLICY,
  TX_A,
  TX_B,
  TX_C,
  TX_D,
  TX_E,
  V2_SCRIPT,
  babbageOutputsTx,
  datumHashHex,
  governanceTx,
  marloweApplyTx,
  mintTx,
  paymentTx,
  plutusSpendTx,
  scriptHash,
  txIdOf
} from './fixtures'

const utf8 = (s: string): string => bytesToHex(new TextEncoder().encode(s))

function sameSlicesAsCsl(bytes: Uint8Array, tx: DecodedTx): void {
  const fixed = CSL.FixedTransaction.from_bytes(bytes)
  expect(tx.id).toBe(fixed.transaction_hash().to_hex())
  expect(hex(tx.bodyBytes)).toBe(hex(fixed.raw_body()))
  expect(hex(tx.witnessSetBytes)).toBe(hex(fixed.raw_witness_set()))
  const aux = fixed.raw_auxiliary_data()
  expect(tx.auxData === undefined ? undefined : hex(tx.auxData.bytes)).toBe(aux === undefined ? undefined : hex(aux))
  fixed.free()
}

function rejection(bytes: Uint8Array): TxDecodeError {
  try {
    decodeTransaction(bytes)
  } catch (e) {
    expect(e).toBeInstanceOf(TxDecodeError)
    return e as TxDecodeError
  }
  throw new Error('accepted')
}

describe('decodeTransaction: a payment', () => {
  const bytes = paymentTx()
  const tx = decodeTransaction(bytes)

  it('keeps the original body, witness set and aux data bytes; the id hashes the body', () => {
    sameSlicesAsCsl(bytes, tx)
    expect(tx.size).toBe(bytes.length)
    expect(tx.isValid).toBe(true)
  })

  it('reads inputs, outputs, fee and ttl', () => {
    expect(tx.body.inputs).toEqual([
      { txId: TX_A, index: 0 },
      { txId: TX_B, index: 1 }
    ])
    const [paid, change] = tx.body.outputs
    expect(paid).toMatchObject({
      format: 'legacy',
      address: { kind: 'enterprise', text: OTHER.enterprise, networkId: 0, payment: { type: 'key', hash: OTHER.hash } },
      value: {
        coin: 5_000_000n,
        multiAsset: [{ policyId: TOKEN_POLICY, assets: [{ assetName: utf8('Token'), quantity: 7n }] }]
      }
    })
    expect(change?.value).toEqual({ coin: 3_000_000n, multiAsset: [] })
    expect(tx.body.fee).toBe(200_000n)
    expect(tx.body.ttl).toBe(1000n)
    expect(tx.setTags).toEqual({ tagged: 2, untagged: 0 })
  })

  it('reads the key witness and the metadata', () => {
    expect(tx.witnessSet.vkeys).toHaveLength(1)
    expect(tx.witnessSet.vkeys[0]?.keyHash).toBe(OWN.hash)
    expect(tx.witnessSet.vkeys[0]?.vkey).toBe(OWN.priv.to_public().to_hex())
    expect(tx.body.auxDataHash).toBe(tx.auxData?.hash)
    expect(tx.auxData?.format).toBe('shelley')
    expect(tx.auxData?.metadata).toEqual([
      {
        label: 674n,
        value: { map: [{ k: { string: 'msg' }, v: { list: [{ string: 'hello' }, { string: 'world' }] } }] }
      }
    ])
  })
})

describe('decodeTransaction: a Plutus V2 spend', () => {
  const bytes = plutusSpendTx()
  const tx = decodeTransaction(bytes)

  it('reads every Alonzo/Babbage body field', () => {
    sameSlicesAsCsl(bytes, tx)
    const { body } = tx
    expect(body.inputs).toEqual([
      { txId: TX_C, index: 0 },
      { txId: TX_A, index: 2 }
    ])
    expect(body.validityStart).toBe(100n)
    expect(body.ttl).toBe(5000n)
    expect(body.collateral).toEqual([{ txId: TX_D, index: 0 }])
    expect(body.collateralReturn?.value.coin).toBe(4_400_000n)
    expect(body.collateralReturn?.address.text).toBe(OWN.enterprise)
    expect(body.totalCollateral).toBe(600_000n)
    expect(body.referenceInputs).toEqual([{ txId: TX_E, index: 0 }])
    expect(body.requiredSigners).toEqual([OWN.hash])
    expect(body.networkId).toBe(0)
    const fixed = CSL.FixedTransaction.from_bytes(bytes)
    expect(body.scriptDataHash).toBe(fixed.body().script_data_hash()?.to_hex())
  })

  it('reads the script, datum and redeemer with their original bytes', () => {
    const ws = tx.witnessSet
    expect(ws.plutusScripts).toEqual([{ language: 'PlutusV2', hash: scriptHash(V2_SCRIPT), bytes: V2_SCRIPT }])
    expect(ws.datums).toHaveLength(1)
    expect(hex(ws.datums[0]!.bytes)).toBe(hex(SPEND_DATUM))
    expect(ws.datums[0]!.hash).toBe(CSL.hash_plutus_data(CSL.PlutusData.from_bytes(SPEND_DATUM)).to_hex())
    expect(hex(bytes.subarray(ws.datums[0]!.offset, ws.datums[0]!.offset + SPEND_DATUM.length))).toBe(hex(SPEND_DATUM))
    expect(ws.redeemerFormat).toBe('map')
    expect(ws.redeemers).toEqual([
      {
        tag: 'spend',
        index: 1,
        data: decodePlutusData(SPEND_REDEEMER),
        dataBytes: SPEND_REDEEMER,
        exUnits: { mem: 1_000_000n, steps: 500_000_000n }
      }
    ])
    // The datums and redeemers fields as written, tag 258 included: what the script data hash covers.
    expect(hex(ws.datumsBytes!)).toBe(`d90102${'9f'}${hex(SPEND_DATUM)}ff`)
    expect(ws.redeemersBytes?.[0]).toBe(0xa1)
  })
})

describe('decodeTransaction: mint, outputs, certificates, governance', () => {
  it('reads signed mint quantities and the native policy', () => {
    const tx = decodeTransaction(mintTx())
    expect(tx.body.mint).toEqual([
      {
        policyId: NFT_POLICY,
        assets: [
          { assetName: utf8('Old'), quantity: -2n },
          { assetName: utf8('NFT1'), quantity: 1n }
        ]
      }
    ])
    expect(tx.witnessSet.nativeScripts).toHaveLength(1)
    expect(tx.witnessSet.nativeScripts[0]).toMatchObject({
      language: 'Native',
      hash: NFT_POLICY,
      native: { type: 'sig', keyHash: OWN.hash }
    })
    expect(tx.auxData?.metadata[0]?.label).toBe(721n)
  })

  it('reads map-form outputs with an inline datum and a reference script', () => {
    const tx = decodeTransaction(babbageOutputsTx())
    const [inline, hashed] = tx.body.outputs
    expect(inline?.format).toBe('map')
    expect(inline?.datum).toEqual({
      kind: 'inline',
      hash: datumHashHex(SPEND_DATUM),
      bytes: SPEND_DATUM
    })
    expect(inline?.scriptRef).toEqual({ language: 'PlutusV2', hash: scriptHash(V2_SCRIPT), bytes: V2_SCRIPT })
    expect(hashed).toMatchObject({ format: 'legacy', datum: { kind: 'hash', hash: datumHashHex(SPEND_DATUM) } })
    expect(hashed?.address.payment).toEqual({ type: 'script', hash: scriptHash(V2_SCRIPT) })
  })

  it('recognises certificate kinds, withdrawals, votes, proposals, treasury and donation', () => {
    const tx = decodeTransaction(governanceTx())
    const own = { type: 'key', hash: OWN.hash }
    expect(tx.body.certificates).toEqual([
      { kind: 'stake-registration', code: 0, credential: own },
      {
        kind: 'stake-delegation',
        code: 2,
        credential: { type: 'script', hash: scriptHash(V2_SCRIPT) },
        poolId: POOL_ID
      },
      { kind: 'registration', code: 7, credential: own, deposit: 2_000_000n },
      { kind: 'vote-delegation', code: 9, credential: own, drep: { type: 'abstain' } },
      {
        kind: 'drep-registration',
        code: 16,
        credential: own,
        deposit: 500_000_000n,
        anchor: { url: 'https://example.com/a.json', dataHash: ANCHOR_HASH }
      },
      { kind: 'unregistration', code: 8, credential: own, refund: 2_000_000n },
      { kind: 'pool-retirement', code: 4, poolId: POOL_ID, epoch: 300n }
    ])
    expect(tx.body.withdrawals.map((w) => [w.rewardAccount.kind, w.rewardAccount.stake?.type, w.amount])).toEqual([
      ['reward', 'key', 1_000_000n],
      ['reward', 'script', 2_000_000n]
    ])
    expect(tx.body.votingProcedures).toEqual([
      {
        voter: { kind: 'drep-key', hash: OWN.hash },
        votes: [
          {
            actionId: { txId: TX_E, index: 1 },
            vote: 'yes',
            anchor: { url: 'https://example.com/a.json', dataHash: ANCHOR_HASH }
          }
        ]
      },
      { voter: { kind: 'pool', hash: POOL_ID }, votes: [{ actionId: { txId: TX_E, index: 1 }, vote: 'abstain' }] }
    ])
    expect(tx.body.proposals).toHaveLength(1)
    expect(tx.body.proposals[0]).toMatchObject({ action: 'info', deposit: 100_000_000_000n })
    expect(tx.body.proposals[0]?.returnAccount.stake).toEqual(own)
    expect(tx.body.donation).toBe(5_000_000n)
    expect(tx.body.currentTreasuryValue).toBe(1_000_000_000_000n)
    expect(tx.witnessSet.redeemers.map((r) => [r.tag, r.index])).toEqual([
      ['reward', 0],
      ['cert', 1],
      ['vote', 0],
      ['propose', 0]
    ])
  })

  it('reads a Marlowe apply transaction as CSL does', () => {
    const bytes = marloweApplyTx(TX_A)
    const tx = decodeTransaction(bytes)
    sameSlicesAsCsl(bytes, tx)
    expect(tx.witnessSet.datums).toHaveLength(2)
    expect(tx.witnessSet.redeemers).toHaveLength(1)
    expect(txIdOf(bytes)).toBe(tx.id)
  })
})

describe('decodeTransaction: forms CSL does not write', () => {
  it('reads redeemers in the Babbage array form and a legacy output with a datum hash', () => {
    const hash = unhex('11'.repeat(32))
    const body = minimalBody()
    body[1] = [1, [[OWN_ADDRESS, 5, hash]]]
    const bytes = craft(body, {
      witnessSet: [[5, [[0, 0, { raw: SPEND_REDEEMER }, [10, 20]]]]]
    })
    const tx = decodeTransaction(bytes)
    expect(tx.body.outputs[0]?.datum).toEqual({ kind: 'hash', hash: hex(hash) })
    expect(tx.witnessSet.redeemerFormat).toBe('array')
    expect(tx.witnessSet.redeemers[0]).toMatchObject({ tag: 'spend', index: 0, exUnits: { mem: 10n, steps: 20n } })
    expect(tx.setTags).toEqual({ tagged: 1, untagged: 0 })
  })

  it('accepts indefinite-length containers and logs them', () => {
    const bytes = enc({
      indefinite: [
        {
          map: [
            [0, { indefinite: [[unhex(TX_A), 0]] }],
            [1, { indefinite: [[OWN_ADDRESS, 1]] }],
            [2, 1]
          ],
          indefinite: true
        },
        { map: [] },
        true,
        null
      ]
    })
    const tx = decodeTransaction(bytes)
    expect(tx.body.inputs).toEqual([{ txId: TX_A, index: 0 }])
    expect(tx.issues.counts['indefinite-length']).toBe(4)
    expect(tx.setTags).toEqual({ tagged: 0, untagged: 1 })
  })

  it('reads Alonzo-format auxiliary data with scripts and Allegra-format aux data', () => {
    const alonzo = craft(minimalBody(), {
      aux: {
        tag: 259,
        value: {
          map: [
            [0, { map: [[1, 'x']] }],
            [3, [V2_SCRIPT]]
          ]
        }
      }
    })
    const aux = decodeTransaction(alonzo).auxData
    expect(aux?.format).toBe('alonzo')
    expect(aux?.metadata).toEqual([{ label: 1n, value: { string: 'x' } }])
    expect(aux?.scripts.map((s) => s.language)).toEqual(['PlutusV2'])
    const allegra = craft(minimalBody(), { aux: [{ map: [[2, -5]] }, [[0, unhex(OWN.hash)]]] })
    const ma = decodeTransaction(allegra).auxData
    expect(ma?.format).toBe('shelley-ma')
    expect(ma?.metadata).toEqual([{ label: 2n, value: { int: -5n } }])
    expect(ma?.scripts[0]?.native).toEqual({ type: 'sig', keyHash: OWN.hash })
  })

  it('counts metadata strings over 64 bytes, and keeps unknown body keys', () => {
    const body = minimalBody()
    body.push([30, 'future'])
    const tx = decodeTransaction(craft(body, { aux: { map: [[674, 'x'.repeat(65)]] } }))
    expect(tx.auxData?.oversizedStrings).toBe(1)
    expect(tx.body.unknownKeys).toEqual([30n])
  })

  it('decodes nested native scripts', () => {
    const script = [
      1,
      [
        [0, unhex(OWN.hash)],
        [
          3,
          1,
          [
            [4, 10],
            [5, 20]
          ]
        ],
        [2, []]
      ]
    ]
    const tx = decodeTransaction(craft(minimalBody(), { witnessSet: [[1, [script]]] }))
    expect(tx.witnessSet.nativeScripts[0]?.native).toEqual({
      type: 'all',
      scripts: [
        { type: 'sig', keyHash: OWN.hash },
        {
          type: 'atLeast',
          required: 1n,
          scripts: [
            { type: 'after', slot: 10n },
            { type: 'before', slot: 20n }
          ]
        },
        { type: 'any', scripts: [] }
      ]
    })
    const csl = CSL.NativeScript.from_bytes(enc(script)).hash().to_hex()
    expect(tx.witnessSet.nativeScripts[0]?.hash).toBe(csl)
  })
})

describe('decodeTransaction: invalid transactions', () => {
  const withBody = (edit: (body: ReturnType<typeof minimalBody>) => void): Uint8Array => {
    const body = minimalBody()
    edit(body)
    return craft(body)
  }

  it.each<[string, () => Uint8Array, string]>([
    ['empty input', () => new Uint8Array(), 'unexpected end of input at byte 0'],
    ['not an array', () => enc({ map: [] }), 'transaction: expected an array, got a map at byte 0'],
    [
      'the pre-Alonzo format',
      () => enc([{ map: minimalBody() }, { map: [] }, null]),
      'a 3-item transaction is the pre-Alonzo (Shelley to Mary) format, which current nodes reject at byte 0'
    ],
    ['five items', () => enc([1, 2, 3, 4, 5]), 'transaction: expected an array of 4 items, got 5 at byte 0'],
    ['no fee', () => withBody((b) => b.pop()), 'the transaction body has no fee (key 2) at byte 1'],
    [
      'a text fee',
      () => withBody((b) => (b[2] = [2, 'x'])),
      'fee: expected an unsigned integer, got a text string at byte 83'
    ],
    [
      'a short transaction id',
      () => withBody((b) => (b[0] = [0, [[unhex('00'), 0]]])),
      'input 0 transaction id: expected 32 bytes, got 1 at byte 5'
    ],
    [
      'an address with an unknown network',
      () => withBody((b) => (b[1] = [1, [[unhex(`65${OWN.hash}`), 1]]])),
      'output 0 address: unknown network id 5 in the address header at byte 46'
    ],
    [
      'an address of the wrong length',
      () => withBody((b) => (b[1] = [1, [[unhex(`60${OWN.hash}00`), 1]]])),
      'output 0 address: an enterprise address must be 29 bytes, got 30 at byte 46'
    ],
    [
      'a legacy output with four items',
      () => withBody((b) => (b[1] = [1, [[OWN_ADDRESS, 1, 2, 3]]])),
      'output 0: a legacy output has 2 or 3 items, got 4 at byte 45'
    ],
    [
      'an asset name over 32 bytes',
      () =>
        withBody(
          (b) =>
            (b[1] = [1, [[OWN_ADDRESS, [1, { map: [[unhex('ab'.repeat(28)), { map: [[new Uint8Array(33), 1]] }]] }]]]])
        ),
      'output 0 value assets: an asset name must be a byte string of at most 32 bytes at byte 111'
    ],
    [
      'a body key that is text',
      () => withBody((b) => b.push(['x', 1])),
      'transaction body keys must be unsigned integers at byte 88'
    ],
    [
      'a bad validity flag',
      () => craft(minimalBody(), { isValid: null }),
      'transaction validity flag: expected a boolean, got null at byte 89'
    ],
    ['trailing bytes', () => Uint8Array.from([...craft(), 0]), '1 unexpected byte after the transaction at byte 91'],
    [
      'a redeemer with an unknown tag',
      () => craft(minimalBody(), { witnessSet: [[5, [[9, 0, 0, [1, 1]]]]] }),
      'redeemer tag: 9 is above 5 at byte 92'
    ],
    [
      'a datum that is not Plutus Data',
      () => craft(minimalBody(), { witnessSet: [[4, ['text']]] }),
      'datum: a text string is not Plutus Data at byte 91'
    ],
    [
      'an inline datum that is not Plutus Data',
      () =>
        withBody(
          (b) =>
            (b[1] = [
              1,
              [
                {
                  map: [
                    [0, OWN_ADDRESS],
                    [1, 1_000_000],
                    [2, [1, { tag: 24, value: unhex('9f01f4ff') }]]
                  ]
                }
              ]
            ])
        ),
      'output 0 datum (inline): a float or simple value is not Plutus Data at byte 92'
    ],
    [
      'metadata with a float',
      () => craft(minimalBody(), { aux: { map: [[1, { raw: unhex('f93c00') }]] } }),
      'metadata may not contain a float at byte 92'
    ]
  ])('rejects %s', (_, make, message) => {
    expect(rejection(make()).message).toBe(message)
  })

  it('reports the offset separately', () => {
    const error = rejection(withBody((b) => (b[2] = [2, 'x'])))
    expect(error.reason).toBe('fee: expected an unsigned integer, got a text string')
    expect(error.offset).toBe(83)
  })
})

describe('decodeTransaction: fuzz', () => {
  const samples = [paymentTx(), plutusSpendTx(), mintTx(), babbageOutputsTx(), governanceTx(), marloweApplyTx(TX_A)]

  const onlyTypedErrors = (bytes: Uint8Array): void => {
    try {
      decodeTransaction(bytes)
    } catch (e) {
      if (!(e instanceof TxDecodeError)) throw e
    }
  }

  it('random bytes give a TxDecodeError or a transaction, nothing else', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 400 }), onlyTypedErrors), { numRuns: 3000 })
  })

  it('single-byte mutations of real transactions', () => {
    fc.assert(
      fc.property(fc.nat(samples.length - 1), fc.nat(), fc.integer({ min: 0, max: 255 }), (which, at, byte) => {
        const bytes = samples[which]!.slice()
        bytes[at % bytes.length] = byte
        onlyTypedErrors(bytes)
      }),
      { numRuns: 4000 }
    )
  })

  it('length mutations: truncation, insertion and deletion', () => {
    fc.assert(
      fc.property(
        fc.nat(samples.length - 1),
        fc.nat(),
        fc.uint8Array({ maxLength: 4 }),
        fc.boolean(),
        (which, at, insert, cut) => {
          const base = samples[which]!
          const i = at % base.length
          const bytes = cut
            ? Uint8Array.from([...base.subarray(0, i), ...base.subarray(i + 1)])
            : Uint8Array.from([...base.subarray(0, i), ...insert, ...base.subarray(i)])
          onlyTypedErrors(bytes)
          onlyTypedErrors(base.subarray(0, i))
        }
      ),
      { numRuns: 2000 }
    )
  })
})
