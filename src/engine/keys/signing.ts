/**
 * The only place private keys are used: inside CSL, for the duration of one call, to make vkey witnesses.
 * What leaves is the witness CBOR, `[vkey, signature]`; every copy of the keys CSL made is wiped afterwards.
 */
import { CSL, withSecretCsl, type SecretCslScope } from '../../csl'
import { ROLE_INDEX, type KeyPath } from './derivation'
import type { SessionSecret } from './sessions'

/** One witness per path, in order, each signing `txBodyHash` (32 bytes) with that path's key. */
export function vkeyWitnesses(secret: SessionSecret, txBodyHash: Uint8Array, paths: readonly KeyPath[]): Uint8Array[] {
  return withSecretCsl((scope) => {
    const hash = scope.own(CSL.TransactionHash.from_bytes(txBodyHash))
    return paths.map((path) => scope.own(CSL.make_vkey_witness(hash, privateKey(scope, secret, path))).to_bytes())
  })
}

/** The 32-byte public key of a single key: a 32-byte seed or a 64-byte extended secret. */
export function publicKeyOfSigningKey(signingKey: Uint8Array): Uint8Array {
  return withSecretCsl((scope) => scope.own(signingKeyObject(scope, signingKey).to_public()).as_bytes())
}

/** The key of `path`; each key on the way is registered as a secret (the session's own copy stays as it is). */
function privateKey(scope: SecretCslScope, secret: SessionSecret, path: KeyPath): CSL.PrivateKey {
  if (secret.kind === 'single-key') return signingKeyObject(scope, secret.signingKey)
  if (path.kind !== 'derived') throw new TypeError('an HD wallet signs with derived keys only')
  const account = scope.own(CSL.Bip32PrivateKey.from_bytes(scope.secret(new Uint8Array(secret.accountXprv))))
  const chain = scope.own(account.derive(ROLE_INDEX[path.role]))
  scope.secret(chain.as_bytes())
  const child = scope.own(chain.derive(path.index))
  scope.secret(child.as_bytes())
  return scope.own(child.to_raw_key())
}

function signingKeyObject(scope: SecretCslScope, signingKey: Uint8Array): CSL.PrivateKey {
  const own = scope.secret(new Uint8Array(signingKey))
  return scope.own(own.length === 32 ? CSL.PrivateKey.from_normal_bytes(own) : CSL.PrivateKey.from_extended_bytes(own))
}
