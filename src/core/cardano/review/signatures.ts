/**
 * Which keys the transaction needs signatures from, as far as its decoded and resolved parts tell: required
 * signers, key-locked inputs and collateral, key-credential withdrawals, certificates and votes, and the keys a
 * native script demands outright. Bootstrap (Byron) witnesses are counted but not matched to keys.
 */
import type { Credential } from '../address'
import type { Certificate, DecodedTx, NativeScript } from '../tx'
import type { ReviewEnv } from './env'
import type { InputView, NeededSignature, SignatureReason, WitnessesView } from './types'

/** Certificate kinds whose credential must sign: all but the Shelley registration (kind 0). */
function certificateKeys(cert: Certificate): Credential[] {
  if (cert.code === 0) return []
  const keys: Credential[] = []
  if (cert.credential !== undefined) keys.push(cert.credential)
  if (cert.poolId !== undefined && (cert.code === 3 || cert.code === 4)) keys.push({ type: 'key', hash: cert.poolId })
  for (const owner of cert.pool?.owners ?? []) keys.push({ type: 'key', hash: owner })
  return keys
}

/** Keys a native script needs whatever branch is taken: a `sig`, or those under an `all`. */
function nativeScriptKeys(script: NativeScript): string[] {
  if (script.type === 'sig') return [script.keyHash]
  if (script.type === 'all') return script.scripts.flatMap(nativeScriptKeys)
  return []
}

export function witnessesView(
  env: ReviewEnv,
  tx: DecodedTx,
  inputs: readonly InputView[],
  collateral: readonly InputView[]
): WitnessesView {
  const needed = new Map<string, Set<SignatureReason>>()
  const need = (hash: string, reason: SignatureReason): void => {
    const reasons = needed.get(hash) ?? new Set<SignatureReason>()
    reasons.add(reason)
    needed.set(hash, reasons)
  }
  const needCredential = (credential: Credential | undefined, reason: SignatureReason): void => {
    if (credential?.type === 'key') need(credential.hash, reason)
  }
  const body = tx.body
  for (const hash of body.requiredSigners) need(hash, 'required-signer')
  for (const input of inputs) if (input.address?.kind !== 'byron') needCredential(input.address?.payment, 'input')
  for (const input of collateral)
    if (input.address?.kind !== 'byron') needCredential(input.address?.payment, 'collateral')
  for (const w of body.withdrawals) needCredential(w.rewardAccount.stake, 'withdrawal')
  for (const cert of body.certificates) for (const key of certificateKeys(cert)) needCredential(key, 'certificate')
  for (const { voter } of body.votingProcedures) {
    if (voter.kind === 'committee-key' || voter.kind === 'drep-key' || voter.kind === 'pool') need(voter.hash, 'vote')
  }
  for (const script of tx.witnessSet.nativeScripts) {
    if (script.native !== undefined) for (const key of nativeScriptKeys(script.native)) need(key, 'native-script')
  }
  const signedBy = new Set(tx.witnessSet.vkeys.map((w) => w.keyHash))
  const neededList: NeededSignature[] = [...needed].map(([keyHash, reasons]) => {
    const wallet = env.walletOfKey(keyHash)
    const entry = { keyHash, reasons: [...reasons], signed: signedBy.has(keyHash) }
    return wallet === undefined ? entry : { ...entry, wallet }
  })
  return {
    vkeys: tx.witnessSet.vkeys.map(({ vkey, keyHash }) => {
      const wallet = env.walletOfKey(keyHash)
      return wallet === undefined ? { vkey, keyHash } : { vkey, keyHash, wallet }
    }),
    bootstrapCount: BigInt(tx.witnessSet.bootstraps.length),
    needed: neededList
  }
}
