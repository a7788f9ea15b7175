/**
 * What the device will ask the user to confirm, in order, from the same decoded body its request was built
 * from: the app shows it beside Desk's own review so the two can be compared screen by screen. In the Plutus
 * signing mode both vendors show every output, the fee, the validity interval, the mint, the script data hash,
 * collateral and its return, required signers and reference inputs; then the keys they sign with.
 */
import type { DeviceStep, DeviceStepLine } from '../../api/contract'
import type { DecodedOutput, PolicyAssets } from '../../core/cardano/tx'
import { formatRef } from '../../core/cardano/refs'
import type { DeviceSigningPlan } from './device-signing'

function assetLines(assets: readonly PolicyAssets[]): DeviceStepLine[] {
  return assets.flatMap((p) =>
    p.assets.map((a) => ({
      label: `Token ${p.policyId}.${a.assetName === '' ? '(no name)' : a.assetName}`,
      text: a.quantity.toString()
    }))
  )
}

function outputLines(o: DecodedOutput): DeviceStepLine[] {
  return [
    { label: 'Address', text: o.address.text },
    { label: 'Amount', lovelace: o.value.coin },
    ...assetLines(o.value.multiAsset),
    ...(o.datum === undefined
      ? []
      : [{ label: o.datum.kind === 'hash' ? 'Datum hash' : 'Inline datum', text: o.datum.hash }])
  ]
}

function pathText(path: readonly number[]): string {
  return `m/${path.map((n) => (n >= 0x80000000 ? `${n - 0x80000000}'` : String(n))).join('/')}`
}

export function deviceSteps(plan: DeviceSigningPlan): DeviceStep[] {
  const { body } = plan.tx
  const steps: DeviceStep[] = [
    {
      title: 'Start signing a Plutus transaction',
      lines: [{ label: 'Network id', text: String(plan.context.network.networkId) }]
    }
  ]
  body.outputs.forEach((o, i) =>
    steps.push({ title: `Output ${i + 1} of ${body.outputs.length}`, lines: outputLines(o) })
  )
  steps.push({ title: 'Fee', lines: [{ label: 'Fee', lovelace: body.fee }] })
  const validity: DeviceStepLine[] = [
    ...(body.validityStart === undefined ? [] : [{ label: 'Valid from slot', text: body.validityStart.toString() }]),
    ...(body.ttl === undefined ? [] : [{ label: 'Valid until slot', text: body.ttl.toString() }])
  ]
  if (validity.length > 0) steps.push({ title: 'Validity interval', lines: validity })
  if (body.mint.length > 0) steps.push({ title: 'Mint', lines: assetLines(body.mint) })
  if (body.scriptDataHash !== undefined) {
    steps.push({ title: 'Script data hash', lines: [{ label: 'Hash', text: body.scriptDataHash }] })
  }
  if (body.collateral.length > 0) {
    steps.push({
      title: 'Collateral inputs',
      lines: body.collateral.map((c) => ({ label: 'Input', text: formatRef(c) }))
    })
  }
  if (body.requiredSigners.length > 0) {
    steps.push({ title: 'Required signers', lines: body.requiredSigners.map((h) => ({ label: 'Key hash', text: h })) })
  }
  if (body.collateralReturn !== undefined)
    steps.push({ title: 'Collateral return', lines: outputLines(body.collateralReturn) })
  if (body.totalCollateral !== undefined) {
    steps.push({ title: 'Total collateral', lines: [{ label: 'Amount', lovelace: body.totalCollateral }] })
  }
  if (body.referenceInputs.length > 0) {
    steps.push({
      title: 'Reference inputs',
      lines: body.referenceInputs.map((r) => ({ label: 'Input', text: formatRef(r) }))
    })
  }
  steps.push({
    title: 'Sign the transaction',
    lines: plan.context.witnessPaths.map((p) => ({ label: 'With the key at', text: pathText(p) }))
  })
  return steps
}
