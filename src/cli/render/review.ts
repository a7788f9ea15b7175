/** The review model as terminal text: what the transaction does first, then the details a signer checks. */
import { formatRef } from '../../core/cardano/refs'
import { stringifyJson, type JsonValue } from '../../core/json/lossless'
import {
  unreadInputs,
  unreadInputsText,
  type AddressView,
  type InputView,
  type OutputView,
  type PartialWalletEffect,
  type TxReview,
  type ValueView
} from '../../core/cardano/review'
import { isoUtc } from '../../core/time'

export function formatAda(lovelace: bigint): string {
  const sign = lovelace < 0n ? '-' : ''
  const abs = lovelace < 0n ? -lovelace : lovelace
  return `${sign}${abs / 1_000_000n}.${(abs % 1_000_000n).toString().padStart(6, '0')} ada`
}

function value(v: ValueView): string {
  const assets = v.assets.map(
    (a) =>
      `${a.quantity} ${a.assetNameText ?? a.assetName}${a.policyName ? ` (${a.policyName})` : ` (${a.policyId.slice(0, 8)}…)`}`
  )
  return [formatAda(v.lovelace), ...assets].join(' + ')
}

function address(a: AddressView): string {
  const who = a.scriptName ?? (a.owner === 'own' ? `own${a.wallet ? `: ${a.wallet}` : ''}` : a.owner)
  return `${a.text} [${who}]`
}

function input(i: InputView): string {
  const ref = formatRef(i.ref)
  if (!i.resolved) return `${ref}  (not resolved: value and owner unknown)`
  return `${ref}  ${i.value ? value(i.value) : ''}  from ${i.address ? address(i.address) : '?'}`
}

function output(o: OutputView): string {
  const lines = [`#${o.index}  ${value(o.value)}  to ${address(o.address)}`]
  const content = o.datum?.content
  if (content?.type === 'marlowe-data')
    lines.push(
      `      Marlowe datum${content.nextTimeout === undefined ? '' : `, next deadline ${isoUtc(content.nextTimeout)}`}`
    )
  else if (content?.type === 'marlowe-payout') lines.push(`      payout for role "${content.role}"`)
  else if (o.datum !== undefined)
    lines.push(
      `      datum ${o.datum.form} ${o.datum.hash}${o.datum.source === 'missing' ? ' (contents not in the transaction)' : ''}`
    )
  return lines.join('\n')
}

function time(t: { slot: bigint; utc?: string } | undefined): string {
  if (t === undefined) return 'unbounded'
  return t.utc === undefined ? `slot ${t.slot}` : `${t.utc} (slot ${t.slot})`
}

function json(v: JsonValue): string {
  return stringifyJson(v)
}

/** Both sides as they are, no net: what the unread inputs hold (and whose they are) is unknown. */
function partialEffect(e: PartialWalletEffect, unread: string): string {
  const spent =
    e.spentKnown.lovelace === 0n && e.spentKnown.assets.length === 0 ? '' : `, spends ${value(e.spentKnown)}`
  return `${e.wallet}: unknown — ${unread} could not be read (review with a bundle); the outputs pay it ${value(e.received)}${spent}`
}

export function renderReview(r: TxReview): string {
  const out: string[] = []
  const section = (title: string, lines: readonly string[]): void => {
    if (lines.length > 0) out.push('', `${title}:`, ...lines.map((l) => `  ${l}`))
  }
  out.push(
    `Transaction ${r.txId} (${r.era}, ${r.size.bytes}${r.size.max === undefined ? '' : ` of ${r.size.max}`} bytes)`
  )
  out.push(`Fee: ${formatAda(r.fee.fee)}${r.fee.minimum === undefined ? '' : ` (minimum ${formatAda(r.fee.minimum)})`}`)
  out.push(`Valid from ${time(r.validity.start)} until ${time(r.validity.end)}`)
  const danger = r.warnings.filter((w) => w.severity === 'danger')
  section(
    'Warnings',
    r.warnings.map((w) => `${w.severity === 'danger' ? '!!' : w.severity === 'warning' ? '! ' : '- '} ${w.message}`)
  )
  section(
    'Net effect',
    r.netEffect.map((e) => {
      if (!e.complete) return partialEffect(e, unreadInputsText(unreadInputs(r)))
      const moves = [e.lovelace >= 0n ? `pays ${formatAda(e.lovelace)}` : `receives ${formatAda(-e.lovelace)}`]
      for (const a of e.assets)
        moves.push(
          `${a.quantity >= 0n ? 'sends' : 'receives'} ${a.quantity >= 0n ? a.quantity : -a.quantity} ${a.assetNameText ?? a.assetName}`
        )
      return `${e.wallet}: ${moves.join(', ')}`
    })
  )
  const m = r.marlowe
  section('Marlowe', [
    ...m.created.map(
      (c) => `opens a contract at output #${c.output}${c.rolesCurrency === '' ? '' : ` (roles ${c.rolesCurrency})`}`
    ),
    ...m.steps.flatMap((s) => {
      const head = `applies ${s.inputs.length === 0 ? 'no inputs (timeout or reduction)' : s.inputs.map(json).join(', ')} to ${formatRef(s.input)}`
      if (s.result.type === 'success') {
        return [
          head,
          ...s.result.payments.map((p) => `  pays ${json(p)}`),
          s.result.closes
            ? '  the contract closes'
            : `  the contract continues${s.result.continuationMatches === false ? ' — BUT the continuing datum does not match' : ''}`
        ]
      }
      return [
        head,
        s.result.type === 'error' ? `  FAILS: ${json(s.result.error)}` : `  not checked: ${s.result.reason}`
      ]
    }),
    ...m.withdrawals.map((w) => `withdraws the payout for role "${w.role ?? '?'}" from ${formatRef(w.input)}`)
  ])
  section('Inputs', r.inputs.map(input))
  section('Reference inputs', r.referenceInputs.map(input))
  section('Outputs', r.outputs.map(output))
  section(
    'Mint',
    r.mint.flatMap((p) =>
      p.assets.map(
        (a) =>
          `${a.quantity > 0n ? '+' : ''}${a.quantity} ${a.assetNameText ?? a.assetName} of ${p.policyName ?? p.policyId}${p.known ? '' : ' (unknown policy)'}`
      )
    )
  )
  section(
    'Collateral',
    r.collateral.inputs.length === 0
      ? []
      : [
          ...r.collateral.inputs.map(input),
          ...(r.collateral.atRisk === undefined ? [] : [`at risk if a script fails: ${formatAda(r.collateral.atRisk)}`])
        ]
  )
  section(
    'Scripts run',
    r.redeemers.map(
      (x) =>
        `${x.tag} #${x.index}: ${x.exUnits.mem} mem, ${x.exUnits.steps} steps${x.fee === undefined ? '' : ` (${formatAda(x.fee)})`}`
    )
  )
  section(
    'Script data hash',
    r.scriptDataHash.status === 'not-needed'
      ? []
      : [`${r.scriptDataHash.status}${r.scriptDataHash.reason ? `: ${r.scriptDataHash.reason}` : ''}`]
  )
  section(
    'Signatures',
    r.witnesses.needed.map(
      (n) =>
        `${n.keyHash} (${n.reasons.join(', ')}) ${n.signed ? 'signed' : n.wallet ? `to sign by ${n.wallet}` : 'MISSING'}`
    )
  )
  if (r.metadata?.messages) section('Message', [...r.metadata.messages])
  out.push(
    '',
    danger.length === 0
      ? 'No blocking problems found.'
      : `${danger.length} serious problem(s): read the warnings before signing.`
  )
  return out.join('\n')
}
