/**
 * Which era's format a transaction needs. Conway accepts Babbage-format transactions, so `conway` is reported
 * only for Conway-only features; Babbage-only features (update proposals, genesis delegation and MIR
 * certificates) make a transaction the Conway ledger rejects.
 */
import type { DecodedTx } from '../tx'

const CONWAY_FIRST_CERTIFICATE = 7
const GENESIS_DELEGATION = 5
const MIR = 6

export function conwayFeatures(tx: DecodedTx): string[] {
  const { body, witnessSet } = tx
  const features: string[] = []
  if (tx.setTags.tagged > 0) features.push('tagged sets')
  if (body.votingProcedures.length > 0) features.push('votes')
  if (body.proposals.length > 0) features.push('proposals')
  if (body.currentTreasuryValue !== undefined) features.push('treasury value')
  if (body.donation !== undefined) features.push('donation')
  if (body.certificates.some((c) => c.code >= CONWAY_FIRST_CERTIFICATE)) features.push('Conway certificates')
  if (witnessSet.redeemerFormat === 'map') features.push('redeemer map')
  if (witnessSet.redeemers.some((r) => r.tag === 'vote' || r.tag === 'propose')) features.push('governance redeemers')
  const v3 =
    witnessSet.plutusScripts.some((s) => s.language === 'PlutusV3') ||
    body.outputs.some((o) => o.scriptRef?.language === 'PlutusV3') ||
    (tx.auxData?.scripts ?? []).some((s) => s.language === 'PlutusV3')
  if (v3) features.push('Plutus V3')
  return features
}

export function preConwayFeatures(tx: DecodedTx): string[] {
  const features: string[] = []
  if (tx.body.hasUpdate) features.push('an update proposal (body key 6)')
  if (tx.body.certificates.some((c) => c.code === GENESIS_DELEGATION)) features.push('a genesis key delegation')
  if (tx.body.certificates.some((c) => c.code === MIR)) features.push('a MIR certificate')
  return features
}
