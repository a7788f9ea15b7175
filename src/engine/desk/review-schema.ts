/**
 * The review as the desk may send it, to its leaves: every part of `TxReview` (src/core/cardano/review/types.ts)
 * with its ids and hashes as lowercase hex, its enumerations closed, no key the model does not declare, and the
 * Marlowe JSON inside (datums, inputs, the semantics' results) read back by the core's own decoder. Hashes read
 * from the transaction are not held to their lengths: a hostile transaction's review must still be shown.
 */
import { z } from 'zod'
import { WARNING_CODES, type TxReview } from '../../core/cardano/review'
import type { Metadatum } from '../../core/cardano/tx'
import {
  hex,
  isoTime,
  jsonValue,
  marloweContract,
  marloweData,
  marloweInput,
  marlowePayment,
  marloweState,
  natural,
  quantity,
  sentence,
  txId
} from './schema-parts'

/** A hash or id read from the transaction (or from what it spends). */
const hash = hex
const index = natural
const outRef = z.strictObject({ txId: hash, index })
const ratio = z.strictObject({ numerator: quantity, denominator: z.bigint().positive() })
const scriptLanguage = z.enum(['Native', 'PlutusV1', 'PlutusV2', 'PlutusV3'])
const scriptName = z.enum(['marlowe-semantics', 'marlowe-payout', 'marlowe-open-role'])
const owner = z.enum(['own', 'foreign', 'script'])
const wallet = z.string().min(1)
const anchor = z.strictObject({ url: z.string(), dataHash: hash })
const redeemerIndex = natural.exactOptional()

const asset = z.strictObject({
  policyId: hash,
  assetName: hex,
  assetNameText: z.string().exactOptional(),
  quantity,
  policyName: z.string().exactOptional()
})
const value = z.strictObject({ lovelace: quantity, assets: z.array(asset) })

const credential = z.strictObject({
  type: z.enum(['key', 'script']),
  hash: hash,
  wallet: wallet.exactOptional(),
  scriptName: scriptName.exactOptional()
})

const address = z.strictObject({
  text: z.string().min(1),
  kind: z.enum(['base', 'pointer', 'enterprise', 'reward', 'byron', 'unreadable']),
  networkId: natural.exactOptional(),
  payment: credential.exactOptional(),
  stake: credential.exactOptional(),
  pointer: z.strictObject({ slot: natural, txIndex: natural, certIndex: natural }).exactOptional(),
  owner,
  wallet: wallet.exactOptional(),
  scriptName: scriptName.exactOptional()
})

const datumContent = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('marlowe-data'), marlowe: marloweData, nextTimeout: quantity.exactOptional() }),
  z.strictObject({ type: z.literal('marlowe-payout'), rolesCurrency: hash, role: z.string() }),
  z.strictObject({ type: z.literal('plutus-data'), json: jsonValue })
])

const datum = z.strictObject({
  form: z.enum(['hash', 'inline']),
  hash: hash,
  source: z.enum(['inline', 'witness-set', 'resolved', 'missing']),
  bytes: hex.min(2).exactOptional(),
  content: datumContent.exactOptional()
})

const scriptRef = z.strictObject({
  language: scriptLanguage,
  hash: hash,
  size: natural,
  name: scriptName.exactOptional()
})

const output = z.strictObject({
  index,
  format: z.enum(['legacy', 'map']),
  address,
  value,
  datum: datum.exactOptional(),
  scriptRef: scriptRef.exactOptional()
})

const input = z.strictObject({
  ref: outRef,
  resolved: z.boolean(),
  owner: z.enum(['own', 'foreign', 'script', 'unknown']),
  wallet: wallet.exactOptional(),
  address: address.exactOptional(),
  value: value.exactOptional(),
  datum: datum.exactOptional(),
  scriptRef: scriptRef.exactOptional(),
  redeemer: redeemerIndex
})

const drep = z.discriminatedUnion('type', [
  z.strictObject({ type: z.enum(['key', 'script']), hash: hash }),
  z.strictObject({ type: z.literal('abstain') }),
  z.strictObject({ type: z.literal('no-confidence') })
])

const certificate = z.strictObject({
  index,
  kind: z.enum([
    'stake-registration',
    'stake-deregistration',
    'stake-delegation',
    'pool-registration',
    'pool-retirement',
    'genesis-key-delegation',
    'move-instantaneous-rewards',
    'registration',
    'unregistration',
    'vote-delegation',
    'stake-vote-delegation',
    'stake-registration-delegation',
    'vote-registration-delegation',
    'stake-vote-registration-delegation',
    'committee-hot-key-authorization',
    'committee-cold-key-resignation',
    'drep-registration',
    'drep-unregistration',
    'drep-update'
  ]),
  code: natural,
  credential: credential.exactOptional(),
  hotCredential: credential.exactOptional(),
  poolId: hash.exactOptional(),
  drep: drep.exactOptional(),
  deposit: natural.exactOptional(),
  refund: natural.exactOptional(),
  epoch: natural.exactOptional(),
  anchor: anchor.exactOptional(),
  pool: z
    .strictObject({
      vrfKeyHash: hash,
      pledge: natural,
      cost: natural,
      margin: ratio,
      rewardAccount: address,
      owners: z.array(hash)
    })
    .exactOptional(),
  redeemer: redeemerIndex
})

const withdrawal = z.strictObject({ address, amount: natural, redeemer: redeemerIndex })

const voter = z.strictObject({
  kind: z.enum(['committee-key', 'committee-script', 'drep-key', 'drep-script', 'pool']),
  hash: hash
})

const governance = z.strictObject({
  votes: z.array(
    z.strictObject({
      voter,
      votes: z.array(
        z.strictObject({ actionId: outRef, vote: z.enum(['no', 'yes', 'abstain']), anchor: anchor.exactOptional() })
      ),
      redeemer: redeemerIndex
    })
  ),
  proposals: z.array(
    z.strictObject({
      index,
      deposit: natural,
      returnAddress: address,
      action: z.enum([
        'parameter-change',
        'hard-fork-initiation',
        'treasury-withdrawals',
        'no-confidence',
        'update-committee',
        'new-constitution',
        'info'
      ]),
      anchor,
      policyHash: hash.exactOptional(),
      withdrawals: z.array(withdrawal).exactOptional(),
      redeemer: redeemerIndex
    })
  ),
  currentTreasuryValue: natural.exactOptional(),
  donation: natural.exactOptional()
})

const witnesses = z.strictObject({
  vkeys: z.array(z.strictObject({ vkey: hex, keyHash: hash, wallet: wallet.exactOptional() })),
  bootstrapCount: natural,
  needed: z.array(
    z.strictObject({
      keyHash: hash,
      reasons: z.array(
        z.enum(['input', 'collateral', 'required-signer', 'withdrawal', 'certificate', 'vote', 'native-script'])
      ),
      signed: z.boolean(),
      wallet: wallet.exactOptional()
    })
  )
})

const redeemerTarget = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('input'), ref: outRef }),
  z.strictObject({ kind: z.literal('mint'), policyId: hash }),
  z.strictObject({ kind: z.literal('certificate'), index }),
  z.strictObject({ kind: z.literal('withdrawal'), address: z.string().min(1) }),
  z.strictObject({ kind: z.literal('voter'), voter }),
  z.strictObject({ kind: z.literal('proposal'), index }),
  z.strictObject({ kind: z.literal('missing') })
])

const redeemer = z.strictObject({
  tag: z.enum(['spend', 'mint', 'cert', 'reward', 'vote', 'propose']),
  index,
  target: redeemerTarget,
  exUnits: z.strictObject({ mem: natural, steps: natural }),
  fee: natural.exactOptional(),
  data: jsonValue,
  marloweInputs: z.array(marloweInput).exactOptional()
})

const timePoint = z.strictObject({ slot: natural, posixMs: quantity.exactOptional(), utc: isoTime.exactOptional() })
const interval = z.strictObject({ from: quantity, to: quantity })

const metadatum: z.ZodType<Metadatum> = z.lazy(() =>
  z.union([
    z.strictObject({ int: quantity }),
    z.strictObject({ bytes: hex }),
    z.strictObject({ string: z.string() }),
    z.strictObject({ list: z.array(metadatum) }),
    z.strictObject({ map: z.array(z.strictObject({ k: metadatum, v: metadatum })) })
  ])
)

const metadata = z.strictObject({
  format: z.enum(['shelley', 'shelley-ma', 'alonzo']),
  declaredHash: hash.exactOptional(),
  computedHash: hash,
  entries: z.array(z.strictObject({ label: natural, value: metadatum, json: jsonValue })),
  marlowe: z
    .strictObject({
      version: natural,
      tags: z.array(z.strictObject({ tag: z.string(), payload: jsonValue.exactOptional() })),
      continuations: z.string().exactOptional()
    })
    .exactOptional(),
  cip25: z
    .array(
      z.strictObject({
        policyId: hash,
        assetName: hex,
        assetNameText: z.string().exactOptional(),
        name: z.string().exactOptional(),
        image: z.string().exactOptional(),
        mediaType: z.string().exactOptional(),
        description: z.string().exactOptional()
      })
    )
    .exactOptional(),
  messages: z.array(z.string()).exactOptional(),
  scriptCount: natural
})

const marloweStep = z.strictObject({
  input: outRef,
  datumSource: z.enum(['resolved', 'witness-set', 'inferred']),
  rolesCurrency: hash.exactOptional(),
  inputs: z.array(marloweInput),
  interval: interval.exactOptional(),
  result: z.discriminatedUnion('type', [
    z.strictObject({
      type: z.literal('success'),
      payments: z.array(marlowePayment),
      warnings: z.array(jsonValue),
      state: marloweState,
      contract: marloweContract,
      closes: z.boolean(),
      nextTimeout: quantity.exactOptional(),
      continuingOutput: index.exactOptional(),
      continuationMatches: z.boolean().exactOptional()
    }),
    z.strictObject({ type: z.literal('error'), error: jsonValue }),
    z.strictObject({ type: z.literal('not-run'), reason: sentence })
  ])
})

const marlowe = z.strictObject({
  steps: z.array(marloweStep),
  created: z.array(
    z.strictObject({
      output: index,
      rolesCurrency: hash,
      nextTimeout: quantity.exactOptional()
    })
  ),
  withdrawals: z.array(
    z.strictObject({ input: outRef, rolesCurrency: hash.exactOptional(), role: z.string().exactOptional() })
  )
})

const netEffect = z.discriminatedUnion('complete', [
  z.strictObject({
    wallet,
    withdrawn: natural,
    complete: z.literal(true),
    lovelace: quantity,
    assets: z.array(asset)
  }),
  z.strictObject({
    wallet,
    withdrawn: natural,
    complete: z.literal(false),
    received: value,
    spentKnown: value
  })
])

const encoding = z.strictObject({
  setTags: z.enum(['all', 'none', 'mixed', 'no-sets']),
  issues: z.array(
    z.strictObject({
      kind: z.enum([
        'non-shortest-head',
        'indefinite-length',
        'unsorted-map-keys',
        'duplicate-map-key',
        'duplicate-set-element'
      ]),
      count: natural,
      offsets: z.array(natural),
      regions: z.array(z.enum(['body', 'witness-set', 'auxiliary-data', 'transaction']))
    })
  ),
  redeemerFormat: z.enum(['array', 'map']).exactOptional()
})

const warning = z.strictObject({
  code: z.enum(WARNING_CODES),
  severity: z.enum(['danger', 'warning', 'info']),
  message: sentence
})

export const txReviewSchema: z.ZodType<TxReview> = z.strictObject({
  txId,
  era: z.enum(['babbage', 'conway']),
  size: z.strictObject({ bytes: natural, max: natural.exactOptional() }),
  isValid: z.boolean(),
  networkId: natural.exactOptional(),
  fee: z.strictObject({
    fee: natural,
    minimum: natural.exactOptional(),
    scriptFee: natural.exactOptional(),
    referenceScriptFee: natural.exactOptional(),
    referenceScriptBytes: natural
  }),
  inputs: z.array(input),
  referenceInputs: z.array(input),
  collateral: z.strictObject({
    inputs: z.array(input),
    return: output.exactOptional(),
    total: natural.exactOptional(),
    atRisk: quantity.exactOptional(),
    required: natural.exactOptional()
  }),
  outputs: z.array(output),
  mint: z.array(
    z.strictObject({
      policyId: hash,
      policyName: z.string().exactOptional(),
      known: z.boolean(),
      language: scriptLanguage.exactOptional(),
      assets: z.array(z.strictObject({ assetName: hex, assetNameText: z.string().exactOptional(), quantity })),
      redeemer: redeemerIndex
    })
  ),
  validity: z.strictObject({
    start: timePoint.exactOptional(),
    end: timePoint.exactOptional(),
    marloweInterval: interval.exactOptional()
  }),
  certificates: z.array(certificate),
  withdrawals: z.array(withdrawal),
  governance,
  requiredSigners: z.array(z.strictObject({ keyHash: hash, signed: z.boolean(), wallet: wallet.exactOptional() })),
  witnesses,
  scripts: z.array(
    z.strictObject({
      hash: hash,
      language: scriptLanguage,
      size: natural,
      source: z.enum(['witness-set', 'reference-input', 'input', 'auxiliary-data']),
      name: scriptName.exactOptional()
    })
  ),
  redeemers: z.array(redeemer),
  datums: z.array(z.strictObject({ hash: hash, size: natural, usedBy: z.array(z.string()), content: datumContent })),
  scriptDataHash: z.strictObject({
    declared: hash.exactOptional(),
    computed: hash.exactOptional(),
    status: z.enum(['match', 'mismatch', 'missing', 'unexpected', 'not-checked', 'not-needed']),
    languages: z.array(scriptLanguage),
    reason: sentence.exactOptional()
  }),
  metadata: metadata.exactOptional(),
  netEffect: z.array(netEffect),
  marlowe,
  encoding,
  warnings: z.array(warning)
})
