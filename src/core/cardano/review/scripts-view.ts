/**
 * The scripts a transaction carries or reaches (witness set, reference scripts of spent and referenced outputs,
 * auxiliary data), the script hashes it needs run, and from both the Plutus languages it uses — what the script
 * data hash's language views cover.
 */
import type { DecodedTx, ScriptLanguage } from '../tx'
import type { ReviewEnv } from './env'
import { contextScriptRefView } from './io-view'
import type { InputView, ScriptView } from './types'

export function scriptViews(
  env: ReviewEnv,
  tx: DecodedTx,
  inputs: readonly InputView[],
  referenceInputs: readonly InputView[]
): ScriptView[] {
  const views: ScriptView[] = []
  const push = (view: Omit<ScriptView, 'name'>): void => {
    const name = env.scriptName(view.hash)
    views.push(name === undefined ? view : { ...view, name })
  }
  const ws = tx.witnessSet
  for (const s of [...ws.nativeScripts, ...ws.plutusScripts]) {
    push({ hash: s.hash, language: s.language, size: BigInt(s.bytes.length), source: 'witness-set' })
  }
  const fromRefs = (list: readonly InputView[], source: ScriptView['source']): void => {
    for (const input of list) {
      const script = env.resolved(input.ref)?.scriptRef
      if (script === undefined) continue
      const view = contextScriptRefView(env, script)
      push({ hash: view.hash, language: view.language, size: view.size, source })
    }
  }
  fromRefs(inputs, 'input')
  fromRefs(referenceInputs, 'reference-input')
  for (const s of tx.auxData?.scripts ?? []) {
    push({ hash: s.hash, language: s.language, size: BigInt(s.bytes.length), source: 'auxiliary-data' })
  }
  return views
}

/** Script hashes whose scripts run: script-locked inputs (when resolved), policies, script credentials. */
export function neededScriptHashes(tx: DecodedTx, inputs: readonly InputView[]): Set<string> {
  const { body } = tx
  const needed = new Set<string>()
  for (const input of inputs) if (input.address?.payment?.type === 'script') needed.add(input.address.payment.hash)
  for (const policy of body.mint) needed.add(policy.policyId)
  for (const w of body.withdrawals) if (w.rewardAccount.stake?.type === 'script') needed.add(w.rewardAccount.stake.hash)
  for (const cert of body.certificates) if (cert.credential?.type === 'script') needed.add(cert.credential.hash)
  for (const { voter } of body.votingProcedures) {
    if (voter.kind === 'committee-script' || voter.kind === 'drep-script') needed.add(voter.hash)
  }
  for (const p of body.proposals) if (p.policyHash !== undefined) needed.add(p.policyHash)
  return needed
}

/** Plutus languages in use: every witness-set Plutus script, and the needed reference scripts. */
export function usedLanguages(scripts: readonly ScriptView[], needed: ReadonlySet<string>): Set<ScriptLanguage> {
  const languages = new Set<ScriptLanguage>()
  for (const s of scripts) {
    if (s.language === 'Native' || s.source === 'auxiliary-data') continue
    if (s.source === 'witness-set' || needed.has(s.hash)) languages.add(s.language)
  }
  return languages
}
