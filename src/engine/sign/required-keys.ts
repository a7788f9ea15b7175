/**
 * Which key hashes a transaction needs signatures from: the payment keys of the inputs and collateral it
 * spends (their addresses come from the chain or a review bundle), its required signers, the reward
 * accounts it withdraws from and the stake credentials its certificates use.
 */
import { CSL, withCsl, type CslScope } from '../csl'

export interface OutRef {
  readonly txId: string
  readonly index: number
}

export interface RequiredKeys {
  /** Key hashes (hex) that must sign, each with why. */
  readonly keys: ReadonlyMap<string, readonly string[]>
  /** Inputs and collateral whose address was not given: their signers are unknown. */
  readonly unresolved: readonly OutRef[]
  /** Certificates whose witnesses this analysis does not cover (pool and committee operations). */
  readonly uncoveredCertificates: number
}

/** The address (bech32) of each spent output we know, by `txId#index`. */
export type ResolvedAddresses = ReadonlyMap<string, string>

function keyHashOfCredential(scope: CslScope, credential: CSL.Credential): string | undefined {
  const hash = credential.to_keyhash()
  return hash === undefined ? undefined : scope.own(hash).to_hex()
}

function paymentKeyHash(scope: CslScope, bech32: string): string | undefined {
  const address = scope.own(CSL.Address.from_bech32(bech32))
  const payment = address.payment_cred()
  return payment === undefined ? undefined : keyHashOfCredential(scope, scope.own(payment))
}

const STAKE_CERTIFICATES: ReadonlyArray<
  (c: CSL.Certificate) => { stake_credential(): CSL.Credential; free(): void } | undefined
> = [
  (c) => c.as_stake_deregistration(),
  (c) => c.as_unreg_cert(),
  (c) => c.as_stake_delegation(),
  (c) => c.as_stake_and_vote_delegation(),
  (c) => c.as_stake_registration_and_delegation(),
  (c) => c.as_stake_vote_registration_and_delegation(),
  (c) => c.as_vote_delegation(),
  (c) => c.as_vote_registration_and_delegation()
]

export function requiredKeys(tx: Uint8Array, resolved: ResolvedAddresses): RequiredKeys {
  return withCsl((scope) => {
    const body = scope.own(scope.own(CSL.FixedTransaction.from_bytes(tx)).body())
    const keys = new Map<string, string[]>()
    const need = (hash: string | undefined, why: string): void => {
      if (hash === undefined) return
      const reasons = keys.get(hash) ?? []
      reasons.push(why)
      keys.set(hash, reasons)
    }
    const unresolved: OutRef[] = []
    const spend = (inputs: CSL.TransactionInputs | undefined, what: string): void => {
      if (inputs === undefined) return
      scope.own(inputs)
      for (let i = 0; i < inputs.len(); i++) {
        const input = scope.own(inputs.get(i))
        const ref = { txId: scope.own(input.transaction_id()).to_hex(), index: input.index() }
        const address = resolved.get(`${ref.txId}#${ref.index}`)
        if (address === undefined) unresolved.push(ref)
        else need(paymentKeyHash(scope, address), `${what} ${ref.txId}#${ref.index}`)
      }
    }
    spend(body.inputs(), 'input')
    spend(body.collateral(), 'collateral')
    const signers = body.required_signers()
    if (signers !== undefined) {
      scope.own(signers)
      for (let i = 0; i < signers.len(); i++) need(scope.own(signers.get(i)).to_hex(), 'required signer')
    }
    const withdrawals = body.withdrawals()
    if (withdrawals !== undefined) {
      scope.own(withdrawals)
      const accounts = scope.own(withdrawals.keys())
      for (let i = 0; i < accounts.len(); i++) {
        const account = scope.own(accounts.get(i))
        need(
          keyHashOfCredential(scope, scope.own(account.payment_cred())),
          `withdrawal from ${scope.own(account.to_address()).to_bech32()}`
        )
      }
    }
    let uncoveredCertificates = 0
    const certs = body.certs()
    if (certs !== undefined) {
      scope.own(certs)
      for (let i = 0; i < certs.len(); i++) {
        const cert = scope.own(certs.get(i))
        const registration = cert.as_reg_cert() ?? cert.as_stake_registration()
        if (registration !== undefined) {
          scope.own(registration)
          // Only the Conway registration, which carries its deposit, must be witnessed.
          const deposit = registration.coin()
          if (deposit !== undefined) {
            scope.own(deposit)
            need(keyHashOfCredential(scope, scope.own(registration.stake_credential())), `certificate ${i}`)
          }
          continue
        }
        const stake = STAKE_CERTIFICATES.map((as) => as(cert)).find((c) => c !== undefined)
        if (stake === undefined) {
          uncoveredCertificates += 1
          continue
        }
        scope.own(stake)
        need(keyHashOfCredential(scope, scope.own(stake.stake_credential())), `certificate ${i}`)
      }
    }
    return { keys, unresolved, uncoveredCertificates }
  })
}
