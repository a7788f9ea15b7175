/**
 * The only place private keys are used: inside CSL, for the duration of one call, to make vkey witnesses.
 * What leaves is the witness CBOR, `[vkey, signature]`.
 */
import { CSL, withCsl, type CslScope } from '../../csl'
import { ROLE_INDEX, type KeyPath } from './derivation'
import type { SessionSecret } from './sessions'

/** One witness per path, in order, each signing `txBodyHash` (32 bytes) with that path's key. */
export function vkeyWitnesses(secret: SessionSecret, txBodyHash: Uint8Array, paths: readonly KeyPath[]): Uint8Array[] {
  return withCsl((scope) => {
    const hash = scope.own(CSL.TransactionHash.from_bytes(txBodyHash))
    return paths.map((path) => scope.own(CSL.make_vkey_witness(hash, privateKey(scope, secret, path))).to_bytes())
  })
}

/** The 32-byte public key of a single key: a 32-byte seed or a 64-byte extended secret. */
export function publicKeyOfSigningKey(signingKey: Uint8Array): Uint8Array {
  return withCsl((scope) => scope.own(signingKeyObject(scope, signingKey).to_public()).as_bytes())
}

function privateKey(scope: CslScope, secret: SessionSecret, path: KeyPath): CSL.PrivateKey {
  if (secret.kind === 'single-key') return signingKeyObject(scope, secret.signingKey)
  if (path.kind !== 'derived') throw new TypeError('an HD wallet signs with derived keys only')
  const account = scope.own(CSL.Bip32PrivateKey.from_bytes(secret.accountXprv))
  const chain = scope.own(account.derive(ROLE_INDEX[path.role]))
  return scope.own(scope.own(chain.derive(path.index)).to_raw_key())
}

function signingKeyObject(scope: CslScope, signingKey: Uint8Array): CSL.PrivateKey {
  return scope.own(
    signingKey.length === 32
      ? CSL.PrivateKey.from_normal_bytes(signingKey)
      : CSL.PrivateKey.from_extended_bytes(signingKey)
  )
}
