/**
 * Run-time checks of every request: what arrives over IPC or HTTP is whatever a page sent, so each call's
 * request is validated against its declared type before the desk sees it. Unknown keys are refused.
 */
import { z } from 'zod'
import { MAX_CONTRACT_LIST_PAGE, type DeskCall, type DeskRequest } from '../../api/contract'
import { networkNodeSchema, settingsSchema } from './settings-file'

const MAX_TEXT = 16 * 1024 * 1024
const MAX_FAUCET_ADA = 100_000n
const MAX_ACTIVITY_PAGE = 100

const walletId = z.string().regex(/^[0-9a-f]{40}$/, 'not a wallet id (40 lowercase hex characters)')
const txId = z
  .string()
  .regex(/^[0-9a-fA-F]{64}$/, 'not a transaction id (64 hex characters)')
  .transform((s) => s.toLowerCase())
const outRef = z
  .string()
  .regex(/^[0-9a-fA-F]{64}#\d{1,5}$/, 'not an output reference (txid#index)')
  .transform((s) => s.toLowerCase())
const name = z.string().max(256)
const password = z.string().max(1024)
const text = z.string().max(MAX_TEXT)
/** One frame read by the camera, for the scan the window named. */
const qrScan = z.strictObject({
  scanId: z.string().regex(/^[0-9a-zA-Z-]{1,64}$/, 'not a scan id'),
  part: z.string().max(8192)
})
const address = z.string().min(1).max(1024)
const nothing = z.strictObject({})

type Schemas = { readonly [C in DeskCall]: z.ZodType<DeskRequest<C>, unknown> }

export const REQUEST_SCHEMAS: Schemas = {
  'app.status': nothing,
  'app.progress': nothing,
  'wallets.list': nothing,
  'wallets.create': z.strictObject({
    name,
    password,
    words: z.union([z.literal(12), z.literal(15), z.literal(24)]).exactOptional()
  }),
  'wallets.restore': z.strictObject({ name, password, mnemonic: z.string().max(1024) }),
  'wallets.watch': z.strictObject({ name, accountKey: z.string().max(4096) }),
  'wallets.addHardware': z.strictObject({
    name,
    vendor: z.enum(['ledger', 'trezor']),
    accountIndex: z.number().int().min(0).max(0x7fffffff)
  }),
  'wallets.unlock': z.strictObject({ walletId, password }),
  'wallets.lock': z.strictObject({ walletId }),
  'wallets.balance': z.strictObject({ walletId }),
  'wallets.rename': z.strictObject({ walletId, name }),
  'wallets.remove': z.strictObject({ walletId, confirmName: name }),
  'wallets.changePassword': z.strictObject({ walletId, oldPassword: password, newPassword: password }),
  'wallets.exportPublic': z.strictObject({ walletId }),
  'wallets.activity': z.strictObject({
    walletId,
    offset: z.number().int().min(0).max(1_000_000),
    limit: z.number().int().min(1).max(MAX_ACTIVITY_PAGE)
  }),

  'sandbox.fund': z.strictObject({
    walletId,
    ada: z.bigint().min(1n, 'at least 1 ada').max(MAX_FAUCET_ADA, `at most ${MAX_FAUCET_ADA} ada at a time`)
  }),
  'sandbox.advance': z.strictObject({ toTime: z.bigint().nonnegative() }),

  'contracts.list': z.strictObject({
    walletId: walletId.exactOptional(),
    after: outRef.exactOptional(),
    limit: z.number().int().min(1).max(MAX_CONTRACT_LIST_PAGE).exactOptional()
  }),
  'contracts.get': z.strictObject({ contractId: outRef, walletId: walletId.exactOptional() }),
  'contracts.next': z.strictObject({ contractId: outRef, walletId: walletId.exactOptional() }),
  'contracts.create': z.strictObject({
    walletId,
    contractJson: text,
    roles: z.array(z.strictObject({ role: z.string().max(256), address })).max(1000),
    tags: z.array(z.string().min(1).max(256)).max(100),
    metadataJson: text.exactOptional(),
    minUTxODeposit: z.bigint().positive().exactOptional()
  }),
  'contracts.apply': z.strictObject({ walletId, contractId: outRef, inputsJson: text }),

  'payouts.list': z.strictObject({ walletId }),
  'payouts.withdraw': z.strictObject({ walletId, payoutIds: z.array(outRef).min(1).max(100) }),
  'roles.burnClosed': z.strictObject({ walletId }),

  'tx.review': z.strictObject({ txId }),
  'tx.signAndSubmit': z.strictObject({ txId, walletId, password: password.exactOptional() }),
  'tx.status': z.strictObject({ txId }),
  'tx.deviceSteps': z.strictObject({ txId, walletId }),
  'tx.signWithDevice': z.strictObject({ txId, walletId }),
  'tx.offlineDeviceSteps': z.strictObject({ text, walletId }),
  'tx.signOfflineWithDevice': z.strictObject({ text, walletId }),
  'tx.exportUnsigned': z.strictObject({ txId }),
  'tx.exportBundle': z.strictObject({ txId }),
  'tx.import': z.strictObject({ text }),
  'tx.signOffline': z.strictObject({ text, walletId, password: password.exactOptional() }),
  'tx.submitWitness': z.strictObject({ txId, text }),
  'qr.encode': z.strictObject({ kind: z.enum(['bundle', 'witness']), txId, text }),
  'tx.keystoneRequest': z.strictObject({
    txId,
    walletId,
    masterFingerprint: z.string().regex(/^[0-9a-fA-F]{8}$/, "not a master fingerprint (the Keystone's is 8 hex digits)")
  }),
  'tx.signWithKeystone': z.strictObject({
    txId,
    walletId,
    requestId: z.uuid('not a request id'),
    signature: z.string().regex(/^[0-9a-fA-F]{2,16384}$/, 'not a scanned Keystone signature (hex)')
  }),
  'qr.scan': qrScan,
  'qr.scanKeystone': qrScan,
  'tx.resume': z.strictObject({ txId }),
  'tx.discard': z.strictObject({ txId }),

  'settings.get': nothing,
  'settings.update': settingsSchema,
  'settings.testConnection': networkNodeSchema
}

/** The problems of a request, one readable line each (`path: what is wrong`). */
export function describeIssues(error: z.ZodError): { path: string; message: string }[] {
  return error.issues.map((issue) => ({
    path: issue.path.length === 0 ? 'request' : issue.path.map(String).join('.'),
    message: issue.message
  }))
}
