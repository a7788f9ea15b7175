/**
 * Run-time checks of every answer: what the desk sends back must be what `src/api/contract.ts` declares, no more
 * (unknown keys are refused, so nothing the engine holds — a key, a password — can ride along in an answer by
 * mistake) and no less — to the leaves, the review (./review-schema.ts) and the contracts, transactions and payouts
 * (./contract-schemas.ts) included.
 */
import { z } from 'zod'
import {
  DESK_CALLS,
  type AwaitedAction,
  type DeskCall,
  type DeskResponse,
  type PreparedTx,
  type WalletSummary
} from '../../api/contract'
import { txReviewSchema as txReview } from './review-schema'
import {
  contractHeaderSchema,
  contractSchema,
  contractTxSchema,
  nextStepsSchema,
  payoutSchema
} from './contract-schemas'
import { count, hex, hexOf, jsonObject, outRef, policyId, quantity, sentence, txId, txStatus } from './schema-parts'
import { networkSchema, settingsSchema } from './settings-file'

const walletId = hexOf(20, 'a wallet id')
const txKind = z.enum(['create', 'apply', 'withdraw', 'burn'])
const vendor = z.enum(['ledger', 'trezor'])
const uuid = z.uuid()
const qrSequence = z.strictObject({
  parts: z.array(z.string().min(1)).min(1),
  fragments: z.int().min(1),
  payloadBytes: count
})

const walletSummary: z.ZodType<WalletSummary> = z.strictObject({
  id: walletId,
  name: z.string(),
  kind: z.enum(['mnemonic', 'watch-only', 'signing-key', 'hardware']),
  vendor: vendor.exactOptional(),
  locked: z.boolean(),
  locksAt: z.bigint().exactOptional(),
  address: z.string().min(1)
})

const assetBalance = z.strictObject({
  policyId,
  assetName: hex,
  displayName: z.string(),
  quantity
})
const funds = z.strictObject({ lovelace: quantity, assets: z.array(assetBalance) })
const heldFunds = z.strictObject({ count, lovelace: quantity, assets: z.array(assetBalance) })

const preparedTx: z.ZodType<PreparedTx> = z.strictObject({
  kind: txKind,
  txId,
  contractId: outRef.exactOptional(),
  review: txReview,
  cborHex: hex.min(2),
  safetyErrors: z.array(jsonObject)
})

const token = z.strictObject({ currencySymbol: policyId, tokenName: hex })
const awaited: z.ZodType<AwaitedAction> = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('deposit'),
    party: z.string().min(1),
    amount: quantity,
    token,
    before: z.bigint().exactOptional()
  }),
  z.strictObject({
    kind: z.literal('choice'),
    party: z.string().min(1),
    choiceName: z.string(),
    before: z.bigint().exactOptional()
  })
])

const appStatus = z.strictObject({
  version: z.string().min(1),
  network: networkSchema,
  tip: z.strictObject({ slot: z.bigint(), blockNo: z.bigint(), time: z.bigint() }).exactOptional(),
  chainTime: z.bigint(),
  offline: sentence.exactOptional()
})

const txState = z.strictObject({ txId, status: txStatus })
const exportedFile = z.strictObject({ fileName: z.string().min(1), text: z.string() })
const qrPayload = z.strictObject({ kind: z.enum(['bundle', 'witness']), txId, text: z.string() })

const settingsState = z.strictObject({
  settings: settingsSchema,
  localApi: z.strictObject({
    listening: z.boolean(),
    url: z.url().exactOptional(),
    token: z.string().min(1).exactOptional(),
    problem: sentence.exactOptional()
  }),
  networkFixed: sentence.exactOptional(),
  localApiFixed: sentence.exactOptional(),
  warning: sentence.exactOptional()
})

const deviceLine = z.union([
  z.strictObject({ label: z.string(), text: z.string() }),
  z.strictObject({ label: z.string(), lovelace: quantity })
])

const deviceSteps = z.strictObject({
  vendor,
  steps: z.array(z.strictObject({ title: z.string().min(1), lines: z.array(deviceLine) })),
  missing: z.array(hex)
})

type Schemas = { readonly [C in DeskCall]: z.ZodType<DeskResponse<C>, unknown> }

export const RESPONSE_SCHEMAS: Schemas = {
  'app.status': appStatus,
  'app.progress': z.array(
    z.strictObject({
      id: z.string().min(1),
      call: z.enum(DESK_CALLS as [DeskCall, ...DeskCall[]]),
      stage: sentence,
      startedAt: z.bigint(),
      step: z.int().min(1),
      steps: z.int().min(1).exactOptional()
    })
  ),
  'wallets.list': z.array(walletSummary),
  'wallets.create': z.strictObject({ wallet: walletSummary, mnemonic: z.array(z.string().min(1)).min(12) }),
  'wallets.restore': walletSummary,
  'wallets.watch': walletSummary,
  'wallets.addHardware': walletSummary,
  'wallets.unlock': walletSummary,
  'wallets.lock': walletSummary,
  'wallets.balance': z.strictObject({
    walletId,
    address: z.string().min(1),
    lovelace: quantity,
    assets: z.array(assetBalance),
    utxoCount: count,
    utxos: z.array(
      z.strictObject({
        ref: outRef,
        address: z.string().min(1),
        lovelace: quantity,
        assets: z.array(assetBalance),
        hasDatum: z.boolean()
      })
    ),
    available: funds,
    held: z.strictObject({ unsigned: heldFunds, submitted: heldFunds })
  }),
  'wallets.rename': walletSummary,
  'wallets.remove': z.strictObject({ walletId }),
  'wallets.changePassword': walletSummary,
  'wallets.exportPublic': z.strictObject({ accountKey: z.string().startsWith('acct_xvk1'), file: exportedFile }),
  'wallets.activity': z.strictObject({
    items: z.array(
      z.strictObject({
        txId,
        kind: txKind,
        contractId: outRef.exactOptional(),
        status: txStatus,
        origin: z.enum(['built', 'chain']),
        at: z.bigint()
      })
    ),
    total: count
  }),

  'sandbox.fund': z.strictObject({ txId }),
  'sandbox.advance': appStatus,

  'contracts.list': z.array(
    z.strictObject({
      header: contractHeaderSchema,
      closed: z.boolean(),
      nextTimeout: z.bigint().exactOptional(),
      awaiting: z.array(awaited).exactOptional(),
      parties: z.array(z.string().min(1)).exactOptional(),
      createdAt: z.bigint().exactOptional()
    })
  ),
  'contracts.get': z.strictObject({
    contract: contractSchema,
    transactions: z.array(contractTxSchema),
    nextTimeout: z.bigint().exactOptional(),
    parties: z.array(z.string().min(1)).exactOptional()
  }),
  'contracts.next': nextStepsSchema,
  'contracts.create': preparedTx,
  'contracts.apply': preparedTx,

  'payouts.list': z.array(payoutSchema),
  'payouts.withdraw': preparedTx,
  'roles.burnClosed': preparedTx,

  'tx.review': txReview,
  'tx.signAndSubmit': txState,
  'tx.status': txState,
  'tx.deviceSteps': deviceSteps,
  'tx.signWithDevice': txState,
  'tx.offlineDeviceSteps': deviceSteps,
  'tx.signOfflineWithDevice': exportedFile,
  'tx.keystoneRequest': z.strictObject({
    requestId: uuid,
    sequence: qrSequence,
    paths: z.array(z.string().regex(/^m(\/\d+'?)+$/, 'not a derivation path')),
    missing: z.array(hex)
  }),
  'tx.signWithKeystone': txState,
  'tx.exportUnsigned': exportedFile,
  'tx.exportBundle': exportedFile,
  'tx.import': z.strictObject({
    txId,
    known: z.boolean(),
    chainStatus: z.enum(['submitted', 'confirmed']).exactOptional(),
    review: txReview,
    cborHex: hex.min(2)
  }),
  'tx.signOffline': exportedFile,
  'tx.submitWitness': txState,
  'qr.encode': qrSequence,
  'qr.scan': z.strictObject({
    received: count,
    expected: count,
    percent: z.number().min(0).max(100),
    kind: z.enum(['bundle', 'witness']).exactOptional(),
    payload: qrPayload.exactOptional()
  }),
  'qr.scanKeystone': z.strictObject({
    received: count,
    expected: count,
    percent: z.number().min(0).max(100),
    signature: z.strictObject({ requestId: uuid, cbor: hex.min(2) }).exactOptional()
  }),
  'tx.resume': preparedTx,
  'tx.discard': z.strictObject({ txId }),

  'settings.get': settingsState,
  'settings.update': settingsState,
  'settings.testConnection': z.strictObject({ network: networkSchema, checks: z.array(sentence).min(1) })
}
