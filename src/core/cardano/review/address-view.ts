/** Addresses for display: kind, network, credentials with their owners and known Marlowe script names. */
import type { Credential } from '../address'
import type { DecodedAddress } from '../tx'
import type { ReviewEnv } from './env'
import type { AddressView, CredentialView } from './types'

export function credentialView(env: ReviewEnv, credential: Credential): CredentialView {
  if (credential.type === 'key') {
    const wallet = env.walletOfKey(credential.hash)
    return wallet === undefined ? { ...credential } : { ...credential, wallet }
  }
  const scriptName = env.scriptName(credential.hash)
  return scriptName === undefined ? { ...credential } : { ...credential, scriptName }
}

export function addressView(env: ReviewEnv, address: DecodedAddress): AddressView {
  const wallet = env.walletOfAddress(address)
  const payment = address.payment === undefined ? undefined : credentialView(env, address.payment)
  const stake = address.stake === undefined ? undefined : credentialView(env, address.stake)
  const owner = wallet !== undefined ? 'own' : payment?.type === 'script' ? 'script' : 'foreign'
  return {
    text: address.text,
    kind: address.kind,
    networkId: BigInt(address.networkId),
    ...(payment === undefined ? {} : { payment }),
    ...(stake === undefined ? {} : { stake }),
    ...(address.pointer === undefined ? {} : { pointer: address.pointer }),
    owner,
    ...(wallet === undefined ? {} : { wallet }),
    ...(payment?.scriptName === undefined ? {} : { scriptName: payment.scriptName })
  }
}

/** A context address that could not be decoded: shown as given, owned only if listed verbatim. */
export function unreadableAddressView(text: string): AddressView {
  return { text, kind: 'unreadable', owner: 'foreign' }
}
