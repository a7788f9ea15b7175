/**
 * Run-time checks of every answer: what the desk sends back must be what `src/api/contract.ts` declares, no more
 * (unknown keys are refused, so nothing the engine holds — a key, a password — can ride along in an answer by
 * mistake) and no less. Runtime's resource JSON (contract states, headers, Next, payouts) is checked as a JSON
 * object: its own shape is the Runtime encoders' business and is tested there.
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
import type { TxReview } from '../../core/cardano/review'
import type { JsonObject } from '../../core/json/lossless'
import { networkSchema, settingsSchema } from './settings-file'

const hex = z.string().regex(/^([0-9a-f]{2})*$/, 'not lowercase hex')
const walletId = z.string().regex(/^[0-9a-f]{40}$/, 'not a wallet id (40 lowercase hex characters)')
const txId = z.string().regex(/^[0-9a-f]{64}$/, 'not a transaction id (64 lowercase hex characters)')
const outRef = z.string().regex(/^[0-9a-f]{64}#\d{1,5}$/, 'not an output reference (txid#index)')
const policyId = z.string().regex(/^([0-9a-f]{56})?$/, 'not a policy id (56 lowercase hex characters, or empty)')
const count = z.int().nonnegative()
const quantity = z.bigint()
const isObject = (v: unknown): boolean => v !== null && typeof v === 'object' && !Array.isArray(v)
const jsonObject = z.custom<JsonObject>(isObject, 'not a JSON object')
const sentence = z.string().min(1)
const txKind = z.enum(['create', 'apply', 'withdraw', 'burn'])
const txStatus = z.enum(['unsigned', 'submitted', 'confirmed'])
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

/**
 * The review's parts, each of its declared kind; their insides are the core review's own model, built and tested
 * there.
 */
const list = z.array(z.unknown())
const part = z.custom<object>(isObject, 'not an object')
const txReview = z.strictObject({
  txId,
  era: z.enum(['babbage', 'conway']),
  size: z.strictObject({ bytes: z.bigint(), max: z.bigint().exactOptional() }),
  isValid: z.boolean(),
  networkId: z.bigint().exactOptional(),
  fee: part,
  inputs: list,
  referenceInputs: list,
  collateral: part,
  outputs: list,
  mint: list,
  validity: part,
  certificates: list,
  withdrawals: list,
  governance: part,
  requiredSigners: list,
  witnesses: part,
  scripts: list,
  redeemers: list,
  datums: list,
  scriptDataHash: part,
  metadata: part.exactOptional(),
  netEffect: list,
  marlowe: part,
  encoding: part,
  warnings: z.array(
    z.strictObject({ code: z.string().min(1), severity: z.enum(['danger', 'warning', 'info']), message: sentence })
  )
}) as unknown as z.ZodType<TxReview>

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
  tip: z.strictObject({ slot: z.bigint(), blockNo: z.bigint(), time: z.bigint() }),
  chainTime: z.bigint()
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
      header: jsonObject,
      closed: z.boolean(),
      nextTimeout: z.bigint().exactOptional(),
      awaiting: z.array(awaited).exactOptional(),
      parties: z.array(z.string().min(1)).exactOptional(),
      createdAt: z.bigint().exactOptional()
    })
  ),
  'contracts.get': z.strictObject({
    state: jsonObject,
    transactions: z.array(jsonObject),
    nextTimeout: z.bigint().exactOptional(),
    parties: z.array(z.string().min(1)).exactOptional()
  }),
  'contracts.next': jsonObject,
  'contracts.create': preparedTx,
  'contracts.apply': preparedTx,

  'payouts.list': z.array(jsonObject),
  'payouts.withdraw': preparedTx,
  'roles.burnClosed': preparedTx,

  'tx.review': txReview,
  'tx.signAndSubmit': txState,
  'tx.status': txState,
  'tx.deviceSteps': z.strictObject({
    vendor,
    steps: z.array(z.strictObject({ title: z.string().min(1), lines: z.array(deviceLine) })),
    missing: z.array(hex)
  }),
  'tx.signWithDevice': txState,
  'tx.keystoneRequest': z.strictObject({
    requestId: uuid,
    sequence: qrSequence,
    paths: z.array(z.string().regex(/^m(\/\d+'?)+$/, 'not a derivation path')),
    missing: z.array(hex)
  }),
  'tx.signWithKeystone': txState,
  'tx.exportUnsigned': exportedFile,
  'tx.exportBundle': exportedFile,
  'tx.import': z.strictObject({ txId, known: z.boolean(), review: txReview, cborHex: hex.min(2) }),
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
