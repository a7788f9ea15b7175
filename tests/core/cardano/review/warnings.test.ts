import { describe, expect, it } from 'vitest'
import { formatShelleyAddress } from '../../../../src/core/cardano/address'
import {
  reviewTransaction,
  unreadInputsText,
  type ReviewContext,
  type ReviewWarning,
  type WarningCode
} from '../../../../src/core/cardano/review'
import { encodeMarloweData } from '../../../../src/core/marlowe/plutus/marlowe-data'
import { unhex } from '../cbor/encode'
import { craft, minimalBody } from '../tx/craft'
import {
  COST_MODEL_V2,
  ERAS,
  FAKE_SEMANTICS,
  NFT_POLICY,
  OWN,
  SPEND_DATUM,
  SPEND_REDEEMER,
  TX_A,
  TX_B,
  TX_D,
  initialDatum,
  marloweApplyInputs,
  marloweApplyTx,
  mintTx,
  paymentInputs,
  paymentTx,
  plutusSpendInputs,
  plutusSpendTx,
  scriptHash,
  slotTime
} from '../tx/fixtures'

const utf8Hex = (s: string): string => Buffer.from(s, 'utf8').toString('hex')

function warningsOf(bytes: Uint8Array, context: ReviewContext = {}): readonly ReviewWarning[] {
  return reviewTransaction(bytes, context).warnings
}

function find(warnings: readonly ReviewWarning[], code: WarningCode): ReviewWarning {
  const found = warnings.find((w) => w.code === code)
  if (found === undefined) throw new Error(`no ${code} warning in ${warnings.map((w) => w.code).join(', ')}`)
  return found
}

const spendContext: ReviewContext = {
  resolvedInputs: plutusSpendInputs(),
  protocolParameters: { costModels: { PlutusV2: COST_MODEL_V2 } }
}

describe('validity warnings', () => {
  it('expired', () => {
    const w = find(warningsOf(paymentTx(), { eraSummaries: ERAS, now: slotTime(2000) }), 'expired')
    expect(w).toEqual({
      code: 'expired',
      severity: 'danger',
      message: `The transaction expired at ${new Date(Number(slotTime(1000))).toISOString()}: the node will reject it.`
    })
  })

  it('not yet valid', () => {
    const w = find(
      warningsOf(plutusSpendTx(), { ...spendContext, eraSummaries: ERAS, now: slotTime(50) }),
      'not-yet-valid'
    )
    expect(w.severity).toBe('warning')
  })

  it('far-future validity', () => {
    const body = minimalBody()
    body.push([3, 200_000])
    const w = find(warningsOf(craft(body), { eraSummaries: ERAS, now: slotTime(0) }), 'far-future-validity')
    expect(w.message).toMatch(/far in the future\.$/)
    expect(warningsOf(craft(body), { eraSummaries: ERAS, now: slotTime(190_000) }).map((x) => x.code)).not.toContain(
      'far-future-validity'
    )
  })

  it('no expiry', () => {
    expect(find(warningsOf(mintTx()), 'no-expiry').severity).toBe('info')
  })
})

describe('network warnings', () => {
  it('a network other than the node’s', () => {
    const w = find(warningsOf(plutusSpendTx(), { networkId: 1 }), 'network-mismatch')
    expect(w.message).toBe('The node is on network 1, but the body network id (network 0) belongs elsewhere.')
  })

  it('mixed networks', () => {
    const mainnet = formatShelleyAddress({ mainnet: true, payment: { type: 'key', hash: OWN.hash } })
    const w = find(warningsOf(paymentTx({ payTo: mainnet })), 'mixed-networks')
    expect(w.message).toBe('The transaction mixes networks: output 0 is on 1, output 1 is on 0.')
  })
})

describe('minting warnings', () => {
  it('an unknown policy, and burning own tokens', () => {
    const own = {
      ref: { txId: TX_B, index: 0 },
      address: OWN.enterprise,
      value: { lovelace: 5_000_000n, assets: { [NFT_POLICY]: { [utf8Hex('Old')]: 2n } } }
    }
    const warnings = warningsOf(mintTx(), { resolvedInputs: [own], wallets: [{ id: 'me', keyHashes: [OWN.hash] }] })
    expect(find(warnings, 'unknown-policy-mint').message).toBe(`Mints or burns under 1 unknown policy: ${NFT_POLICY}.`)
    expect(find(warnings, 'burns-own-tokens').message).toBe('Burns tokens from your wallet: Old.')
  })
})

describe('collateral warnings', () => {
  it('collateral holding tokens, with a return', () => {
    const inputs = plutusSpendInputs().map((u) =>
      u.ref.txId === TX_D ? { ...u, value: { lovelace: 5_000_000n, assets: { [NFT_POLICY]: { '': 1n } } } } : u
    )
    expect(
      find(warningsOf(plutusSpendTx(), { ...spendContext, resolvedInputs: inputs }), 'collateral-has-tokens')
    ).toEqual({
      code: 'collateral-has-tokens',
      severity: 'warning',
      message: 'Collateral inputs hold tokens.'
    })
  })

  it('collateral far above what the ledger requires', () => {
    const apply = marloweApplyTx(TX_A)
    const inputs = marloweApplyInputs(TX_A).map((u) =>
      u.ref.index === 8 ? { ...u, value: { lovelace: 10_000_000n, assets: {} } } : u
    )
    const w = find(
      warningsOf(apply, { resolvedInputs: inputs, protocolParameters: { collateralPercentage: 150 } }),
      'collateral-too-large'
    )
    expect(w.message).toBe(
      '10.000000 ada of collateral is at risk if a script fails (the ledger requires 1.500000 ada).'
    )
  })
})

describe('signature, fee and size warnings', () => {
  it('missing signatures', () => {
    const w = find(warningsOf(paymentTx({ keys: [] }), { resolvedInputs: paymentInputs() }), 'missing-signatures')
    expect(w.message).toBe(`Needs 1 signature this app does not hold: ${OWN.hash}.`)
    expect(
      warningsOf(paymentTx({ keys: [] }), {
        resolvedInputs: paymentInputs(),
        wallets: [{ id: 'me', keyHashes: [OWN.hash] }]
      }).map((x) => x.code)
    ).not.toContain('missing-signatures')
  })

  it('an unusually high fee, with and without parameters', () => {
    expect(find(warningsOf(paymentTx({ fee: 6_000_000n })), 'fee-unusually-high').message).toBe(
      'The fee is 6.000000 ada, unusually high.'
    )
    const w = find(
      warningsOf(paymentTx({ fee: 2_000_000n }), { protocolParameters: { minFeeA: 44n, minFeeB: 155_381n } }),
      'fee-unusually-high'
    )
    expect(w.message).toMatch(/^The fee is 2\.000000 ada, more than twice the 0\.17\d{4} ada the ledger asks\.$/)
  })

  it('a fee below the minimum, counting the signatures still to come', () => {
    const w = find(
      warningsOf(paymentTx(), { protocolParameters: { minFeeA: 44n, minFeeB: 1_000_000n } }),
      'fee-below-minimum'
    )
    expect(w.severity).toBe('danger')
    const unsigned = reviewTransaction(paymentTx({ keys: [] }), {
      resolvedInputs: paymentInputs(),
      protocolParameters: { minFeeA: 44n, minFeeB: 0n }
    })
    expect(unsigned.fee.minimum).toBe(44n * (unsigned.size.bytes + 101n))
  })

  it('a transaction over the size limit', () => {
    expect(find(warningsOf(paymentTx(), { protocolParameters: { maxTxSize: 100 } }), 'tx-too-large').message).toMatch(
      /^The transaction is \d+ bytes, over the 100-byte limit\.$/
    )
  })
})

describe('resolution, encoding and structure warnings', () => {
  it('unresolved inputs', () => {
    expect(find(warningsOf(paymentTx()), 'unresolved-inputs').message).toBe(
      '2 spent inputs could not be read: the values, owners and datums behind them are unknown. Review the transaction with its bundle to see them.'
    )
  })

  it('unread inputs are named by role, in one phrase', () => {
    expect(unreadInputsText({ spent: 3, collateral: 1, reference: 1 })).toBe(
      '3 spent inputs, 1 collateral input and 1 reference input'
    )
    expect(unreadInputsText({ spent: 1, collateral: 0, reference: 2 })).toBe('1 spent input and 2 reference inputs')
    expect(unreadInputsText({ spent: 0, collateral: 2, reference: 0 })).toBe('2 collateral inputs')
    expect(unreadInputsText({ spent: 0, collateral: 0, reference: 0 })).toBe('')
  })

  it('non-canonical encodings in the body', () => {
    const body = minimalBody()
    body[2] = [2, { wide: 200_000 }]
    const w = find(warningsOf(craft(body)), 'non-canonical-encoding')
    expect(w.message).toBe(
      'The body is not canonical CBOR (CIP-21: non-shortest-head); hardware wallets may refuse it.'
    )
    const mixed = minimalBody()
    mixed.push([14, [unhex(OWN.hash)]])
    expect(find(warningsOf(craft(mixed)), 'non-canonical-encoding').message).toContain('mixed set tags')
  })

  it('duplicate keys', () => {
    const body = minimalBody()
    body.push([2, 300_000])
    const review = reviewTransaction(craft(body))
    expect(find(review.warnings, 'duplicate-keys').severity).toBe('danger')
    expect(review.fee.fee).toBe(300_000n)
  })

  it('fields no era defines, and pre-Conway fields', () => {
    const body = minimalBody()
    body.push([6, [{ map: [] }, 1]], [30, 1])
    const warnings = warningsOf(craft(body))
    expect(find(warnings, 'unknown-fields').message).toBe('Fields no known era defines: body key 30.')
    expect(find(warnings, 'not-valid-in-conway').message).toBe(
      'The transaction carries an update proposal (body key 6) alongside Conway features, which the Conway ledger rejects.'
    )
  })

  it('a script data hash that does not match, or is missing, or has nothing to cover', () => {
    const wrongModel = { ...spendContext, protocolParameters: { costModels: { PlutusV2: [1n, 2n, 3n] } } }
    expect(find(warningsOf(plutusSpendTx(), wrongModel), 'script-data-hash-mismatch')).toEqual({
      code: 'script-data-hash-mismatch',
      severity: 'danger',
      message: 'The script data hash does not match the redeemers, datums and cost models.'
    })
    const missing = craft(minimalBody(), { witnessSet: [[4, [{ raw: SPEND_DATUM }]]] })
    expect(find(warningsOf(missing), 'script-data-hash-mismatch').message).toBe(
      'The transaction has redeemers or datums but no script data hash.'
    )
    const body = minimalBody()
    body.push([11, new Uint8Array(32)])
    expect(find(warningsOf(craft(body)), 'script-data-hash-mismatch').message).toBe(
      'The transaction has a script data hash but no redeemers or datums.'
    )
  })

  it('auxiliary data that does not match the body, and invalid metadata', () => {
    const aux = { map: [[674, 'x'.repeat(65)]] } as const
    const warnings = warningsOf(craft(minimalBody(), { aux }))
    expect(find(warnings, 'aux-data-hash-mismatch').message).toBe(
      'The auxiliary data does not match the body: the body does not declare its hash.'
    )
    expect(find(warnings, 'invalid-metadata').message).toBe(
      '1 metadata string is longer than 64 bytes, which the ledger rejects.'
    )
    const body = minimalBody()
    body.push([7, new Uint8Array(32)])
    expect(find(warningsOf(craft(body)), 'aux-data-hash-mismatch').message).toBe(
      'The auxiliary data does not match the body: no auxiliary data is attached.'
    )
  })

  it('scripts declared to fail', () => {
    expect(find(warningsOf(craft(minimalBody(), { isValid: false })), 'scripts-marked-failing').severity).toBe('danger')
  })

  it('a spent datum missing from the witness set', () => {
    const inputs = plutusSpendInputs().map((u) =>
      u.datumHash === undefined ? u : { ...u, datumHash: '00'.repeat(32) }
    )
    expect(
      find(warningsOf(plutusSpendTx(), { ...spendContext, resolvedInputs: inputs }), 'missing-datum').message
    ).toBe('1 datum is named by hash but missing from the witness set.')
  })

  it('a redeemer pointing at nothing', () => {
    const bytes = craft(minimalBody(), { witnessSet: [[5, [[0, 5, { raw: SPEND_REDEEMER }, [1, 1]]]]] })
    const review = reviewTransaction(bytes)
    expect(review.redeemers[0]?.target).toEqual({ kind: 'missing' })
    expect(find(review.warnings, 'redeemer-without-target').message).toBe(
      '1 redeemer points at nothing in the transaction.'
    )
  })

  it('a Marlowe transaction the validator will reject', () => {
    const bytes = marloweApplyTx(TX_A, { outputDatum: encodeMarloweData(initialDatum()) })
    const context: ReviewContext = {
      resolvedInputs: marloweApplyInputs(TX_A),
      eraSummaries: ERAS,
      marloweScripts: { [scriptHash(FAKE_SEMANTICS)]: 'marlowe-semantics' }
    }
    expect(find(warningsOf(bytes, context), 'marlowe-failure').severity).toBe('danger')
  })

  it('scripts not recognised as Marlowe (custom sandbox validators) say why the Marlowe section is absent', () => {
    const bytes = marloweApplyTx(TX_A, { outputDatum: encodeMarloweData(initialDatum()) })
    const read: ReviewContext = { resolvedInputs: marloweApplyInputs(TX_A), eraSummaries: ERAS }
    const unknown = reviewTransaction(bytes, read)
    expect(unknown.marlowe.steps).toEqual([])
    expect(find(unknown.warnings, 'scripts-not-marlowe')).toMatchObject({
      severity: 'info',
      message: expect.stringContaining('so there is no Marlowe section')
    })
    expect(find(warningsOf(plutusSpendTx(), spendContext), 'scripts-not-marlowe').severity).toBe('info')
    // Recognised: the Marlowe section is there, and no such note.
    const known = { ...read, marloweScripts: { [scriptHash(FAKE_SEMANTICS)]: 'marlowe-semantics' as const } }
    expect(reviewTransaction(bytes, known).marlowe.steps).toHaveLength(1)
    expect(warningsOf(bytes, known).map((w) => w.code)).not.toContain('scripts-not-marlowe')
    // Inputs unread: they may be what hides the scripts, which the unresolved-inputs warning says.
    const codes = warningsOf(bytes, { eraSummaries: ERAS }).map((w) => w.code)
    expect(codes).toContain('unresolved-inputs')
    expect(codes).not.toContain('scripts-not-marlowe')
  })
})
