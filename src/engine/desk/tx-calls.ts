/**
 * `tx.*`: review a stored build or an imported file, sign with the keystore (the keys never leave it) and
 * submit through the service, export for an air-gapped machine and take its witness back.
 */
import type { DeskResponse, ExportedFile } from '../../api/contract'
import { bytesToHex } from '../../core/bytes'
import { stringifyBundle } from '../../core/cardano/bundle'
import { stringifyTextEnvelope } from '../../core/cardano/envelope'
import { ERAS, txEnvelopeType, witnessSetEnvelopeType, type Era } from '../../core/cardano/tx-envelope'
import { witnessSetBytes, type VkeyWitness } from '../../core/cardano/witnesses'
import type { LoadedTx } from '../offline-tx'
import type { TxRow } from '../../store/service-store'
import { safetyErrorsOf } from '../service'
import { assembleTransaction, readWitnessFile, signTransaction, type SignResult } from '../sign'
import { readImportedOffThread } from '../worker'
import { chainFacts, importedFacts, reviewBundleOf, seenOnChain } from './chain-facts'
import { notBuiltHere, type DeskContext } from './context'
import { deskFailure } from './errors'
import type { HandlersOf } from './handlers'
import type { StageFn } from './progress'

type TxCall =
  | 'tx.review'
  | 'tx.signAndSubmit'
  | 'tx.status'
  | 'tx.exportUnsigned'
  | 'tx.exportBundle'
  | 'tx.import'
  | 'tx.signOffline'
  | 'tx.submitWitness'
  | 'tx.resume'
  | 'tx.discard'

function eraOf(row: TxRow): Era {
  const era = ERAS.find((e) => e === row.era)
  if (era === undefined) throw deskFailure('Internal', 'CorruptStore', `transaction ${row.txId} has an unknown era`)
  return era
}

export function unsignedRow(row: TxRow): TxRow {
  if (row.status !== 'unsigned') {
    throw deskFailure('Conflict', 'AlreadySubmitted', `transaction ${row.txId} was already submitted (${row.status})`, {
      txId: row.txId,
      status: row.status
    })
  }
  if (row.discardedAt !== undefined) {
    throw deskFailure(
      'Conflict',
      'BuildDiscarded',
      'this build was discarded, so it can no longer be submitted: build it again',
      {
        txId: row.txId
      }
    )
  }
  if (row.supersededAt !== undefined) {
    throw deskFailure(
      'Conflict',
      'BuildSuperseded',
      'a newer build of the same wallet needed this one’s inputs, so it can no longer be submitted: build it again',
      { txId: row.txId }
    )
  }
  return row
}

const txFile = (name: string, era: Era, tx: Uint8Array): ExportedFile => ({
  fileName: name,
  text: stringifyTextEnvelope({ type: txEnvelopeType(era), description: 'Ledger Cddl Format', cbor: tx })
})

/** An offline signature's witnesses as the file carried back to the Desk that submits. */
export function witnessFile(loaded: LoadedTx, witnesses: readonly VkeyWitness[]): ExportedFile {
  return {
    fileName: `${loaded.txId}.witness.json`,
    text: stringifyTextEnvelope({
      type: witnessSetEnvelopeType(loaded.era),
      description: '',
      cbor: witnessSetBytes(witnesses)
    })
  }
}

/** Submits a signed build through the service, which checks it against the build and every signature. */
export async function submitSigned(ctx: DeskContext, row: TxRow, tx: Uint8Array): Promise<DeskResponse<'tx.status'>> {
  await ctx.service.submitBuild(row.txId, { tx })
  return { txId: row.txId, status: (await ctx.build(row.txId)).status }
}

/** The refusal of a device request for a wallet that holds none of the keys the transaction needs. */
export async function nothingToSign(ctx: DeskContext, walletId: string, txId: string): Promise<Error> {
  const { name } = await ctx.keystore.get(walletId)
  return deskFailure('Forbidden', 'NothingToSign', `wallet "${name}" holds none of the keys this transaction needs`, {
    walletId,
    txId
  })
}

/** The refusal of a signature that leaves keys unsigned: the rest is collected by exporting the transaction. */
export function missingSignatures(keys: readonly string[]): Error {
  return deskFailure(
    'Forbidden',
    'MissingSignatures',
    `the transaction also needs ${keys.length === 1 ? 'a signature' : 'signatures'} this wallet cannot make (key ${keys.join(', ')}); export it and collect the witness`,
    { missing: keys }
  )
}

export function txCalls(ctx: DeskContext): HandlersOf<TxCall> {
  const { keystore, service, provider, progress } = ctx

  /**
   * Signs with the wallet, unlocking it for this signature only when a password is given and it is locked;
   * a locked wallet without a password, or a watch-only one, is refused by the keystore.
   */
  async function signWith(
    walletId: string,
    password: string | undefined,
    stage: StageFn,
    sign: () => Promise<SignResult>
  ): Promise<SignResult> {
    const { name } = await keystore.get(walletId)
    const unlockHere = willUnlock(walletId, password)
    if (unlockHere) {
      stage('Unlocking the wallet')
      await keystore.unlock(walletId, password)
    }
    let result: SignResult
    try {
      result = await sign()
    } finally {
      if (unlockHere) keystore.lock(walletId)
    }
    if (result.witnesses.length === 0) {
      const message = `wallet "${name}" holds none of the keys this transaction needs`
      throw deskFailure('Forbidden', 'NothingToSign', message, { walletId, txId: result.txId })
    }
    return result
  }

  /** Whether signing unlocks the wallet first (one more, slow, step: the keystore's scrypt). */
  function willUnlock(walletId: string, password: string | undefined): password is string {
    return password !== undefined && !keystore.isUnlocked(walletId)
  }

  return {
    'tx.review': async ({ txId }) => {
      const row = await ctx.build(txId)
      return progress.run('tx.review', 'Reviewing the transaction', 1, () =>
        ctx.reviewOnChain(row.signedTx ?? row.unsignedTx)
      )
    },

    'tx.signAndSubmit': async ({ txId, walletId, password }) => {
      const row = unsignedRow(await ctx.build(txId))
      ctx.checkReviewed(row.txId)
      const steps = willUnlock(walletId, password) ? 5 : 4
      return progress.run('tx.signAndSubmit', 'Reading the wallet', steps, async (stage) => {
        const result = await signWith(walletId, password, stage, async () => {
          stage("Reading the transaction's inputs")
          const resolved = (await chainFacts(provider, row.unsignedTx)).resolvedInputs
          stage('Signing')
          return signTransaction({ tx: row.unsignedTx, walletId, keys: keystore, resolved })
        })
        if (result.missing.size > 0) throw missingSignatures([...result.missing.keys()])
        stage('Submitting to the node')
        return submitSigned(ctx, row, result.tx)
      })
    },

    'tx.status': async ({ txId }) => {
      const row = await ctx.store.tx(txId)
      if (row !== undefined) return { txId: row.txId, status: row.status }
      // Another Desk's transaction, imported here: the chain's word is all there is to follow it by.
      const seen = await seenOnChain(provider, txId)
      if (seen === undefined) throw notBuiltHere(txId)
      return { txId, status: seen }
    },

    'tx.exportUnsigned': async ({ txId }) => {
      const row = await ctx.build(txId)
      return txFile(`${row.txId}.unsigned.tx.json`, eraOf(row), row.unsignedTx)
    },

    'tx.exportBundle': async ({ txId }) => {
      const row = await ctx.build(txId)
      return progress.run('tx.exportBundle', "Reading the transaction's inputs", 2, async (stage) => {
        const { bundle } = await reviewBundleOf(
          provider,
          { tx: row.unsignedTx, era: eraOf(row) },
          Number(await ctx.chainTime())
        )
        stage('Writing the bundle')
        const text = stringifyBundle(bundle)
        return { fileName: `${row.txId}.bundle.json`, text }
      })
    },

    'tx.import': async ({ text }) => {
      const loaded = await readImportedOffThread(text)
      return progress.run('tx.import', "Reading the transaction's inputs", 2, async (stage) => {
        const facts = await importedFacts(provider, loaded)
        stage('Reviewing the transaction')
        const known = (await ctx.store.tx(loaded.txId)) !== undefined
        // Only this Desk's builds have a status here; another Desk's may already have gone out.
        const chainStatus = known ? undefined : await seenOnChain(provider, loaded.txId)
        return {
          txId: loaded.txId,
          known,
          ...(chainStatus === undefined ? {} : { chainStatus }),
          review: await ctx.review(loaded.tx, facts),
          cborHex: bytesToHex(loaded.tx)
        }
      })
    },

    'tx.signOffline': async ({ text, walletId, password }) => {
      const loaded = await readImportedOffThread(text)
      ctx.checkReviewed(loaded.txId)
      const steps = willUnlock(walletId, password) ? 3 : 2
      const result = await progress.run('tx.signOffline', "Reading the transaction's inputs", steps, async (stage) => {
        const resolved = (await importedFacts(provider, loaded))?.resolvedInputs ?? []
        return signWith(walletId, password, stage, () => {
          stage('Signing')
          return signTransaction({ tx: loaded.tx, walletId, keys: keystore, resolved })
        })
      })
      return witnessFile(loaded, result.witnesses)
    },

    'tx.submitWitness': async ({ txId, text }) => {
      const row = unsignedRow(await ctx.build(txId))
      const witnesses = readWitnessFile(new TextEncoder().encode(text), 'the witness file')
      const tx = assembleTransaction(row.unsignedTx, witnesses).tx
      return progress.run('tx.submitWitness', 'Submitting to the node', 1, () => submitSigned(ctx, row, tx))
    },

    'tx.resume': async ({ txId }) => {
      const row = unsignedRow(await ctx.build(txId))
      // Reviewed afresh: the chain may have moved since it was built.
      return progress.run('tx.resume', 'Reviewing the transaction', 1, () =>
        ctx.prepared(row.kind, {
          txId: row.txId,
          tx: row.unsignedTx,
          ...(row.contractId === undefined ? {} : { contractId: row.contractId }),
          safetyErrors: safetyErrorsOf(row)
        })
      )
    },

    'tx.discard': async ({ txId }) => {
      await ctx.build(txId)
      return { txId: (await service.discard(txId)).txId }
    }
  }
}
