/**
 * Keystone: a stored build shown as a `cardano-sign-request` for the account of a watch-only or hardware wallet,
 * and the `cardano-signature` scanned back, checked against the request this Desk showed, spliced and submitted.
 * The requests shown are kept here (a few, the oldest dropped first) so a signature is checked against the keys
 * its request named, not against whatever the window sends.
 */
import { hexToBytes } from '../../core/bytes'
import { keystoneSignRequest, spliceKeystoneSignature, type IssuedKeystoneRequest } from '../hardware'
import { urSequence } from '../qr-transfer'
import { chainFacts } from './chain-facts'
import type { DeskContext } from './context'
import { deskFailure } from './errors'
import type { HandlersOf } from './handlers'
import { missingSignatures, nothingToSign, submitSigned, unsignedRow } from './tx-calls'

type KeystoneCall = 'tx.keystoneRequest' | 'tx.signWithKeystone'

/** Requests kept: one per build under review, and a few shown again. */
const MAX_REQUESTS = 16

interface Shown extends IssuedKeystoneRequest {
  readonly txId: string
  readonly walletId: string
  readonly missing: readonly string[]
}

export function keystoneCalls(ctx: DeskContext): HandlersOf<KeystoneCall> {
  const { keystore, provider, progress } = ctx
  const shown = new Map<string, Shown>()

  return {
    'tx.keystoneRequest': async ({ txId, walletId, masterFingerprint }) => {
      const row = unsignedRow(await ctx.build(txId))
      const account = await keystore.signerAccount(walletId)
      const resolved = (await chainFacts(provider, row.unsignedTx)).resolvedInputs
      const request = await keystoneSignRequest({ tx: row.unsignedTx, account, masterFingerprint, resolved })
      if (request.signers.length === 0) throw await nothingToSign(ctx, walletId, txId)
      const missing = [...request.missing.keys()]
      shown.set(request.requestId, {
        requestId: request.requestId,
        signers: request.signers,
        txId: row.txId,
        walletId,
        missing
      })
      if (shown.size > MAX_REQUESTS) shown.delete(shown.keys().next().value!)
      return {
        requestId: request.requestId,
        sequence: urSequence(request.ur),
        paths: request.signers.map((s) => s.path),
        missing
      }
    },

    'tx.signWithKeystone': async ({ txId, walletId, requestId, signature }) => {
      const row = unsignedRow(await ctx.build(txId))
      ctx.checkReviewed(row.txId)
      const request = shown.get(requestId)
      if (request === undefined || request.txId !== row.txId || request.walletId !== walletId) {
        throw deskFailure(
          'BadRequest',
          'KeystoneUnknownRequest',
          `Request ${requestId} is not a Keystone sign request this Desk showed for this transaction and wallet: show the request again and scan its signature`,
          { requestId, txId: row.txId }
        )
      }
      if (request.missing.length > 0) throw missingSignatures(request.missing)
      return progress.run('tx.signWithKeystone', "Checking the Keystone's signature", 2, async (stage) => {
        const { tx } = spliceKeystoneSignature(row.unsignedTx, request, hexToBytes(signature))
        shown.delete(requestId)
        stage('Submitting to the node')
        return submitSigned(ctx, row, tx)
      })
    }
  }
}
