/** Mint, certificates, withdrawals and governance for display, each pointing at the redeemer that runs it. */
import { formatRef } from '../refs'
import type { DecodedTx, Withdrawal } from '../tx'
import { addressView, credentialView } from './address-view'
import { outRef, type ReviewEnv } from './env'
import { opt } from './optional'
import type { LedgerOrder } from './redeemer-targets'
import type { CertificateView, GovernanceView, MintView, RedeemerTarget, ScriptView, WithdrawalView } from './types'
import { assetNameText } from '../asset-name'

/** The position of the redeemer with a given target, if any. */
export type RedeemerFinder = (target: RedeemerTarget) => bigint | undefined

/** What a target is, as a string: redeemers are looked up by it in constant time. */
function targetKey(t: RedeemerTarget): string {
  switch (t.kind) {
    case 'input':
      return `input ${formatRef(t.ref)}`
    case 'mint':
      return `mint ${t.policyId}`
    case 'certificate':
    case 'proposal':
      return `${t.kind} ${t.index}`
    case 'withdrawal':
      return `withdrawal ${t.address}`
    case 'voter':
      return `voter ${t.voter.kind} ${t.voter.hash}`
    case 'missing':
      return 'missing'
  }
}

export function redeemerFinder(targets: readonly RedeemerTarget[]): RedeemerFinder {
  const positions = new Map<string, bigint>()
  targets.forEach((t, i) => {
    const key = targetKey(t)
    if (t.kind !== 'missing' && !positions.has(key)) positions.set(key, BigInt(i))
  })
  return (target) => positions.get(targetKey(target))
}

export function mintViews(
  env: ReviewEnv,
  tx: DecodedTx,
  scripts: readonly ScriptView[],
  rolesCurrencies: ReadonlySet<string>,
  redeemer: RedeemerFinder
): MintView[] {
  const languages = new Map(scripts.map((s) => [s.hash, s.language]))
  return tx.body.mint.map((policy) => {
    const policyName =
      env.policyName(policy.policyId) ??
      (rolesCurrencies.has(policy.policyId) ? 'Marlowe role tokens' : env.scriptName(policy.policyId))
    const language = languages.get(policy.policyId)
    return {
      policyId: policy.policyId,
      ...opt('policyName', policyName),
      known: policyName !== undefined,
      ...opt('language', language),
      assets: policy.assets.map((a) => ({
        assetName: a.assetName,
        ...opt('assetNameText', assetNameText(a.assetName)),
        quantity: a.quantity
      })),
      ...opt('redeemer', redeemer({ kind: 'mint', policyId: policy.policyId }))
    }
  })
}

export function certificateViews(env: ReviewEnv, tx: DecodedTx, redeemer: RedeemerFinder): CertificateView[] {
  return tx.body.certificates.map((cert, index) => {
    const { pool } = cert
    return {
      index: BigInt(index),
      kind: cert.kind,
      code: BigInt(cert.code),
      ...opt('credential', cert.credential === undefined ? undefined : credentialView(env, cert.credential)),
      ...opt('hotCredential', cert.hotCredential === undefined ? undefined : credentialView(env, cert.hotCredential)),
      ...opt('poolId', cert.poolId),
      ...opt('drep', cert.drep),
      ...opt('deposit', cert.deposit),
      ...opt('refund', cert.refund),
      ...opt('epoch', cert.epoch),
      ...opt('anchor', cert.anchor),
      ...opt('pool', pool === undefined ? undefined : { ...pool, rewardAccount: addressView(env, pool.rewardAccount) }),
      ...opt('redeemer', redeemer({ kind: 'certificate', index: BigInt(index) }))
    }
  })
}

/** Withdrawals in ledger order (the order reward redeemers count in). */
export function withdrawalViews(env: ReviewEnv, order: LedgerOrder, redeemer: RedeemerFinder): WithdrawalView[] {
  return order.withdrawals.map((w) => withdrawalView(env, w, redeemer))
}

function withdrawalView(env: ReviewEnv, w: Withdrawal, redeemer?: RedeemerFinder): WithdrawalView {
  const text = w.rewardAccount.text
  return {
    address: addressView(env, w.rewardAccount),
    amount: w.amount,
    ...opt('redeemer', redeemer?.({ kind: 'withdrawal', address: text }))
  }
}

export function governanceView(env: ReviewEnv, tx: DecodedTx, redeemer: RedeemerFinder): GovernanceView {
  const { body } = tx
  return {
    votes: body.votingProcedures.map(({ voter, votes }) => ({
      voter,
      votes: votes.map((v) => ({ ...v, actionId: outRef(v.actionId) })),
      ...opt('redeemer', redeemer({ kind: 'voter', voter }))
    })),
    proposals: body.proposals.map((p, index) => ({
      index: BigInt(index),
      deposit: p.deposit,
      returnAddress: addressView(env, p.returnAccount),
      action: p.action,
      anchor: p.anchor,
      ...opt('policyHash', p.policyHash),
      ...opt(
        'withdrawals',
        p.withdrawals?.map((w) => withdrawalView(env, w))
      ),
      ...opt('redeemer', redeemer({ kind: 'proposal', index: BigInt(index) }))
    })),
    ...opt('currentTreasuryValue', body.currentTreasuryValue),
    ...opt('donation', body.donation)
  }
}
