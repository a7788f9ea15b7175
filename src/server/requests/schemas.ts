/**
 * The shapes of every request body, wallet header set and query (runtime-api.md §3, §5; the service spec
 * where it differs). They check JSON shape only, as Runtime's aeson instances do; converting the values
 * into the engine's requests, with Runtime's DTO errors, is `bodies.ts`, `headers.ts` and `queries.ts`.
 * The OpenAPI components are generated from these same objects (`openapi.ts`).
 */
import { z } from 'zod'
import { decodeContract, decodeInputs, MarloweJsonError } from '../../core/marlowe/json'
import { OBJECT_TYPES } from '../../core/marlowe/object-bundle'
import type { Contract, Input } from '../../core/marlowe/types'
import { parseTxOutRef, TX_ID, TX_OUT_REF } from './ids'
import { describeInput, isObject } from './problems'
import { ISO_TIME_EXPECTED, parseIsoTime } from './time'
import { annotated, anyJson, branch, integer, map, named, optional, ownKeysOnly } from './wire'

const HEX = /^(?:[0-9a-fA-F]{2})*$/
const POLICY_ID = /^[0-9a-fA-F]{56}$/
const LABEL = /^(?:0|[1-9][0-9]*)$/
/** An absolute URI (scheme first), as network-uri's `parseURI` requires for token images and files. */
const URI = /^[A-Za-z][A-Za-z0-9+.-]*:\S*$/

const MAX_UINT64 = 2n ** 64n - 1n
/** The service spec's bound for `minUTxODeposit` (2^64 written as a double). */
const MAX_MIN_UTXO_DEPOSIT = 18446744073709552000n

const POLICY_WHAT = 'a policy id (56 hex digits)'
const REF_WHAT = 'a UTxO reference "<64 hex digits>#<output index>"'
const LABEL_WHAT = 'a metadata label (a decimal integer from 0 to 18446744073709551615)'

const text = (what = 'a string') => z.string({ error: what })
const described = <T extends z.ZodType>(schema: T, description: string) => annotated(schema, { description })

/** Runs a core decoder inside a transform, turning its path-carrying error into an issue at that path. */
function decoded<T>(ctx: z.core.$RefinementCtx, decode: () => T): T {
  try {
    return decode()
  } catch (e) {
    if (!(e instanceof MarloweJsonError)) throw e
    ctx.addIssue({ code: 'custom', message: e.reason, params: { where: e.path } })
    return z.NEVER
  }
}

const txOutRef = named(
  text(REF_WHAT)
    .regex(TX_OUT_REF, { error: REF_WHAT })
    .transform((s, ctx) => {
      const ref = parseTxOutRef(s, false)
      if (typeof ref !== 'string') return ref
      ctx.addIssue({ code: 'custom', message: ref })
      return z.NEVER
    }),
  'TxOutRef',
  'A transaction output: the transaction id and the output index joined by "#".'
)

const policyId = named(
  text(POLICY_WHAT).regex(POLICY_ID, { error: POLICY_WHAT }),
  'PolicyId',
  'A minting policy id: 28 bytes as hex.'
)

const address = named(text('a bech32 address'), 'Address', 'A Shelley address in bech32 ("addr…").')

const metadatum = named(
  anyJson({}),
  'Metadata',
  "Any JSON value, written as transaction metadata with cardano-api's no-schema mapping: integers, strings " +
    '(at most 64 bytes; "0x…" hex for bytes), arrays and objects.'
)

const tags = named(
  map(text(), metadatum, 'an object of tags'),
  'Tags',
  'Marlowe tags, written under metadata label 1564: tag → payload, or null for a tag without payload.'
)

const label = text(LABEL_WHAT)
  .regex(LABEL, { error: LABEL_WHAT })
  .refine((key) => !LABEL.test(key) || BigInt(key) <= MAX_UINT64, { error: LABEL_WHAT })

const transactionMetadata = named(
  map(label, metadatum, 'an object of metadata labels'),
  'TransactionMetadata',
  'Transaction metadata by label (a 64-bit unsigned integer written in decimal).'
)

const uri = text('a URI').regex(URI, { error: 'an absolute URI such as "ipfs://…" or "https://…"' })

export const tokenMetadataFile = named(
  ownKeysOnly(z.object({ name: text(), src: uri, mediaType: text() }, { error: 'an object' }).catchall(metadatum)),
  'TokenMetadataFile',
  'A file of a role token (CIP-25); other keys are written as they are.'
)

export const tokenMetadata = named(
  ownKeysOnly(
    z
      .object(
        {
          name: text(),
          image: uri,
          mediaType: optional(text()),
          description: optional(text()),
          files: optional(z.array(tokenMetadataFile, { error: 'an array of files' }))
        },
        { error: 'an object' }
      )
      .catchall(metadatum)
  ),
  'TokenMetadata',
  'CIP-25 metadata of a minted role token (label 721); other keys are written as they are.'
)

/** Mint quantities are int64 on the ledger. */
const MAX_MINT = 2n ** 63n - 1n
const QUANTITY_WHAT = 'a token quantity (an integer from 0 to 9223372036854775807)'

const recipients = described(
  map(text(), integer(0n, MAX_MINT, QUANTITY_WHAT), 'an object of recipients'),
  'Recipients of a minted role: "OpenRole" or a bech32 address → quantity. Zero quantities are dropped.'
)

const ROLE_TOKEN_CONFIG_WHAT =
  'a role token config (a bech32 address, "OpenRole", or an object with "recipients", "address" or "script")'

const roleTokenConfigObject = annotated(
  z
    .object(
      {
        recipients: optional(recipients),
        address: optional(address),
        script: optional(z.literal('OpenRole', { error: '"OpenRole"' })),
        metadata: optional(tokenMetadata)
      },
      { error: ROLE_TOKEN_CONFIG_WHAT }
    )
    .superRefine((config, ctx) => {
      if (config.recipients === undefined && config.address === undefined && config.script === undefined) {
        ctx.addIssue({ code: 'custom', message: 'expected one of the keys "recipients", "address" or "script"' })
      }
    }),
  { anyOf: [{ required: ['recipients'] }, { required: ['address'] }, { required: ['script'] }] }
)

export const roleTokenConfig = named(
  z.union([described(text(), 'A bech32 address that receives the one token, or "OpenRole".'), roleTokenConfigObject], {
    error: ROLE_TOKEN_CONFIG_WHAT
  }),
  'RoleTokenConfig',
  'Who receives a minted role token, and its optional metadata.'
)

function isOpenRoleForm(input: unknown): boolean {
  // Runtime tries the open-role form first and falls back to a mint map; keying on its fields gives the
  // errors of the form the client meant.
  if (!isObject(input)) return false
  const obj = input as Readonly<Record<string, unknown>>
  return obj.script === 'OpenRole' && (Object.hasOwn(obj, 'policyId') || Object.hasOwn(obj, 'openRoleNames'))
}

const openRoleConfig = described(
  z.object(
    {
      script: z.literal('OpenRole', { error: '"OpenRole"' }),
      policyId,
      openRoleNames: z.array(text(), { error: 'an array of role names' })
    },
    { error: 'an object' }
  ),
  'Roles of an existing policy; one token of each named role goes from the wallet to the open-role validator.'
)

const mintRoles = described(
  map(text(), roleTokenConfig, 'an object of role names'),
  'Roles to mint under a new one-shot policy: role name → role token config.'
)

export const rolesConfig = named(
  z.union(
    [
      policyId.transform((id) => ({ form: 'policy' as const, policyId: id })),
      branch(isOpenRoleForm, openRoleConfig).transform((open) => ({ form: 'open' as const, ...open })),
      branch((input) => isObject(input) && !isOpenRoleForm(input), mintRoles).transform((roles) => ({
        form: 'mint' as const,
        roles
      }))
    ],
    { error: 'a roles config (a policy id, an open-role config or an object of roles to mint)' }
  ),
  'RolesConfig',
  'The contract roles: a policy id whose tokens exist already, an open-role config, or roles to mint; ' +
    'absent or null for none.'
)

const amount = integer(undefined, undefined, 'an integer')

export const assets = named(
  z.object(
    {
      lovelace: amount,
      tokens: optional(
        map(
          text(POLICY_WHAT).regex(POLICY_ID, { error: POLICY_WHAT }),
          map(text(), amount, 'an object of token names'),
          'an object of policy ids'
        )
      )
    },
    { error: 'an object with "lovelace" and "tokens"' }
  ),
  'Assets',
  'Lovelace and native tokens (policy id → token name → quantity); `tokens` may be left out.'
)

const accounts = described(
  map(text(), assets, 'an object of accounts'),
  'Initial account balances: party (a bech32 address or a role name) → assets, all positive.'
)

const version = annotated(text(), { enum: ['v1'], description: 'The Marlowe language version.' })

type ContractOrSource = { readonly contract: Contract } | { readonly sourceId: string }

const contract = named(
  anyJson({ anyOf: [{ const: 'close' }, { type: 'object' }, { type: 'string', pattern: '^[0-9a-fA-F]{64}$' }] })
    // The path is fixed: `contract` is a top-level key of the one body that holds it.
    .transform((v, ctx): ContractOrSource => {
      if (typeof v === 'string' && v !== 'close') {
        if (TX_ID.test(v)) return { sourceId: v.toLowerCase() }
        ctx.addIssue({
          code: 'custom',
          message: `expected a Marlowe contract or a contract source id (64 hex digits), got ${describeInput(v)}`
        })
        return z.NEVER
      }
      return decoded(ctx, () => ({ contract: decodeContract(v, '$.contract') }))
    }),
  'Contract',
  'A Marlowe core v1 contract in its JSON form, or the 64-hex id of a contract in the contract store.'
)

const inputs = named(
  anyJson({ type: 'array', items: { description: 'A Marlowe core v1 input in its JSON form.' } }).transform(
    (v, ctx): Input[] => decoded(ctx, () => decodeInputs(v, '$.inputs'))
  ),
  'Inputs',
  'Marlowe inputs to apply; [] advances a contract past its timeouts.'
)

const isoTime = annotated(text(ISO_TIME_EXPECTED), {
  format: 'date-time',
  description: 'An ISO-8601 UTC time.'
}).transform((s, ctx) => {
  const ms = parseIsoTime(s)
  if (typeof ms === 'bigint') return ms
  ctx.addIssue({ code: 'custom', message: ms })
  return z.NEVER
})

const LOVELACE_WHAT = 'a lovelace amount from 0 to 18446744073709552000'

export const postContractsRequest = named(
  z.object(
    {
      version,
      threadTokenName: optional(text()),
      roles: optional(rolesConfig),
      accounts: optional(accounts),
      metadata: transactionMetadata,
      tags,
      contract,
      minUTxODeposit: optional(integer(0n, MAX_MIN_UTXO_DEPOSIT, LOVELACE_WHAT))
    },
    { error: 'an object' }
  ),
  'PostContractsRequest',
  'Build a transaction that creates a contract (POST /contracts).'
)

export const postTransactionsRequest = named(
  z.object(
    {
      version,
      inputs,
      tags,
      metadata: transactionMetadata,
      invalidBefore: optional(isoTime),
      invalidHereafter: optional(isoTime)
    },
    { error: 'an object' }
  ),
  'PostTransactionsRequest',
  'Build a transaction that applies inputs to a contract (POST /contracts/{contractId}/transactions).'
)

export const postWithdrawalsRequest = named(
  z.object({ payouts: z.array(txOutRef, { error: 'an array of payout references' }) }, { error: 'an object' }),
  'PostWithdrawalsRequest',
  'Build a transaction that withdraws payouts (POST /withdrawals).'
)

/**
 * Documentation only: the body is decoded by ./role-token-filter (Runtime's one-key objects and its errors), this
 * schema says the same for the OpenAPI document.
 */
const setOrSingle = <T extends z.ZodType>(item: T) => z.union([item, z.array(item)])
const roleTokenAssetId = z.strictObject({ policyId, assetName: z.string() })
type FilterShape = boolean | { readonly [key: string]: unknown }
export const roleTokenFilter: z.ZodType<FilterShape> = named(
  z.lazy(() =>
    z.union([
      z.boolean(),
      z.strictObject({ and: z.tuple([roleTokenFilter, roleTokenFilter]) }),
      z.strictObject({ or: z.tuple([roleTokenFilter, roleTokenFilter]) }),
      z.strictObject({ not: roleTokenFilter }),
      z.strictObject({ contract_id: setOrSingle(txOutRef) }),
      z.strictObject({ roles_currency: setOrSingle(policyId) }),
      z.strictObject({ role_tokens: setOrSingle(roleTokenAssetId) })
    ])
  ),
  'RoleTokenFilter',
  'Which role tokens of closed contracts to burn (POST /role-tokens/burnTxs): true (all), false (none), and/or of two filters, not, or the tokens of contracts, of roles currencies, or named tokens {policyId, assetName}.'
)

const HEX_WHAT = 'hex (an even number of hex digits)'

export const textEnvelope = named(
  z.object(
    {
      type: described(text(), 'The kind of CBOR: "Tx <era>" or "ShelleyTxWitness <era>", era BabbageEra or ConwayEra.'),
      description: text(),
      cborHex: text(HEX_WHAT).regex(HEX, { error: HEX_WHAT })
    },
    { error: 'an object' }
  ),
  'TextEnvelope',
  'A signed transaction or a witness set, as cardano-cli writes it; all three keys are required.'
)

const walletHeaderShape = {
  'X-Change-Address': described(text('a bech32 address'), 'Receives change; required.'),
  'X-Address': described(text().optional(), 'More wallet addresses, comma-separated.'),
  'X-Collateral-UTxO': described(text().optional(), 'Preferred collateral UTxOs "<txid>#<ix>", comma-separated.')
}

export const walletHeaders = named(z.object(walletHeaderShape), 'WalletHeaders', 'The wallet of a build request.')

export const createWalletHeaders = named(
  z.object({
    ...walletHeaderShape,
    'X-Stake-Address': described(text().optional(), 'A bech32 stake address for the contract script output.')
  }),
  'CreateContractHeaders',
  'The wallet of a create request, with the optional stake address.'
)

/** A query parameter that may repeat: Fastify gives a string once and an array after that. */
const repeated = (description: string) =>
  described(
    z.preprocess((v) => (typeof v === 'string' ? [v] : v), z.array(text(), { error: 'strings' })).optional(),
    description
  )

export const contractsQuery = named(
  z.object({
    roleCurrency: repeated('Roles policy ids (hex; "" for contracts without roles).'),
    tag: repeated('Tags.'),
    partyAddress: repeated('Bech32 addresses of parties.'),
    partyRole: repeated('Role tokens of parties, "<policyId>.<tokenName>".')
  }),
  'GetContractsQuery',
  'Filters of GET /contracts: repeated values of one kind are OR-ed, kinds are AND-ed (addresses OR roles).'
)

export const withdrawalsQuery = named(
  z.object({ roleCurrency: repeated('Roles policy ids (hex).') }),
  'GetWithdrawalsQuery',
  'Filters of GET /withdrawals.'
)

export const payoutsQuery = named(
  z.object({
    contractId: repeated('Contract ids "<txid>#<ix>" ("#" URL-encoded as %23).'),
    roleToken: repeated('Role tokens "<policyId>.<tokenName>".'),
    status: annotated(text().optional(), { enum: ['available', 'withdrawn'], description: 'Case-insensitive.' })
  }),
  'GetPayoutsQuery',
  'Filters of GET /payouts.'
)

export const nextQuery = named(
  z.object({
    validityStart: isoTime,
    validityEnd: isoTime,
    party: repeated('Parties to filter by: role names or bech32 addresses.')
  }),
  'GetNextQuery',
  'The validity interval and parties of GET /contracts/{contractId}/next.'
)

const OBJECT_TYPES_WHAT = `one of: ${OBJECT_TYPES.join(', ')}`

export const objectBundle = named(
  z.array(
    z.object(
      {
        label: text('a label (a string)'),
        type: z.enum(OBJECT_TYPES, { error: OBJECT_TYPES_WHAT }),
        value: anyJson({
          description:
            'The object as Marlowe core v1 JSON, where any value, observation, contract, party, token or action ' +
            'may instead be {"ref": "<label>"}, naming an object of that type defined before it.'
        })
      },
      { error: 'a labelled object {"label", "type", "value"}' }
    ),
    { error: 'an array of labelled objects' }
  ),
  'ObjectBundle',
  'A Marlowe object bundle (POST /contracts/sources): labelled objects, each defined before it is used. ' +
    'The body is one bundle, or several separated by newlines, linked in order as one.'
)

export const contractSourcesQuery = named(
  z.object({ main: text() }),
  'PostContractSourcesQuery',
  'The label of the main contract of the bundle.'
)

export const contractSourceQuery = named(
  z.object({
    expand: optional(
      annotated(z.enum(['true', 'false', '1', '0', ''], { error: 'expected true or false' }), {
        description: 'Inline every merkleized continuation (true), or answer the stored contract (false, the default).'
      })
    )
  }),
  'GetContractSourceQuery',
  'How GET /contracts/sources/{contractSourceId} answers the contract.'
)

// Path parameters and the Range header are parsed by hand (`ids.ts`, `range.ts`): these only document them.
named(
  text().regex(/^[a-fA-F0-9]{64}(?:#|%23)[0-9]+$/),
  'ContractIdParameter',
  'A contract id "<txid>#<ix>" in a URL path, with "#" URL-encoded as %23.'
)

named(text().regex(TX_ID), 'TxId', 'A transaction id: 64 hex digits.')

named(
  text().regex(/^[A-Za-z]+( [^;]*)?(;(limit|offset) [0-9]+|;order (asc|desc))*$/),
  'RangeHeader',
  'Range: <field> [<start value>][;limit <n>][;offset <n>][;order asc|desc]; defaults limit 100, offset 0, ' +
    'order desc. The start value may be URL-encoded.'
)
