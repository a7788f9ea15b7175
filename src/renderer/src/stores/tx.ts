/**
 * The transaction under review (built here, or imported from a file), and what happens to it: signing,
 * submitting, its status until confirmed, and the offline files (unsigned tx, review bundle, witness).
 */
import { defineStore } from 'pinia'
import { ref, shallowRef } from 'vue'
import type {
  DeviceSteps,
  ExportedFile,
  KeystoneRequestShown,
  PreparedTx,
  QrSequence,
  TxKind,
  TxStatusName
} from '../../../api/contract'
import type { TxReview } from '../../../core/cardano/review'
import type { JsonObject } from '../../../core/json/lossless'
import { useDesk } from '../api/desk'
import { useWalletsStore } from './wallets'

export interface TxUnderReview {
  readonly source: 'built' | 'imported'
  readonly txId: string
  readonly review: TxReview
  /** The transaction's CBOR, hex (the Raw tab shows it). */
  readonly cborHex: string
  /** Whether the engine holds this build, so it can sign, submit and export it. */
  readonly known: boolean
  readonly kind?: TxKind
  readonly contractId?: string
  readonly safetyErrors: readonly JsonObject[]
  /** The imported file's text, which offline signing needs. */
  readonly fileText?: string
}

/** How often a submitted transaction's status is asked for. */
const STATUS_POLL_MS = 1500

export const useTxStore = defineStore('tx', () => {
  const desk = useDesk()
  const wallets = useWalletsStore()
  // Shallow: a review is replaced whole, never edited in place.
  const current = shallowRef<TxUnderReview | undefined>(undefined)
  const status = ref<TxStatusName | undefined>(undefined)
  /** The transaction `status` is about: the one under review, or one whose witness was just submitted. */
  const statusTxId = ref<string | undefined>(undefined)
  // Each new transaction or submit starts a new generation, which stops any earlier polling.
  let generation = 0

  function begin(tx: TxUnderReview): void {
    generation += 1
    current.value = tx
    statusTxId.value = tx.txId
    status.value = 'unsigned'
  }

  function showPrepared(p: PreparedTx): void {
    begin({
      source: 'built',
      txId: p.txId,
      review: p.review,
      cborHex: p.cborHex,
      known: true,
      kind: p.kind,
      safetyErrors: p.safetyErrors,
      ...(p.contractId === undefined ? {} : { contractId: p.contractId })
    })
  }

  /** An unsigned build picked up again (a draft on the contract list): reviewed afresh, then shown. */
  async function resume(txId: string): Promise<void> {
    showPrepared(await desk['tx.resume']({ txId }))
  }

  /** Gives up an unsigned build: its funds are free again, and it can no longer be signed. */
  async function discard(txId: string): Promise<void> {
    await desk['tx.discard']({ txId })
  }

  /**
   * A discarded build is no longer under review. Kept apart from `discard` so that the review screen can leave
   * first: clearing the review while it shows would unmount the screen before it could go back.
   */
  function forget(txId: string): void {
    if (current.value?.txId !== txId) return
    generation += 1
    current.value = undefined
    statusTxId.value = undefined
    status.value = undefined
  }

  async function importFile(text: string): Promise<void> {
    const imported = await desk['tx.import']({ text })
    begin({
      source: 'imported',
      txId: imported.txId,
      review: imported.review,
      cborHex: imported.cborHex,
      known: imported.known,
      safetyErrors: [],
      fileText: text
    })
    // Already gone out (a build of this Desk, or another Desk's the chain has seen): its status, not an offer to
    // sign it a second time.
    const now = imported.known ? (await desk['tx.status']({ txId: imported.txId })).status : imported.chainStatus
    // A later poll that fails leaves the last status on screen; the review itself stays.
    if (now !== undefined && now !== 'unsigned') void follow(imported.txId, now).catch(() => undefined)
  }

  function requireCurrent(): TxUnderReview {
    if (current.value === undefined) throw new Error('There is no transaction under review.')
    return current.value
  }

  /** Runs a signing call for `walletId`; a refusal because the wallet locked meanwhile shows it locked. */
  async function signing<T>(walletId: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call()
    } catch (e) {
      wallets.noteFailure(walletId, e)
      throw e
    }
  }

  async function signAndSubmit(password: string | undefined): Promise<void> {
    const tx = requireCurrent()
    const walletId = wallets.requireSelected().id
    const result = await signing(walletId, () =>
      desk['tx.signAndSubmit']({ txId: tx.txId, walletId, ...(password ? { password } : {}) })
    )
    await follow(result.txId, result.status)
  }

  /** What the selected hardware wallet will show, step by step: for a build Desk holds, or an imported file. */
  function deviceSteps(): Promise<DeviceSteps> {
    const tx = requireCurrent()
    const walletId = wallets.requireSelected().id
    return tx.known
      ? desk['tx.deviceSteps']({ txId: tx.txId, walletId })
      : desk['tx.offlineDeviceSteps']({ text: importedText(tx), walletId })
  }

  /** Signs the build on the selected hardware wallet; the engine checks and splices its witnesses and submits. */
  async function signWithDevice(): Promise<void> {
    const txId = requireCurrent().txId
    const result = await desk['tx.signWithDevice']({ txId, walletId: wallets.requireSelected().id })
    await follow(result.txId, result.status)
  }

  /** The build as a Keystone sign request for the selected wallet's account, under the Keystone's fingerprint. */
  function keystoneRequest(masterFingerprint: string): Promise<KeystoneRequestShown> {
    const txId = requireCurrent().txId
    return desk['tx.keystoneRequest']({ txId, walletId: wallets.requireSelected().id, masterFingerprint })
  }

  /** Submits the build with the Keystone's scanned signature, which the engine checks against the request first. */
  async function signWithKeystone(requestId: string, signature: string): Promise<void> {
    const txId = requireCurrent().txId
    const walletId = wallets.requireSelected().id
    const result = await desk['tx.signWithKeystone']({ txId, walletId, requestId, signature })
    await follow(result.txId, result.status)
  }

  async function submitWitness(txId: string, text: string): Promise<void> {
    const result = await desk['tx.submitWitness']({ txId, text })
    await follow(result.txId, result.status)
  }

  /** Asks for the status until the transaction is confirmed or another one takes its place. */
  async function follow(txId: string, first: TxStatusName): Promise<void> {
    const mine = ++generation
    statusTxId.value = txId
    status.value = first
    while (status.value !== 'confirmed') {
      await new Promise((resolve) => setTimeout(resolve, STATUS_POLL_MS))
      if (generation !== mine) return
      const next = await desk['tx.status']({ txId })
      if (generation !== mine) return
      status.value = next.status
    }
  }

  function exportUnsigned(): Promise<ExportedFile> {
    return desk['tx.exportUnsigned']({ txId: requireCurrent().txId })
  }

  function exportBundle(): Promise<ExportedFile> {
    return desk['tx.exportBundle']({ txId: requireCurrent().txId })
  }

  /** The review bundle as animated QR frames, for an offline Desk's camera. */
  async function bundleQr(): Promise<QrSequence> {
    const txId = requireCurrent().txId
    const bundle = await exportBundle()
    return desk['qr.encode']({ kind: 'bundle', txId, text: bundle.text })
  }

  /** A witness signed here as QR frames (one, usually), for the online Desk's camera. */
  function witnessQr(witness: ExportedFile): Promise<QrSequence> {
    return desk['qr.encode']({ kind: 'witness', txId: requireCurrent().txId, text: witness.text })
  }

  function importedText(tx: TxUnderReview): string {
    if (tx.fileText === undefined) throw new Error('Offline signing needs an imported transaction file.')
    return tx.fileText
  }

  /** Signs the imported file with the selected wallet, without any network: the witness file to carry back. */
  function signOffline(password: string | undefined): Promise<ExportedFile> {
    const text = importedText(requireCurrent())
    const walletId = wallets.requireSelected().id
    return signing(walletId, () => desk['tx.signOffline']({ text, walletId, ...(password ? { password } : {}) }))
  }

  /** Signs the imported file on the selected hardware wallet, without any network: the witness file. */
  function signOfflineWithDevice(): Promise<ExportedFile> {
    const text = importedText(requireCurrent())
    return desk['tx.signOfflineWithDevice']({ text, walletId: wallets.requireSelected().id })
  }

  return {
    current,
    status,
    statusTxId,
    showPrepared,
    resume,
    discard,
    forget,
    importFile,
    signAndSubmit,
    deviceSteps,
    signWithDevice,
    keystoneRequest,
    signWithKeystone,
    submitWitness,
    exportUnsigned,
    exportBundle,
    bundleQr,
    witnessQr,
    signOffline,
    signOfflineWithDevice
  }
})
