/**
 * The bad-input matrix: hundreds of malformed or refused requests over real HTTP against one server that holds
 * a confirmed contract, unsigned builds of every kind and a payout. Every answer must be the exact status and
 * errorCode in Runtime's error shape; afterwards the server still answers and the SQLite store is exactly as
 * the legitimate setup left it.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { bytesToHex } from '../../src/core/bytes'
import { formatShelleyAddress } from '../../src/core/cardano/address'
import { decodeTransaction } from '../../src/core/cardano/tx'
import { stringifyJson, type JsonObject, type JsonValue } from '../../src/core/json/lossless'
import { encodeInput } from '../../src/core/marlowe/json/encode'
import { buildTx } from '../chain/support/txkit'
import { sign, T0, testWallet } from '../engine/build/support'
import { witnessEnvelope } from '../engine/service/support'
import { stakeAddress } from './requests/support'
import {
  call,
  createBody,
  createConfirmed,
  expectApiError,
  objectOf,
  rawCall,
  startServer,
  storeDump,
  stringOf,
  unsignedTxOf,
  walletHeaders,
  type TestServer
} from './support'

const alice = testWallet('alice')
const bob = testWallet('bob')
const carol = testWallet('carol')
const dave = testWallet('dave')

const DAY = 86_400_000n
const ADA_TOKEN: JsonValue = { currency_symbol: '', token_name: '' }
const MAINNET_ADDRESS = formatShelleyAddress({ mainnet: true, payment: { type: 'key', hash: '44'.repeat(28) } })
const UNKNOWN_TX = 'e0'.repeat(32)
const UNKNOWN_REF = `${UNKNOWN_TX}#0`
const POLICY = 'ab'.repeat(28)
const VENDOR_CREATE = 'application/vendor.iog.marlowe-runtime.contract-tx-json'
const VENDOR_APPLY = 'application/vendor.iog.marlowe-runtime.apply-inputs-tx-json'
const VENDOR_WITHDRAW = 'application/vendor.iog.marlowe-runtime.withdraw-tx-json'
const OVERSIZE = 2 * 1024 * 1024 + 1

/** Ids and transactions of the legitimate setup that the bad requests aim at. */
interface Fixtures {
  /** A confirmed contract waiting for a Notify. */
  readonly open: string
  /** An unsigned create, and another one (for witnesses and txs of the wrong build). */
  readonly unsignedCreate: string
  readonly unsignedCreateTx: Uint8Array
  readonly otherCreateTx: Uint8Array
  /** An unsigned application of a Notify to `open`. */
  readonly unsignedApply: string
  readonly unsignedApplyTx: Uint8Array
  /** An available payout (of `paying`), and an unsigned withdrawal of it. */
  readonly paying: string
  readonly payout: string
  readonly unsignedWithdrawal: string
  readonly rolesCurrency: string
}

const enc = (ref: string): string => ref.replace('#', '%23')

interface Req {
  readonly method: string
  readonly path: string
  /** A JSON value is sent as lossless JSON; a string as it is. */
  readonly body?: JsonValue | string
  readonly headers?: Record<string, string | null>
  readonly token?: string | null
}

interface Case {
  readonly name: string
  readonly req: (f: Fixtures) => Req
  readonly status: number
  readonly code: string
  /** A pattern the message must match, where the case is about one message. */
  readonly message?: RegExp
}

const cases: Case[] = []
const add = (name: string, status: number, code: string, req: (f: Fixtures) => Req, message?: RegExp): void => {
  cases.push({ name, status, code, req, ...(message === undefined ? {} : { message }) })
}

// ---- request builders ------------------------------------------------------------------------------------------

const notifyContract = (timeout = T0 + 10n * DAY): JsonValue => ({
  when: [{ case: { notify_if: true }, then: 'close' }],
  timeout,
  timeout_continuation: 'close'
})
const NOTIFY = encodeInput({ content: { type: 'INotify' } })
const goodCreate = (): JsonObject => createBody(notifyContract())
const goodApply = (): JsonObject => ({ version: 'v1', inputs: [NOTIFY], tags: {}, metadata: {} })

const postCreate = (body: JsonValue | string, headers: Record<string, string | null> = {}): Req => ({
  method: 'POST',
  path: '/contracts',
  body,
  headers: { 'x-change-address': carol.address, ...headers }
})
const postApply = (
  f: Fixtures,
  body: JsonValue | string,
  headers: Record<string, string | null> = {},
  contract = enc(f.open)
): Req => ({
  method: 'POST',
  path: `/contracts/${contract}/transactions`,
  body,
  headers: { 'x-change-address': bob.address, ...headers }
})
const postWithdraw = (body: JsonValue | string, headers: Record<string, string | null> = {}): Req => ({
  method: 'POST',
  path: '/withdrawals',
  body,
  headers: { 'x-change-address': bob.address, ...headers }
})
const envelope = (type: string, cborHex: string, description = ''): JsonObject => ({ type, description, cborHex })

// ---- 1. malformed JSON (any JSON body endpoint) ----------------------------------------------------------------

const MALFORMED: ReadonlyArray<[string, string]> = [
  ['an unclosed object', '{'],
  ['a missing value', '{"version":}'],
  ['a trailing comma in an array', '[1,]'],
  ['a trailing comma in an object', '{"version":"v1",}'],
  ['single quotes', "{'version':'v1'}"],
  ['an unquoted key', '{version:"v1"}'],
  ['NaN', 'NaN'],
  ['Infinity', '{"minUTxODeposit":Infinity}'],
  ['a leading zero', '{"minUTxODeposit":01}'],
  ['a bare minus', '{"minUTxODeposit":-}'],
  ['an exponent without digits', '{"minUTxODeposit":1e}'],
  ['a fraction without digits', '{"minUTxODeposit":1.}'],
  ['an extra closing brace', '{"a":1}}'],
  ['text after the value', '{} x'],
  ['two values', '{} {}'],
  ['an unterminated string', '{"version":"v1'],
  ['a bad escape', '{"version":"\\x41"}'],
  ['a raw control character in a string', '{"version":"v\u00011"}'],
  ['a truncated \\u escape', '{"version":"\\u12"}'],
  ['nul', 'nul'],
  ['a lone comma', ','],
  ['whitespace only', '   '],
  ['the empty body', ''],
  ['nesting deeper than 1000 levels', `{"contract":${'['.repeat(1001)}${']'.repeat(1001)}}`],
  ['a comment', '{/* c */}']
]
for (const [name, text] of MALFORMED) {
  add(`POST /contracts: ${name}`, 400, 'RequestBodyParseError', () => postCreate(text))
}
for (const [name, text] of MALFORMED.slice(0, 6)) {
  add(`POST …/transactions: ${name}`, 400, 'RequestBodyParseError', (f) => postApply(f, text))
  add(`POST /withdrawals: ${name}`, 400, 'RequestBodyParseError', () => postWithdraw(text))
  add(`PUT /contracts/{id}: ${name}`, 400, 'RequestBodyParseError', (f) => ({
    method: 'PUT',
    path: `/contracts/${enc(f.unsignedCreate)}`,
    body: text
  }))
}

// ---- 2. POST /contracts: the body's shape (RequestBodyParseError) and values (BadRequest) ----------------------

const without = (key: string): JsonObject => {
  const { [key]: _dropped, ...rest } = goodCreate()
  return rest
}
const withCreate = (extra: JsonObject): JsonObject => ({ ...goodCreate(), ...extra })

const CREATE_SHAPES: ReadonlyArray<[string, JsonValue]> = [
  ['a null body', null],
  ['an array body', []],
  ['a string body', 'v1'],
  ['a number body', 1n],
  ['a boolean body', true],
  ['no version', without('version')],
  ['no contract', without('contract')],
  ['no tags', without('tags')],
  ['no metadata', without('metadata')],
  ['version 1 (a number)', withCreate({ version: 1n })],
  ['version null', withCreate({ version: null })],
  ['contract 5', withCreate({ contract: 5n })],
  ['contract null', withCreate({ contract: null })],
  ['contract "open" (neither close nor a source id)', withCreate({ contract: 'open' })],
  ['contract {}', withCreate({ contract: {} })],
  ['contract [] ', withCreate({ contract: [] })],
  ['a When without a timeout', withCreate({ contract: { when: [], timeout_continuation: 'close' } })],
  [
    'a When with a string timeout',
    withCreate({ contract: { when: [], timeout: 'soon', timeout_continuation: 'close' } })
  ],
  [
    'a Pay without a payee',
    withCreate({ contract: { pay: 1n, token: ADA_TOKEN, from_account: { role_token: 'A' }, then: 'close' } })
  ],
  [
    'a party that is neither address nor role',
    withCreate({
      contract: {
        when: [
          {
            case: { party: { nobody: 1n }, deposits: 1n, of_token: ADA_TOKEN, into_account: { role_token: 'A' } },
            then: 'close'
          }
        ],
        timeout: T0,
        timeout_continuation: 'close'
      }
    })
  ],
  [
    'a contract party with a bad bech32 address',
    withCreate({
      contract: {
        when: [
          {
            case: {
              party: { address: 'addr_test1qqqqqqqq' },
              deposits: 1n,
              of_token: ADA_TOKEN,
              into_account: { role_token: 'A' }
            },
            then: 'close'
          }
        ],
        timeout: T0,
        timeout_continuation: 'close'
      }
    })
  ],
  [
    'a payee address that is no bech32',
    withCreate({
      contract: {
        pay: 1n,
        token: ADA_TOKEN,
        from_account: { role_token: 'A' },
        to: { party: { address: 'not an address' } },
        then: 'close'
      }
    })
  ],
  [
    'a decimal deposit amount',
    '{"version":"v1","tags":{},"metadata":{},"contract":{"when":[{"case":{"party":{"role_token":"A"},"deposits":1.5,' +
      '"of_token":{"currency_symbol":"","token_name":""},"into_account":{"role_token":"A"}},"then":"close"}],' +
      '"timeout":1735689600000,"timeout_continuation":"close"}}'
  ],
  [
    'a deposit amount as a string',
    withCreate({
      contract: {
        when: [
          {
            case: {
              party: { role_token: 'A' },
              deposits: '1.5',
              of_token: ADA_TOKEN,
              into_account: { role_token: 'A' }
            },
            then: 'close'
          }
        ],
        timeout: T0,
        timeout_continuation: 'close'
      }
    })
  ],
  ['tags []', withCreate({ tags: [] })],
  ['tags "a"', withCreate({ tags: 'a' })],
  ['tags null', withCreate({ tags: null })],
  ['metadata []', withCreate({ metadata: [] })],
  ['metadata 5', withCreate({ metadata: 5n })],
  ['a metadata label that is not a number', withCreate({ metadata: { x: 1n } })],
  ['a negative metadata label', withCreate({ metadata: { '-1': 1n } })],
  ['a metadata label with a leading zero', withCreate({ metadata: { '01': 1n } })],
  ['a metadata label above 2^64-1', withCreate({ metadata: { '18446744073709551616': 1n } })],
  ['a "__proto__" tag', '{"version":"v1","contract":"close","tags":{"__proto__":null},"metadata":{},"accounts":{}}'],
  ['threadTokenName 5', withCreate({ threadTokenName: 5n })],
  ['threadTokenName []', withCreate({ threadTokenName: [] })],
  ['minUTxODeposit -1', withCreate({ minUTxODeposit: -1n })],
  ['minUTxODeposit 18446744073709552001', withCreate({ minUTxODeposit: 18446744073709552001n })],
  ['minUTxODeposit 2^65', withCreate({ minUTxODeposit: 2n ** 65n })],
  ['minUTxODeposit 1.5', '{"version":"v1","contract":"close","tags":{},"metadata":{},"minUTxODeposit":1.5}'],
  // aeson reads 2e6 as the integer 2000000, but 2e-1 is no integer.
  ['minUTxODeposit 2e-1', '{"version":"v1","contract":"close","tags":{},"metadata":{},"minUTxODeposit":2e-1}'],
  ['minUTxODeposit "2000000"', withCreate({ minUTxODeposit: '2000000' })],
  ['roles 5', withCreate({ roles: 5n })],
  ['roles []', withCreate({ roles: [] })],
  ['roles "zz" (not a policy id)', withCreate({ roles: 'zz' })],
  ['roles: a 27-byte policy id', withCreate({ roles: 'ab'.repeat(27) })],
  ['roles: a role config 5', withCreate({ roles: { Buyer: 5n } })],
  ['roles: a role config {}', withCreate({ roles: { Buyer: {} } })],
  ['roles: an address 5', withCreate({ roles: { Buyer: { address: 5n } } })],
  ['roles: script "Closed"', withCreate({ roles: { Buyer: { script: 'Closed' } } })],
  ['roles: a negative recipient quantity', withCreate({ roles: { Buyer: { recipients: { [alice.address]: -1n } } } })],
  ['roles: a quantity above 2^64-1', withCreate({ roles: { Buyer: { recipients: { [alice.address]: 2n ** 64n } } } })],
  ['roles: recipients []', withCreate({ roles: { Buyer: { recipients: [] } } })],
  [
    'roles: token metadata without image',
    withCreate({ roles: { Buyer: { script: 'OpenRole', metadata: { name: 'B' } } } })
  ],
  [
    'roles: a token image that is no URI',
    withCreate({ roles: { Buyer: { script: 'OpenRole', metadata: { name: 'B', image: 'not a uri' } } } })
  ],
  [
    'roles: files not an array',
    withCreate({ roles: { Buyer: { script: 'OpenRole', metadata: { name: 'B', image: 'ipfs://x', files: {} } } } })
  ],
  [
    'roles: open roles with a bad policy id',
    withCreate({ roles: { script: 'OpenRole', policyId: 'zz', openRoleNames: ['A'] } })
  ],
  ['roles: openRoleNames "A"', withCreate({ roles: { script: 'OpenRole', policyId: POLICY, openRoleNames: 'A' } })],
  ['roles: openRoleNames [1]', withCreate({ roles: { script: 'OpenRole', policyId: POLICY, openRoleNames: [1n] } })],
  ['accounts []', withCreate({ accounts: [] })],
  ['accounts: an account 5', withCreate({ accounts: { Buyer: 5n } })],
  ['accounts: an account without lovelace', withCreate({ accounts: { Buyer: {} } })],
  ['accounts: lovelace "5"', withCreate({ accounts: { Buyer: { lovelace: '5' } } })],
  [
    'accounts: lovelace 1.5',
    '{"version":"v1","contract":"close","tags":{},"metadata":{},"accounts":{"B":{"lovelace":1.5}}}'
  ],
  ['accounts: tokens []', withCreate({ accounts: { Buyer: { lovelace: 1n, tokens: [] } } })],
  ['accounts: a bad token policy id', withCreate({ accounts: { Buyer: { lovelace: 1n, tokens: { zz: { T: 1n } } } } })],
  [
    'accounts: a token quantity "1"',
    withCreate({ accounts: { Buyer: { lovelace: 1n, tokens: { [POLICY]: { T: '1' } } } } })
  ]
]
for (const [name, body] of CREATE_SHAPES) {
  add(`POST /contracts: ${name}`, 400, 'RequestBodyParseError', () => postCreate(body))
}

const CREATE_VALUES: ReadonlyArray<[string, JsonValue, string, RegExp]> = [
  ['version "v2"', withCreate({ version: 'v2' }), 'BadRequest', /^Unsupported Marlowe version/],
  ['version "V1"', withCreate({ version: 'V1' }), 'BadRequest', /^Unsupported Marlowe version/],
  ['version ""', withCreate({ version: '' }), 'BadRequest', /^Unsupported Marlowe version/],
  [
    'a metadata decimal',
    '{"version":"v1","contract":"close","tags":{},"metadata":{"1":1.5}}',
    'BadRequest',
    /^Invalid metadata value/
  ],
  [
    'a metadata integer above 2^64-1',
    withCreate({ metadata: { '1': 2n ** 64n } }),
    'BadRequest',
    /^Invalid metadata value/
  ],
  [
    'a metadata integer below -(2^64-1)',
    withCreate({ metadata: { '1': -(2n ** 64n) } }),
    'BadRequest',
    /^Invalid metadata value/
  ],
  [
    'a metadata string of 65 bytes',
    withCreate({ metadata: { '1': 'x'.repeat(65) } }),
    'BadRequest',
    /^Invalid metadata value/
  ],
  ['a metadata true', withCreate({ metadata: { '1': true } }), 'BadRequest', /^Invalid metadata value/],
  ['a metadata null', withCreate({ metadata: { '1': null } }), 'BadRequest', /^Invalid metadata value/],
  ['a metadata true in a list', withCreate({ metadata: { '1': [1n, true] } }), 'BadRequest', /^Invalid metadata value/],
  [
    'a metadata map value of 65 bytes',
    withCreate({ metadata: { '1': { k: 'v'.repeat(65) } } }),
    'BadRequest',
    /^Invalid metadata value/
  ],
  [
    'a tag payload decimal',
    '{"version":"v1","contract":"close","tags":{"t":2.5},"metadata":{}}',
    'BadRequest',
    /^Invalid tags value/
  ],
  ['a tag payload of 65 bytes', withCreate({ tags: { t: 'y'.repeat(65) } }), 'BadRequest', /^Invalid tags value/],
  ['a tag payload true', withCreate({ tags: { t: true } }), 'BadRequest', /^Invalid tags value/],
  ['roles {} (nothing to mint)', withCreate({ roles: {} }), 'BadRequest', /^Invalid roles value/],
  [
    'roles: a recipient that is no address',
    withCreate({ roles: { Buyer: 'nowhere' } }),
    'BadRequest',
    /^Invalid roles value/
  ],
  [
    'roles: a mainnet recipient',
    withCreate({ roles: { Buyer: MAINNET_ADDRESS } }),
    'BadRequest',
    /^Invalid roles value/
  ],
  [
    'roles: an address key that is no address',
    withCreate({ roles: { Buyer: { address: 'addr_test1xyz' } } }),
    'BadRequest',
    /^Invalid roles value/
  ],
  ['roles: no recipients', withCreate({ roles: { Buyer: { recipients: {} } } }), 'BadRequest', /^Invalid roles value/],
  [
    'roles: a recipient key that is no address',
    withCreate({ roles: { Buyer: { recipients: { somewhere: 1n } } } }),
    'BadRequest',
    /^Invalid roles value/
  ],
  [
    'roles: a token media type that is none',
    withCreate({
      roles: { Buyer: { script: 'OpenRole', metadata: { name: 'B', image: 'ipfs://x', mediaType: 'png' } } }
    }),
    'BadRequest',
    /^Invalid roles value/
  ],
  [
    'accounts: lovelace -1',
    withCreate({ accounts: { Buyer: { lovelace: -1n } } }),
    'BadRequest',
    /^Invalid initial accounts/
  ],
  [
    'accounts: an empty account',
    withCreate({ accounts: { Buyer: { lovelace: 0n } } }),
    'BadRequest',
    /^Invalid initial accounts/
  ],
  [
    'accounts: a token quantity 0',
    withCreate({ accounts: { Buyer: { lovelace: 0n, tokens: { [POLICY]: { T: 0n } } } } }),
    'BadRequest',
    /^Invalid initial accounts/
  ],
  [
    'accounts: a negative token quantity',
    withCreate({ accounts: { Buyer: { lovelace: 1n, tokens: { [POLICY]: { T: -3n } } } } }),
    'BadRequest',
    /^Invalid initial accounts/
  ],
  [
    'accounts: a mistyped address key',
    withCreate({ accounts: { addr_test1qqqq: { lovelace: 1n } } }),
    'BadRequest',
    /^Invalid initial accounts/
  ],
  [
    'accounts: a mainnet address key',
    withCreate({ accounts: { [MAINNET_ADDRESS]: { lovelace: 1n } } }),
    'BadRequest',
    /^Invalid initial accounts/
  ],
  [
    'accounts: a role name of 33 bytes',
    withCreate({ accounts: { ['R'.repeat(33)]: { lovelace: 1n } } }),
    'BadRequest',
    /^Invalid initial accounts/
  ],
  [
    'accounts: a token name of 33 bytes',
    withCreate({ accounts: { Buyer: { lovelace: 1n, tokens: { [POLICY]: { ['T'.repeat(33)]: 1n } } } } }),
    'BadRequest',
    /^Invalid initial accounts/
  ],
  ['a minUTxODeposit of 1 lovelace', withCreate({ minUTxODeposit: 1n }), 'InsufficientMinAdaDeposit', /./],
  [
    'a contract source id the store does not hold',
    withCreate({ contract: 'ab'.repeat(32) }),
    'ContractNotFound',
    /not found/
  ]
]
for (const [name, body, code, message] of CREATE_VALUES) {
  add(`POST /contracts: ${name}`, code === 'ContractNotFound' ? 404 : 400, code, () => postCreate(body), message)
}

// ---- 3. wallet headers (POST /contracts, …/transactions, /withdrawals) -----------------------------------------

const flipped = `${carol.address.slice(0, -1)}${carol.address.endsWith('q') ? 'p' : 'q'}`
const WALLET_HEADERS: ReadonlyArray<[string, Record<string, string | null>, RegExp]> = [
  ['no X-Change-Address', { 'x-change-address': null }, /^Invalid change address value/],
  ['a blank X-Change-Address', { 'x-change-address': '  ' }, /^Invalid change address value/],
  ['a non-bech32 X-Change-Address', { 'x-change-address': 'not-an-address' }, /^Invalid change address value/],
  ['an X-Change-Address with a bad checksum', { 'x-change-address': flipped }, /^Invalid change address value/],
  ['a mainnet X-Change-Address', { 'x-change-address': MAINNET_ADDRESS }, /^Invalid change address value/],
  ['a stake address as X-Change-Address', { 'x-change-address': stakeAddress(false) }, /^Invalid change address value/],
  ['a hex X-Change-Address', { 'x-change-address': '00'.repeat(57) }, /^Invalid change address value/],
  ['an X-Address with a bad item', { 'x-address': `${alice.address},nope` }, /^Invalid addresses header value/],
  [
    'an X-Address with an empty item',
    { 'x-address': `${alice.address},,${bob.address}` },
    /^Invalid addresses header value/
  ],
  ['a mainnet X-Address', { 'x-address': MAINNET_ADDRESS }, /^Invalid addresses header value/],
  ['an X-Collateral-UTxO without index', { 'x-collateral-utxo': UNKNOWN_TX }, /^Invalid collateral header UTxO value/],
  [
    'an X-Collateral-UTxO with short id',
    { 'x-collateral-utxo': `${'a'.repeat(63)}#0` },
    /^Invalid collateral header UTxO value/
  ],
  [
    'an X-Collateral-UTxO index above 65535',
    { 'x-collateral-utxo': `${UNKNOWN_TX}#65536` },
    /^Invalid collateral header UTxO value/
  ],
  [
    'an X-Collateral-UTxO with an empty item',
    { 'x-collateral-utxo': `${UNKNOWN_REF},` },
    /^Invalid collateral header UTxO value/
  ]
]
for (const [name, headers, message] of WALLET_HEADERS) {
  add(`POST /contracts: ${name}`, 400, 'BadRequest', () => postCreate(goodCreate(), headers), message)
  add(`POST …/transactions: ${name}`, 400, 'BadRequest', (f) => postApply(f, goodApply(), headers), message)
  add(`POST /withdrawals: ${name}`, 400, 'BadRequest', (f) => postWithdraw({ payouts: [f.payout] }, headers), message)
}
const STAKE_HEADERS: ReadonlyArray<[string, string]> = [
  ['garbage', 'stake-me'],
  ['a mainnet stake address', stakeAddress(true)],
  ['a payment address', alice.address],
  ['a bad checksum', `${stakeAddress(false).slice(0, -1)}x`]
]
for (const [name, value] of STAKE_HEADERS) {
  add(
    `POST /contracts: X-Stake-Address ${name}`,
    400,
    'BadRequest',
    () => postCreate(goodCreate(), { 'x-stake-address': value }),
    /^Invalid stake address value/
  )
}

// ---- 4. content types, sizes and Accept on the build endpoints ------------------------------------------------

const BUILDS: ReadonlyArray<[string, (f: Fixtures) => Req, string]> = [
  ['POST /contracts', () => postCreate(goodCreate()), VENDOR_APPLY],
  ['POST …/transactions', (f) => postApply(f, goodApply()), VENDOR_CREATE],
  ['POST /withdrawals', (f) => postWithdraw({ payouts: [f.payout] }), VENDOR_CREATE]
]
for (const [name, req, foreignVendor] of BUILDS) {
  for (const type of [
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/xml'
  ]) {
    add(`${name}: Content-Type ${type}`, 415, 'UnsupportedMediaType', (f) => {
      const r = req(f)
      return { ...r, body: stringifyJson(r.body as JsonValue), headers: { ...r.headers, 'content-type': type } }
    })
  }
  add(`${name}: a body over the limit`, 413, 'PayloadTooLarge', (f) => ({
    ...req(f),
    body: `"${'x'.repeat(OVERSIZE)}"`
  }))
  add(`${name}: no body`, 400, 'RequestBodyParseError', (f) => {
    const { body: _none, ...r } = req(f)
    return r
  })
  for (const accept of ['text/html', foreignVendor, 'application/json;q=0']) {
    add(`${name}: Accept ${accept}`, 406, 'NotAcceptable', (f) => {
      const r = req(f)
      return { ...r, headers: { ...r.headers, accept } }
    })
  }
}

// ---- 5. POST …/transactions: the body, and which contract -----------------------------------------------------

const withApply = (extra: JsonObject): JsonObject => ({ ...goodApply(), ...extra })
const APPLY_SHAPES: ReadonlyArray<[string, JsonValue]> = [
  ['an array body', []],
  ['no inputs', { version: 'v1', tags: {}, metadata: {} }],
  ['no version', { inputs: [], tags: {}, metadata: {} }],
  ['no tags', { version: 'v1', inputs: [], metadata: {} }],
  ['no metadata', { version: 'v1', inputs: [], tags: {} }],
  ['inputs {}', withApply({ inputs: {} })],
  ['inputs "notify"', withApply({ inputs: 'notify' })],
  ['inputs [5]', withApply({ inputs: [5n] })],
  ['inputs [{"bogus":1}]', withApply({ inputs: [{ bogus: 1n }] })],
  [
    'a deposit input without amount',
    withApply({
      inputs: [{ input_from_party: { role_token: 'A' }, of_token: ADA_TOKEN, into_account: { role_token: 'A' } }]
    })
  ],
  [
    'a choice input with a string number',
    withApply({
      inputs: [
        { for_choice_id: { choice_name: 'c', choice_owner: { role_token: 'A' } }, input_that_chooses_num: 'one' }
      ]
    })
  ],
  ['invalidBefore "yesterday"', withApply({ invalidBefore: 'yesterday' })],
  ['invalidBefore 5', withApply({ invalidBefore: 5n })],
  ['invalidBefore in month 13', withApply({ invalidBefore: '2025-13-01T00:00:00Z' })],
  ['invalidBefore on February 30', withApply({ invalidBefore: '2025-02-30T00:00:00Z' })],
  ['invalidBefore at 25:00', withApply({ invalidBefore: '2025-01-01T25:00:00Z' })],
  ['invalidBefore without a zone', withApply({ invalidBefore: '2025-01-01T00:00:00' })],
  ['invalidHereafter with offset +25:00', withApply({ invalidHereafter: '2025-01-01T00:00:00+25:00' })],
  ['invalidHereafter a date only', withApply({ invalidHereafter: '2025-01-01' })],
  ['invalidHereafter POSIX ms', withApply({ invalidHereafter: 1735689600000n })],
  ['tags []', withApply({ tags: [] })],
  ['metadata {"x":1}', withApply({ metadata: { x: 1n } })]
]
for (const [name, body] of APPLY_SHAPES) {
  add(`POST …/transactions: ${name}`, 400, 'RequestBodyParseError', (f) => postApply(f, body))
}
add(
  'POST …/transactions: version "v2"',
  400,
  'BadRequest',
  (f) => postApply(f, withApply({ version: 'v2' })),
  /^Unsupported Marlowe version/
)
add(
  'POST …/transactions: a metadata string of 65 bytes',
  400,
  'BadRequest',
  (f) => postApply(f, withApply({ metadata: { '1': 'z'.repeat(65) } })),
  /^Invalid metadata value/
)
add(
  'POST …/transactions: a tag decimal',
  400,
  'BadRequest',
  (f) => postApply(f, '{"version":"v1","inputs":[],"tags":{"t":0.5},"metadata":{}}'),
  /^Invalid tags value/
)
add('POST …/transactions: invalidBefore after the tip', 400, 'ValidityLowerBoundTooHigh', (f) =>
  postApply(f, withApply({ invalidBefore: '2025-01-01T01:00:00Z' }))
)
add('POST …/transactions: invalidHereafter beyond the era horizon', 400, 'SlotConversionFailed', (f) =>
  postApply(f, withApply({ invalidHereafter: '2030-01-01T00:00:00Z' }))
)
add('POST …/transactions: a deposit the contract does not expect', 400, 'MarloweComputeTransactionFailed', (f) =>
  postApply(
    f,
    withApply({
      inputs: [
        {
          input_from_party: { address: bob.address },
          that_deposits: 5n,
          of_token: ADA_TOKEN,
          into_account: { address: bob.address }
        }
      ]
    })
  )
)
add('POST …/transactions: no inputs before the timeout', 400, 'MarloweComputeTransactionFailed', (f) =>
  postApply(f, withApply({ inputs: [] }))
)
add('POST …/transactions: an unknown contract', 404, 'LoadMarloweContextErrorNotFound', (f) =>
  postApply(f, goodApply(), {}, enc(UNKNOWN_REF))
)
add('POST …/transactions: an unsigned contract', 404, 'LoadMarloweContextErrorNotFound', (f) =>
  postApply(f, goodApply(), {}, enc(f.unsignedCreate))
)
add('POST …/transactions: a closed contract', 400, 'ScriptOutputNotFound', (f) =>
  postApply(f, goodApply(), {}, enc(f.paying))
)

// ---- 6. bad ids in paths --------------------------------------------------------------------------------------

const BAD_REFS: ReadonlyArray<[string, string]> = [
  ['"abc"', 'abc'],
  ['63 hex digits', `${'a'.repeat(63)}%230`],
  ['65 hex digits', `${'a'.repeat(65)}%230`],
  ['no index', UNKNOWN_TX],
  ['an empty index', `${UNKNOWN_TX}%23`],
  ['a negative index', `${UNKNOWN_TX}%23-1`],
  ['an index above 65535', `${UNKNOWN_TX}%2365536`],
  ['a non-hex id', `${'g'.repeat(64)}%230`],
  ['an index with a sign', `${UNKNOWN_TX}%23+1`],
  ['a "." instead of "#"', `${UNKNOWN_TX}.0`]
]
for (const [name, ref] of BAD_REFS) {
  add(`GET /contracts/{id}: ${name}`, 400, 'BadRequest', () => ({ method: 'GET', path: `/contracts/${ref}` }))
  add(`PUT /contracts/{id}: ${name}`, 400, 'BadRequest', (f) => ({
    method: 'PUT',
    path: `/contracts/${ref}`,
    body: { ...witnessEnvelope(f.unsignedCreateTx, [dave]) }
  }))
  add(`GET /payouts/{id}: ${name}`, 400, 'BadRequest', () => ({ method: 'GET', path: `/payouts/${ref}` }))
}
for (const [name, ref] of BAD_REFS.slice(0, 4)) {
  add(`GET …/transactions (list): ${name}`, 400, 'BadRequest', () => ({
    method: 'GET',
    path: `/contracts/${ref}/transactions`
  }))
  add(`POST …/transactions: contract ${name}`, 400, 'BadRequest', (f) => postApply(f, goodApply(), {}, ref))
  add(`GET …/next: contract ${name}`, 400, 'BadRequest', () => ({
    method: 'GET',
    path: `/contracts/${ref}/next?validityStart=2025-01-01T00:00:00Z&validityEnd=2025-01-01T01:00:00Z`
  }))
}
const BAD_TX_IDS: ReadonlyArray<[string, string]> = [
  ['63 hex digits', 'a'.repeat(63)],
  ['65 hex digits', 'a'.repeat(65)],
  ['non-hex', 'z'.repeat(64)],
  ['a reference', `${UNKNOWN_TX}%230`],
  ['"latest"', 'latest']
]
for (const [name, id] of BAD_TX_IDS) {
  add(`GET /withdrawals/{id}: ${name}`, 400, 'BadRequest', () => ({ method: 'GET', path: `/withdrawals/${id}` }))
  add(`PUT /withdrawals/{id}: ${name}`, 400, 'BadRequest', (f) => ({
    method: 'PUT',
    path: `/withdrawals/${id}`,
    body: { ...witnessEnvelope(f.unsignedCreateTx, [dave]) }
  }))
  add(`GET …/transactions/{id}: ${name}`, 400, 'BadRequest', (f) => ({
    method: 'GET',
    path: `/contracts/${enc(f.open)}/transactions/${id}`
  }))
  add(`PUT …/transactions/{id}: ${name}`, 400, 'BadRequest', (f) => ({
    method: 'PUT',
    path: `/contracts/${enc(f.open)}/transactions/${id}`,
    body: { ...witnessEnvelope(f.unsignedApplyTx, [bob]) }
  }))
}
add('GET /contracts/%zz: bad percent-encoding', 400, 'BadRequest', () => ({ method: 'GET', path: '/contracts/%zz' }))
add('GET /payouts/%E0%A4%A: a truncated UTF-8 escape', 400, 'BadRequest', () => ({
  method: 'GET',
  path: '/payouts/%E0%A4%A'
}))
add('GET /contracts/{id}: an id longer than any route takes', 414, 'URITooLong', () => ({
  method: 'GET',
  path: `/contracts/${'a'.repeat(200)}`
}))

// ---- 7. unknown and wrong ids (404, wrong submit route) --------------------------------------------------------

add('GET /contracts/{unknown}', 404, 'NotFound', () => ({ method: 'GET', path: `/contracts/${enc(UNKNOWN_REF)}` }))
add('GET /contracts/{open, other index}', 404, 'NotFound', (f) => ({
  method: 'GET',
  path: `/contracts/${f.open.slice(0, 64)}%2399`
}))
add('GET /contracts/{unknown}/transactions', 404, 'NotFound', () => ({
  method: 'GET',
  path: `/contracts/${enc(UNKNOWN_REF)}/transactions`
}))
add('GET …/transactions/{unknown}', 404, 'NotFound', (f) => ({
  method: 'GET',
  path: `/contracts/${enc(f.open)}/transactions/${UNKNOWN_TX}`
}))
add('GET …/transactions/{the create tx}', 404, 'NotFound', (f) => ({
  method: 'GET',
  path: `/contracts/${enc(f.open)}/transactions/${f.open.slice(0, 64)}`
}))
add('GET …/transactions/{an apply of another contract}', 404, 'NotFound', (f) => ({
  method: 'GET',
  path: `/contracts/${enc(f.paying)}/transactions/${f.unsignedApply}`
}))
add('GET /withdrawals/{unknown}', 404, 'NotFound', () => ({ method: 'GET', path: `/withdrawals/${UNKNOWN_TX}` }))
add('GET /withdrawals/{a create tx}', 404, 'NotFound', (f) => ({
  method: 'GET',
  path: `/withdrawals/${f.open.slice(0, 64)}`
}))
add('GET /payouts/{unknown}', 404, 'NotFound', () => ({ method: 'GET', path: `/payouts/${enc(UNKNOWN_REF)}` }))
add('GET /payouts/{a contract id}', 404, 'NotFound', (f) => ({ method: 'GET', path: `/payouts/${enc(f.open)}` }))
add('GET …/next of an unknown contract', 404, 'contractNotFound', () => ({
  method: 'GET',
  path: `/contracts/${enc(UNKNOWN_REF)}/next?validityStart=2025-01-01T00:00:00Z&validityEnd=2025-01-01T01:00:00Z`
}))
add('GET …/next of an unsigned contract', 404, 'contractNotFound', (f) => ({
  method: 'GET',
  path: `/contracts/${enc(f.unsignedCreate)}/next?validityStart=2025-01-01T00:00:00Z&validityEnd=2025-01-01T01:00:00Z`
}))
add('GET …/next of a closed contract', 404, 'contractClosed', (f) => ({
  method: 'GET',
  path: `/contracts/${enc(f.paying)}/next?validityStart=2025-01-01T00:00:00Z&validityEnd=2025-01-01T01:00:00Z`
}))
add('GET /nothing', 404, 'NotFound', () => ({ method: 'GET', path: '/nothing' }))
add('DELETE /contracts', 404, 'NotFound', () => ({ method: 'DELETE', path: '/contracts' }))
add('PATCH /contracts/{id}', 404, 'NotFound', (f) => ({ method: 'PATCH', path: `/contracts/${enc(f.open)}`, body: {} }))
add('POST /payouts', 404, 'NotFound', () => ({ method: 'POST', path: '/payouts', body: {} }))
add('PUT /contracts (no id)', 404, 'NotFound', () => ({ method: 'PUT', path: '/contracts', body: {} }))
add('GET /contracts/sources/{id} not in the store', 404, 'NotFound', () => ({
  method: 'GET',
  path: `/contracts/sources/${UNKNOWN_TX}`
}))

// ---- 8. submits: the envelope, the target, the era, the signatures ---------------------------------------------

const putCreate = (f: Fixtures, body: JsonValue | string, id = f.unsignedCreate): Req => ({
  method: 'PUT',
  path: `/contracts/${enc(id)}`,
  body
})
const putApply = (f: Fixtures, body: JsonValue | string, contract = f.open, tx = f.unsignedApply): Req => ({
  method: 'PUT',
  path: `/contracts/${enc(contract)}/transactions/${tx}`,
  body
})
const putWithdraw = (f: Fixtures, body: JsonValue | string, id = f.unsignedWithdrawal): Req => ({
  method: 'PUT',
  path: `/withdrawals/${id}`,
  body
})
const PUTS: ReadonlyArray<[string, (f: Fixtures, body: JsonValue | string) => Req]> = [
  ['PUT /contracts/{id}', putCreate],
  ['PUT …/transactions/{id}', putApply],
  ['PUT /withdrawals/{id}', putWithdraw]
]
const ENVELOPE_SHAPES: ReadonlyArray<[string, JsonValue]> = [
  ['{}', {}],
  ['an array', []],
  ['null', null],
  ['no type', { description: '', cborHex: 'a0' }],
  ['no description', { type: 'ShelleyTxWitness ConwayEra', cborHex: 'a0' }],
  ['no cborHex', { type: 'ShelleyTxWitness ConwayEra', description: '' }],
  ['type 5', { type: 5n, description: '', cborHex: 'a0' }],
  ['description null', { type: 'ShelleyTxWitness ConwayEra', description: null, cborHex: 'a0' }],
  ['odd hex', envelope('ShelleyTxWitness ConwayEra', 'abc')],
  ['non-hex', envelope('ShelleyTxWitness ConwayEra', 'zz')],
  ['cborHex 5', { type: 'ShelleyTxWitness ConwayEra', description: '', cborHex: 5n }]
]
for (const [route, put] of PUTS) {
  for (const [name, body] of ENVELOPE_SHAPES) {
    add(`${route}: envelope ${name}`, 400, 'RequestBodyParseError', (f) => put(f, body))
  }
  const refused: ReadonlyArray<[string, string, string, RegExp]> = [
    ['an unknown type', 'Nonsense', 'a0', /Unknown envelope type/],
    ['an Alonzo witness set', 'ShelleyTxWitness AlonzoEra', 'a0', /Unknown envelope type/],
    ['empty CBOR', 'ShelleyTxWitness ConwayEra', '', /Invalid text envelope cbor value/],
    ['truncated CBOR', 'ShelleyTxWitness ConwayEra', 'a10081', /Invalid text envelope cbor value/],
    ['CBOR that is no witness set', 'ShelleyTxWitness ConwayEra', '820102', /Invalid text envelope cbor value/],
    ['a Tx that is no CBOR', 'Tx ConwayEra', 'ff', /Invalid text envelope cbor value/]
  ]
  for (const [name, type, cbor, message] of refused) {
    add(`${route}: ${name}`, 400, 'BadRequest', (f) => put(f, envelope(type, cbor)), message)
  }
  add(`${route}: a witness set without keys`, 400, 'MissingSignatures', (f) =>
    put(f, envelope('ShelleyTxWitness ConwayEra', 'a0'))
  )
  add(`${route}: the body alone`, 400, 'MissingSignatures', (f) => put(f, envelope('TxBodyConway', 'a0')))
  add(`${route}: 415 for text/plain`, 415, 'UnsupportedMediaType', (f) => ({
    ...put(f, '{}'),
    headers: { 'content-type': 'text/plain' }
  }))
  add(`${route}: a body over the limit`, 413, 'PayloadTooLarge', (f) => put(f, `"${'x'.repeat(OVERSIZE)}"`))
  add(`${route}: no body`, 400, 'RequestBodyParseError', (f) => {
    const { body: _none, ...r } = put(f, '')
    return r
  })
}
// The create build of the matrix, signed and sent in every wrong way.
add(
  'PUT /contracts/{id}: a Babbage Tx for a Conway build',
  400,
  'BadRequest',
  (f) => putCreate(f, envelope('Tx BabbageEra', bytesToHex(sign(f.unsignedCreateTx, [dave])))),
  /"Tx ConwayEra", "ShelleyTxWitness ConwayEra"/
)
add('PUT /contracts/{id}: the unsigned Tx', 400, 'MissingSignatures', (f) =>
  putCreate(f, envelope('Tx ConwayEra', bytesToHex(f.unsignedCreateTx)))
)
add('PUT /contracts/{id}: the unsigned body as a Tx', 400, 'BadRequest', (f) =>
  putCreate(f, envelope('Tx ConwayEra', bytesToHex(f.unsignedCreateTx.slice(0, 40))))
)
add('PUT /contracts/{id}: another build, signed (body hash mismatch)', 400, 'TxBodyMismatch', (f) =>
  putCreate(f, envelope('Tx ConwayEra', bytesToHex(sign(f.otherCreateTx, [alice]))))
)
add('PUT /contracts/{id}: a witness made for another build', 400, 'InvalidWitness', (f) =>
  putCreate(f, { ...witnessEnvelope(f.otherCreateTx, [alice]) })
)
add('PUT /contracts/{id}: a witness for another build, labelled Babbage', 400, 'InvalidWitness', (f) =>
  putCreate(f, { ...witnessEnvelope(f.otherCreateTx, [alice], 'Babbage') })
)
add(
  'PUT …/transactions/{id}: a Babbage Tx for a Conway build',
  400,
  'BadRequest',
  (f) => putApply(f, envelope('Tx BabbageEra', bytesToHex(sign(f.unsignedApplyTx, [bob])))),
  /Unknown envelope type/
)
add('PUT …/transactions/{id}: the create build signed', 400, 'TxBodyMismatch', (f) =>
  putApply(f, envelope('Tx ConwayEra', bytesToHex(sign(f.unsignedCreateTx, [dave]))))
)
add('PUT …/transactions/{id}: a witness for the create build', 400, 'InvalidWitness', (f) =>
  putApply(f, { ...witnessEnvelope(f.unsignedCreateTx, [dave]) })
)
add('PUT /withdrawals/{id}: a witness for the apply build', 400, 'InvalidWitness', (f) =>
  putWithdraw(f, { ...witnessEnvelope(f.unsignedApplyTx, [bob]) })
)
// Which build a PUT names.
add('PUT /contracts/{unknown}', 404, 'NotFound', (f) =>
  putCreate(f, { ...witnessEnvelope(f.unsignedCreateTx, [dave]) }, UNKNOWN_REF)
)
add('PUT /contracts/{confirmed}', 409, 'ContractAlreadySubmitted', (f) =>
  putCreate(f, { ...witnessEnvelope(f.unsignedCreateTx, [dave]) }, f.open)
)
add('PUT /contracts/{apply tx id #0}', 400, 'WrongSubmitOperation', (f) =>
  putCreate(f, { ...witnessEnvelope(f.unsignedApplyTx, [bob]) }, `${f.unsignedApply}#0`)
)
add('PUT /contracts/{withdrawal id #0}', 400, 'WrongSubmitOperation', (f) =>
  putCreate(f, { ...witnessEnvelope(f.unsignedApplyTx, [bob]) }, `${f.unsignedWithdrawal}#0`)
)
add('PUT …/transactions/{unknown}', 404, 'NotFound', (f) =>
  putApply(f, { ...witnessEnvelope(f.unsignedApplyTx, [bob]) }, f.open, UNKNOWN_TX)
)
add('PUT …/transactions/{id} under another contract', 404, 'NotFound', (f) =>
  putApply(f, { ...witnessEnvelope(f.unsignedApplyTx, [bob]) }, f.paying)
)
add('PUT …/transactions/{id} under an unknown contract', 404, 'NotFound', (f) =>
  putApply(f, { ...witnessEnvelope(f.unsignedApplyTx, [bob]) }, UNKNOWN_REF)
)
add('PUT …/transactions/{the create tx}', 400, 'WrongSubmitOperation', (f) =>
  putApply(f, { ...witnessEnvelope(f.unsignedCreateTx, [dave]) }, f.unsignedCreate, f.unsignedCreate.slice(0, 64))
)
add('PUT …/transactions/{the withdrawal tx}', 400, 'WrongSubmitOperation', (f) =>
  putApply(f, { ...witnessEnvelope(f.unsignedApplyTx, [bob]) }, f.open, f.unsignedWithdrawal)
)
add('PUT /withdrawals/{unknown}', 404, 'NotFound', (f) =>
  putWithdraw(f, { ...witnessEnvelope(f.unsignedApplyTx, [bob]) }, UNKNOWN_TX)
)
add('PUT /withdrawals/{the create tx}', 400, 'WrongSubmitOperation', (f) =>
  putWithdraw(f, { ...witnessEnvelope(f.unsignedCreateTx, [dave]) }, f.unsignedCreate.slice(0, 64))
)
add('PUT /withdrawals/{the apply tx}', 400, 'WrongSubmitOperation', (f) =>
  putWithdraw(f, { ...witnessEnvelope(f.unsignedApplyTx, [bob]) }, f.unsignedApply)
)

// ---- 9. POST /withdrawals bodies ---------------------------------------------------------------------------------

const WITHDRAW_SHAPES: ReadonlyArray<[string, JsonValue]> = [
  ['{}', {}],
  ['an array', []],
  ['payouts "x"', { payouts: 'x' }],
  ['payouts null', { payouts: null }],
  ['payouts [5]', { payouts: [5n] }],
  ['payouts ["bad"]', { payouts: ['bad'] }],
  ['a payout without index', { payouts: [UNKNOWN_TX] }],
  ['a %23-encoded payout (JSON takes "#")', { payouts: [`${UNKNOWN_TX}%230`] }],
  ['a payout index above 65535', { payouts: [`${UNKNOWN_TX}#65536`] }]
]
for (const [name, body] of WITHDRAW_SHAPES) {
  add(`POST /withdrawals: ${name}`, 400, 'RequestBodyParseError', () => postWithdraw(body))
}
add('POST /withdrawals: no payouts', 400, 'EmptyPayouts', () => postWithdraw({ payouts: [] }))
add('POST /withdrawals: an unknown payout', 400, 'PayoutNotFound', () => postWithdraw({ payouts: [UNKNOWN_REF] }))
add('POST /withdrawals: a payout of a role the wallet does not hold', 400, 'RoleTokenNotFound', (f) =>
  postWithdraw({ payouts: [f.payout] }, { 'x-change-address': carol.address })
)

// ---- 10. query strings ---------------------------------------------------------------------------------------

const NEXT_OK = 'validityStart=2025-01-01T00:00:00Z&validityEnd=2025-01-01T01:00:00Z'
const QUERIES: ReadonlyArray<[string, (f: Fixtures) => string, RegExp]> = [
  ['/contracts roleCurrency=zz', () => '/contracts?roleCurrency=zz', /^Invalid role currency/],
  ['/contracts roleCurrency of odd length', () => '/contracts?roleCurrency=abc', /^Invalid role currency/],
  [
    '/contracts a second roleCurrency bad',
    () => `/contracts?roleCurrency=${POLICY}&roleCurrency=x`,
    /^Invalid role currency/
  ],
  ['/contracts partyAddress=nope', () => '/contracts?partyAddress=nope', /^Invalid address/],
  ['/contracts partyAddress with a bad checksum', () => `/contracts?partyAddress=${flipped}`, /^Invalid address/],
  ['/contracts partyRole without a dot', () => '/contracts?partyRole=Buyer', /^Invalid role token/],
  ['/contracts partyRole with a bad policy', () => '/contracts?partyRole=zz.Buyer', /^Invalid role token/],
  ['/withdrawals roleCurrency=xyz', () => '/withdrawals?roleCurrency=xyz', /^Invalid role value/],
  ['/payouts contractId=bad', () => '/payouts?contractId=bad', /^Invalid contractId value/],
  ['/payouts contractId without index', () => `/payouts?contractId=${UNKNOWN_TX}`, /^Invalid contractId value/],
  ['/payouts roleToken without a dot', () => '/payouts?roleToken=Seller', /^Invalid roleToken value/],
  ['/payouts status=pending', () => '/payouts?status=pending', /^Invalid status value/],
  ['/payouts status twice', () => '/payouts?status=available&status=withdrawn', /^Invalid status value/],
  [
    '/next without validityStart',
    (f) => `/contracts/${enc(f.open)}/next?validityEnd=2025-01-01T01:00:00Z`,
    /^Invalid validityStart value/
  ],
  [
    '/next without validityEnd',
    (f) => `/contracts/${enc(f.open)}/next?validityStart=2025-01-01T01:00:00Z`,
    /^Invalid validityEnd value/
  ],
  [
    '/next validityStart=yesterday',
    (f) => `/contracts/${enc(f.open)}/next?validityStart=yesterday&validityEnd=2025-01-01T01:00:00Z`,
    /^Invalid validityStart value/
  ],
  [
    '/next validityEnd in month 13',
    (f) => `/contracts/${enc(f.open)}/next?validityStart=2025-01-01T00:00:00Z&validityEnd=2025-13-01T00:00:00Z`,
    /^Invalid validityEnd value/
  ],
  [
    '/next validityStart twice',
    (f) => `/contracts/${enc(f.open)}/next?${NEXT_OK}&validityStart=2025-01-01T00:00:00Z`,
    /^Invalid validityStart value/
  ],
  [
    '/next validityEnd POSIX ms',
    (f) => `/contracts/${enc(f.open)}/next?validityStart=2025-01-01T00:00:00Z&validityEnd=1735689600000`,
    /^Invalid validityEnd value/
  ]
]
for (const [name, path, message] of QUERIES) {
  add(`GET ${name}`, 400, 'BadRequest', (f) => ({ method: 'GET', path: path(f) }), message)
}
add('GET /next with the end before the start', 400, 'invalidInterval', (f) => ({
  method: 'GET',
  path: `/contracts/${enc(f.open)}/next?validityStart=2025-01-02T00:00:00Z&validityEnd=2025-01-01T00:00:00Z`
}))

// ---- 11. Range headers -----------------------------------------------------------------------------------------

const LISTS: ReadonlyArray<[string, (f: Fixtures) => string, string, string, string]> = [
  ['/contracts', () => '/contracts', 'contractId', UNKNOWN_REF, 'Initial contract ID not found'],
  [
    '…/transactions',
    (f) => `/contracts/${enc(f.open)}/transactions`,
    'transactionId',
    UNKNOWN_TX,
    'Starting transaction not found'
  ],
  ['/withdrawals', () => '/withdrawals', 'withdrawalId', UNKNOWN_TX, 'Initial withdrawal ID not found'],
  ['/payouts', () => '/payouts', 'payoutId', UNKNOWN_REF, 'Initial payout ID not found']
]
for (const [name, path, field, unknown, notFound] of LISTS) {
  const other = field === 'contractId' ? 'payoutId' : 'contractId'
  const ranges: ReadonlyArray<[string, string]> = [
    ['another field', `${other};limit 5`],
    ['no field', ';limit 5'],
    ['the empty header', ''],
    ['a negative limit', `${field};limit -1`],
    ['limit "ten"', `${field};limit ten`],
    ['a fractional limit', `${field};limit 1.5`],
    ['a negative offset', `${field};offset -2`],
    ['order sideways', `${field};order sideways`],
    ['an unknown option', `${field};sort asc`],
    ['an option twice', `${field};limit 1;limit 2`],
    ['an option without value', `${field};limit`],
    ['two start values', `${field} a b`],
    ['a start value of the wrong form', `${field} nothing`],
    ['a start value with bad URL encoding', `${field} %zz`]
  ]
  for (const [what, range] of ranges) {
    add(`GET ${name}: Range with ${what}`, 400, 'BadRequest', (f) => ({
      method: 'GET',
      path: path(f),
      headers: { range }
    }))
  }
  add(
    `GET ${name}: Range from an unknown start`,
    416,
    'RangeNotSatisfiable',
    (f) => ({
      method: 'GET',
      path: path(f),
      headers: { range: `${field} ${encodeURIComponent(unknown)};limit 2` }
    }),
    new RegExp(`^${notFound}$`)
  )
}

// ---- 12. the guard -------------------------------------------------------------------------------------------

const GUARDED: ReadonlyArray<[string, (f: Fixtures) => Req]> = [
  ['GET /contracts', () => ({ method: 'GET', path: '/contracts' })],
  ['POST /contracts', () => postCreate(goodCreate())],
  ['PUT /contracts/{id}', (f) => putCreate(f, { ...witnessEnvelope(f.unsignedCreateTx, [dave]) })],
  ['GET /healthcheck', () => ({ method: 'GET', path: '/healthcheck' })]
]
for (const [name, req] of GUARDED) {
  add(`${name}: no token`, 401, 'Unauthorized', (f) => ({ ...req(f), token: null }))
  add(`${name}: a wrong token`, 401, 'Unauthorized', (f) => ({ ...req(f), token: 'test-token-0123456788' }))
  add(`${name}: a Basic authorization`, 401, 'Unauthorized', (f) => ({
    ...req(f),
    token: null,
    headers: { ...req(f).headers, authorization: 'Basic dGVzdA==' }
  }))
  add(`${name}: a wrong token prefix`, 401, 'Unauthorized', (f) => ({
    ...req(f),
    token: null,
    path: `/t/nope${req(f).path}`
  }))
  add(`${name}: a token prefix that is bad URL encoding`, 401, 'Unauthorized', (f) => ({
    ...req(f),
    token: null,
    path: `/t/%zz${req(f).path}`
  }))
  add(`${name}: Host evil.example (DNS rebinding)`, 403, 'ForbiddenHost', (f) => ({
    ...req(f),
    headers: { ...req(f).headers, host: 'evil.example' }
  }))
  add(`${name}: Host 127.0.0.1 on another port`, 403, 'ForbiddenHost', (f) => ({
    ...req(f),
    headers: { ...req(f).headers, host: '127.0.0.1:1' }
  }))
  add(`${name}: Origin not listed`, 403, 'ForbiddenOrigin', (f) => ({
    ...req(f),
    headers: { ...req(f).headers, origin: 'https://evil.example' }
  }))
}

// ---- the run -------------------------------------------------------------------------------------------------

let server: TestServer
let fixtures: Fixtures
let before: Record<string, unknown[]>

/** Creates, signs and confirms; builds the unsigned txs the matrix aims at; reads the store. */
async function setUp(s: TestServer): Promise<Fixtures> {
  const open = await createConfirmed(s, bob, createBody(notifyContract()))
  s.clock.ms += 2_000n
  const payContract: JsonValue = {
    when: [
      {
        case: { notify_if: true },
        then: {
          pay: 3_000_000n,
          token: ADA_TOKEN,
          from_account: { role_token: 'Payee' },
          to: { party: { role_token: 'Payee' } },
          then: 'close'
        }
      }
    ],
    timeout: T0 + 10n * DAY,
    timeout_continuation: 'close'
  }
  const paying = await createConfirmed(
    s,
    alice,
    createBody(payContract, { roles: { Payee: bob.address }, accounts: { Payee: { lovelace: 3_000_000n } } })
  )
  s.clock.ms += 2_000n
  const notified = await call(s, 'POST', `/contracts/${enc(paying)}/transactions`, {
    body: goodApply(),
    headers: walletHeaders(alice, { accept: VENDOR_APPLY })
  })
  expect(notified.status, notified.text).toBe(201)
  const notifiedId = stringOf(objectOf(objectOf(notified.json).resource).transactionId, 'transactionId')
  const put = await call(s, 'PUT', `/contracts/${enc(paying)}/transactions/${notifiedId}`, {
    body: { ...witnessEnvelope(unsignedTxOf(notified), [alice]) }
  })
  expect(put.status, put.text).toBe(202)
  await s.opened.follower.sync()
  s.clock.ms += 2_000n
  const payouts = await call(s, 'GET', '/payouts?status=available')
  const payoutResource = objectOf(objectOf((objectOf(payouts.json).results as JsonValue[])[0]).resource)
  const payout = stringOf(payoutResource.payoutId, 'payoutId')
  const rolesCurrency = stringOf(objectOf(payoutResource.role).policyId, 'policyId')

  const created = await call(s, 'POST', '/contracts', { body: goodCreate(), headers: walletHeaders(dave) })
  expect(created.status, created.text).toBe(201)
  const other = await call(s, 'POST', '/contracts', { body: goodCreate(), headers: walletHeaders(alice) })
  expect(other.status, other.text).toBe(201)
  const applied = await call(s, 'POST', `/contracts/${enc(open)}/transactions`, {
    body: goodApply(),
    headers: walletHeaders(bob, { accept: VENDOR_APPLY })
  })
  expect(applied.status, applied.text).toBe(201)
  const withdrawn = await call(s, 'POST', '/withdrawals', {
    body: { payouts: [payout] },
    headers: walletHeaders(bob, { accept: VENDOR_WITHDRAW })
  })
  expect(withdrawn.status, withdrawn.text).toBe(201)
  return {
    open,
    unsignedCreate: stringOf(objectOf(objectOf(created.json).resource).contractId, 'contractId'),
    unsignedCreateTx: unsignedTxOf(created),
    otherCreateTx: unsignedTxOf(other),
    unsignedApply: stringOf(objectOf(objectOf(applied.json).resource).transactionId, 'transactionId'),
    unsignedApplyTx: unsignedTxOf(applied),
    paying,
    payout,
    unsignedWithdrawal: stringOf(objectOf(objectOf(withdrawn.json).resource).withdrawalId, 'withdrawalId'),
    rolesCurrency
  }
}

beforeAll(async () => {
  server = await startServer()
  fixtures = await setUp(server)
  before = storeDump(server.databasePath)
})
afterAll(async () => {
  await server.close()
})

describe(`the bad-input matrix (${cases.length} cases)`, () => {
  test('has at least 200 cases, each named once', () => {
    expect(cases.length).toBeGreaterThanOrEqual(200)
    expect(new Set(cases.map((c) => c.name)).size).toBe(cases.length)
  })

  test.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const r = c.req(fixtures)
    const answer = await rawCall(server, r.method, r.path, {
      ...(r.body === undefined ? {} : { body: typeof r.body === 'string' ? r.body : stringifyJson(r.body) }),
      ...(r.headers === undefined ? {} : { headers: r.headers }),
      ...(r.token === undefined ? {} : { token: r.token })
    })
    const body = expectApiError(answer, c.status, c.code)
    if (c.message !== undefined) expect(body.message).toMatch(c.message)
  })

  test('afterwards the server still answers, and the store is exactly as the setup left it', async () => {
    const health = await call(server, 'GET', '/healthcheck')
    expect(health.status).toBe(200)
    expect(storeDump(server.databasePath)).toEqual(before)
    // The unsigned builds the matrix aimed at are all still unsigned and submittable.
    const f = fixtures
    expect(
      objectOf(objectOf((await call(server, 'GET', `/contracts/${enc(f.unsignedCreate)}`)).json).resource).status
    ).toBe('unsigned')
    const put = await call(server, 'PUT', `/contracts/${enc(f.unsignedCreate)}`, {
      body: { ...witnessEnvelope(f.unsignedCreateTx, [dave]) }
    })
    expect(put.status, put.text).toBe(202)
  })
})

describe('a submit that cannot go through', () => {
  test('a signature the tx does not need: 400 before the node sees it; the store is unchanged, and a good retry goes through', async () => {
    const created = await call(server, 'POST', '/contracts', { body: goodCreate(), headers: walletHeaders(carol) })
    expect(created.status, created.text).toBe(201)
    const id = stringOf(objectOf(objectOf(created.json).resource).contractId, 'contractId')
    const tx = unsignedTxOf(created)
    const was = storeDump(server.databasePath)
    // A valid signature, but by a key the transaction does not need: the ledger would refuse it.
    const refused = await call(server, 'PUT', `/contracts/${enc(id)}`, { body: { ...witnessEnvelope(tx, [bob]) } })
    const body = expectApiError(refused, 400, 'UnneededSignature')
    expect(body.message).toContain(bob.paymentKeyHash)
    expect(storeDump(server.databasePath)).toEqual(was)
    const retry = await call(server, 'PUT', `/contracts/${enc(id)}`, { body: { ...witnessEnvelope(tx, [carol]) } })
    expect(retry.status, retry.text).toBe(202)
  })

  test('the node refuses (its input was spent meanwhile): 403 SubmissionError, and the store is unchanged', async () => {
    const created = await call(server, 'POST', '/contracts', { body: goodCreate(), headers: walletHeaders(carol) })
    expect(created.status, created.text).toBe(201)
    const id = stringOf(objectOf(objectOf(created.json).resource).contractId, 'contractId')
    const tx = unsignedTxOf(created)
    // Carol spends one of the build's inputs elsewhere first.
    const [input] = decodeTransaction(tx).body.inputs
    const spent = await server.sandbox.utxosByRef([input!])
    const elsewhere = buildTx({
      params: await server.sandbox.protocolParameters(),
      inputs: spent,
      changeAddress: carol.address
    })
    await server.sandbox.submit(sign(elsewhere, [carol]))
    const was = storeDump(server.databasePath)
    const refused = await call(server, 'PUT', `/contracts/${enc(id)}`, { body: { ...witnessEnvelope(tx, [carol]) } })
    const body = expectApiError(refused, 403, 'SubmissionError')
    expect(body.message).toMatch(/^SubmitFailed /)
    // A definite refusal leaves no submit attempt behind.
    expect(storeDump(server.databasePath)).toEqual(was)
    await server.opened.follower.sync()
    const got = objectOf(objectOf((await call(server, 'GET', `/contracts/${enc(id)}`)).json).resource)
    expect(got.status).toBe('unsigned')
  })
})

/** Bad input that once got a 500 from the builders: each now gets its 400 in Runtime's error shape. */
describe('bad input the builders refuse', () => {
  async function expect400(req: Req, errorCode: string): Promise<void> {
    const answer = await rawCall(server, req.method, req.path, {
      ...(req.body === undefined ? {} : { body: typeof req.body === 'string' ? req.body : stringifyJson(req.body) }),
      ...(req.headers === undefined ? {} : { headers: req.headers })
    })
    expect(answer.status, answer.text).toBe(400)
    const body = objectOf(answer.json)
    expect(body.errorCode).toBe(errorCode)
    expect(String(body.message)).not.toBe('')
  }

  test('POST /withdrawals of an output that is no payout → 400 PayoutNotFound', async () => {
    await expect400(postWithdraw({ payouts: [fixtures.open] }), 'PayoutNotFound')
  })

  test('POST /contracts with an initial account of 2^64-1 lovelace → 400', async () => {
    await expect400(
      postCreate(withCreate({ accounts: { [carol.address]: { lovelace: 2n ** 64n - 1n } } })),
      'BalancingError'
    )
  })

  test('POST /contracts minting 2^64-1 of a role (mint quantities are int64) → 400', async () => {
    await expect400(
      postCreate(withCreate({ roles: { Big: { recipients: { [carol.address]: 2n ** 64n - 1n } } } })),
      'RequestBodyParseError'
    )
  })

  test('POST /contracts with a contract too large for one transaction → 400', async () => {
    const cases = Array.from({ length: 1500 }, (_, i) => ({
      case: { notify_if: { value: BigInt(i), equal_to: 1n } },
      then: 'close'
    }))
    await expect400(
      postCreate(createBody({ when: cases, timeout: T0 + DAY, timeout_continuation: 'close' })),
      'BalancingError'
    )
  })
})
