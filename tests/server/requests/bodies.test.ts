/** Request bodies: shapes (RequestBodyParseError), values (Runtime's DTO messages), and exact conversions. */
import { describe, expect, test } from 'vitest'
import { isJsonObject } from '../../../src/core/json/lossless'
import { ADA } from '../../../src/core/marlowe/types'
import {
  decodeApplyInputsBody,
  decodeCreateContractBody,
  decodeTextEnvelopeBody,
  decodeWithdrawBody,
  type BodyOptions
} from '../../../src/server/requests'
import {
  body,
  engineError,
  MAINNET_ADDRESS,
  POLICY,
  stakeAddress,
  TESTNET_ADDRESS,
  TESTNET_ADDRESS_2,
  TX,
  type Expected
} from './support'

const BIG = '123456789012345678901234567890' // far above 2^53 and 2^64
const ABOVE_2_53 = '9007199254740993' // 2^53 + 1: a double would round it

/** A create body from raw JSON fields; `undefined` drops a field of the minimal valid body. */
function create(fields: Record<string, string | undefined> = {}): string {
  const all: Record<string, string | undefined> = {
    version: '"v1"',
    contract: '"close"',
    tags: '{}',
    metadata: '{}',
    ...fields
  }
  const parts = Object.entries(all).flatMap(([k, v]) => (v === undefined ? [] : [`${JSON.stringify(k)}:${v}`]))
  return `{${parts.join(',')}}`
}

function apply(fields: Record<string, string | undefined> = {}): string {
  return create({ contract: undefined, inputs: '[]', ...fields })
}

const parse = (message: string | RegExp): Expected => ({ code: 'RequestBodyParseError', message })
const bad = (message: string | RegExp): Expected => ({ code: 'BadRequest', message })

const ROLES_WHAT = 'a roles config (a policy id, an open-role config or an object of roles to mint)'
const CONFIG_WHAT =
  'a role token config (a bech32 address, "OpenRole", or an object with "recipients", "address" or "script")'
const LABEL_WHAT = 'a metadata label (a decimal integer from 0 to 18446744073709551615)'
const QUANTITY_WHAT = 'a token quantity (an integer from 0 to 9223372036854775807)'
const LOVELACE_WHAT = 'a lovelace amount from 0 to 18446744073709552000'
const meta = (extra: string) => `{"name":"Buyer token","image":"ipfs://QmX"${extra}}`

describe('POST /contracts body: JSON shape errors are RequestBodyParseError naming the path', () => {
  const cases: Array<[string, string, Expected]> = [
    ['an array body', '[]', parse('$: expected an object, got an array of 0')],
    ['a string body', '"x"', parse('$: expected an object, got the string "x"')],
    ['a null body', 'null', parse('$: expected an object, got null')],
    ['a number body', '1.5', parse('$: expected an object, got the number 1.5')],
    ['no version', create({ version: undefined }), parse('$: missing required key "version"')],
    ['no contract', create({ contract: undefined }), parse('$: missing required key "contract"')],
    ['no tags', create({ tags: undefined }), parse('$: missing required key "tags"')],
    ['no metadata', create({ metadata: undefined }), parse('$: missing required key "metadata"')],
    ['version a number', create({ version: '1' }), parse('$.version: expected a string, got the integer 1')],
    ['version null', create({ version: 'null' }), parse('$.version: expected a string, got null')],
    [
      'contract a number',
      create({ contract: '5' }),
      parse(
        '$.contract: expected a contract ("close" or an object with pay, if, when, let or assert), got the integer 5'
      )
    ],
    [
      'contract a word',
      create({ contract: '"Close"' }),
      parse('$.contract: expected a Marlowe contract or a contract source id (64 hex digits), got the string "Close"')
    ],
    [
      'contract 63 hex digits',
      create({ contract: `"${'a'.repeat(63)}"` }),
      parse(/^\$\.contract: expected a Marlowe contract or a contract source id \(64 hex digits\)/)
    ],
    [
      'a case without then',
      create({ contract: '{"when":[{"case":{"notify_if":true}}],"timeout":1,"timeout_continuation":"close"}' }),
      parse('$.contract.when[0]: missing key "then" (or "merkleized_then")')
    ],
    [
      'a bad party address inside the contract',
      create({
        contract:
          '{"when":[{"case":{"notify_if":true},"then":{"pay":1,"from_account":{"address":"addr_test1zz"},' +
          '"to":{"party":{"role_token":"B"}},"token":{"currency_symbol":"","token_name":""},"then":"close"}}],' +
          '"timeout":1,"timeout_continuation":"close"}'
      }),
      parse('$.contract.when[0].then.from_account.address: not a bech32 string')
    ],
    [
      'a decimal timeout',
      create({ contract: '{"when":[],"timeout":1.5,"timeout_continuation":"close"}' }),
      parse('$.contract.timeout: expected an integer, got the number 1.5')
    ],
    ['tags an array', create({ tags: '[]' }), parse('$.tags: expected an object of tags, got an array of 0')],
    ['tags null', create({ tags: 'null' }), parse('$.tags: expected an object of tags, got null')],
    ['tags with __proto__', create({ tags: '{"__proto__":1}' }), parse('$.tags: the key "__proto__" is not supported')],
    [
      'metadata a string',
      create({ metadata: '"x"' }),
      parse('$.metadata: expected an object of metadata labels, got the string "x"')
    ],
    [
      'metadata label a word',
      create({ metadata: '{"x":1}' }),
      parse(`$.metadata.x: invalid key: expected ${LABEL_WHAT}`)
    ],
    [
      'metadata label with a leading zero',
      create({ metadata: '{"01":1}' }),
      parse(`$.metadata["01"]: invalid key: expected ${LABEL_WHAT}`)
    ],
    [
      'metadata label negative',
      create({ metadata: '{"-1":1}' }),
      parse(`$.metadata["-1"]: invalid key: expected ${LABEL_WHAT}`)
    ],
    [
      'metadata label 2^64',
      create({ metadata: '{"18446744073709551616":1}' }),
      parse(`$.metadata["18446744073709551616"]: invalid key: expected ${LABEL_WHAT}`)
    ],
    [
      'minUTxODeposit negative',
      create({ minUTxODeposit: '-1' }),
      parse(`$.minUTxODeposit: expected ${LOVELACE_WHAT}, got the integer -1`)
    ],
    [
      'minUTxODeposit a decimal',
      create({ minUTxODeposit: '1.5' }),
      parse(`$.minUTxODeposit: expected ${LOVELACE_WHAT}, got the number 1.5`)
    ],
    [
      'minUTxODeposit a string',
      create({ minUTxODeposit: '"5"' }),
      parse(`$.minUTxODeposit: expected ${LOVELACE_WHAT}, got the string "5"`)
    ],
    [
      'minUTxODeposit above the bound',
      create({ minUTxODeposit: '18446744073709552001' }),
      parse(`$.minUTxODeposit: expected ${LOVELACE_WHAT}, got the integer 18446744073709552001`)
    ],
    [
      'threadTokenName a number',
      create({ threadTokenName: '5' }),
      parse('$.threadTokenName: expected a string, got the integer 5')
    ],
    ['roles a number', create({ roles: '5' }), parse(`$.roles: expected ${ROLES_WHAT}, got the integer 5`)],
    ['roles true', create({ roles: 'true' }), parse(`$.roles: expected ${ROLES_WHAT}, got true`)],
    ['roles an array', create({ roles: '[]' }), parse(`$.roles: expected ${ROLES_WHAT}, got an array of 0`)],
    [
      'roles a word',
      create({ roles: '"xyz"' }),
      parse('$.roles: expected a policy id (56 hex digits), got the string "xyz"')
    ],
    [
      'roles a 27-byte policy',
      create({ roles: `"${'ab'.repeat(27)}"` }),
      parse(/^\$\.roles: expected a policy id \(56 hex digits\), got the string "abab/)
    ],
    [
      'open roles with a bad policy',
      create({ roles: '{"script":"OpenRole","policyId":"zz","openRoleNames":["A"]}' }),
      parse('$.roles.policyId: expected a policy id (56 hex digits), got the string "zz"')
    ],
    [
      'open roles with names not a list',
      create({ roles: `{"script":"OpenRole","policyId":"${POLICY}","openRoleNames":"A"}` }),
      parse('$.roles.openRoleNames: expected an array of role names, got the string "A"')
    ],
    [
      'open roles with a name not text',
      create({ roles: `{"script":"OpenRole","policyId":"${POLICY}","openRoleNames":[1]}` }),
      parse('$.roles.openRoleNames[0]: expected a string, got the integer 1')
    ],
    [
      'open roles without names',
      create({ roles: `{"script":"OpenRole","policyId":"${POLICY}"}` }),
      parse('$.roles: missing required key "openRoleNames"')
    ],
    [
      'open roles without a policy',
      create({ roles: '{"script":"OpenRole","openRoleNames":["A"]}' }),
      parse('$.roles: missing required key "policyId"')
    ],
    [
      'a role config a number',
      create({ roles: '{"A":5}' }),
      parse(`$.roles.A: expected ${CONFIG_WHAT}, got the integer 5`)
    ],
    [
      'a role config with none of its keys',
      create({ roles: '{"A":{"metadata":null}}' }),
      parse('$.roles.A: expected one of the keys "recipients", "address" or "script"')
    ],
    [
      'a role config with another script',
      create({ roles: '{"A":{"script":"Other"}}' }),
      parse('$.roles.A.script: expected "OpenRole", got the string "Other"')
    ],
    [
      'recipients an array',
      create({ roles: '{"A":{"recipients":[]}}' }),
      parse('$.roles.A.recipients: expected an object of recipients, got an array of 0')
    ],
    [
      'a negative quantity',
      create({ roles: '{"A":{"recipients":{"OpenRole":-1}}}' }),
      parse(`$.roles.A.recipients.OpenRole: expected ${QUANTITY_WHAT}, got the integer -1`)
    ],
    [
      'a quantity of 2^63 (mint quantities are int64)',
      create({ roles: '{"A":{"recipients":{"OpenRole":9223372036854775808}}}' }),
      parse(`$.roles.A.recipients.OpenRole: expected ${QUANTITY_WHAT}, got the integer 9223372036854775808`)
    ],
    [
      'a decimal quantity',
      create({ roles: '{"A":{"recipients":{"OpenRole":1.5}}}' }),
      parse(`$.roles.A.recipients.OpenRole: expected ${QUANTITY_WHAT}, got the number 1.5`)
    ],
    [
      'a role with __proto__ as its name',
      create({ roles: '{"__proto__":"OpenRole"}' }),
      parse('$.roles: the key "__proto__" is not supported')
    ],
    [
      'token metadata a string',
      create({ roles: '{"A":{"script":"OpenRole","metadata":"x"}}' }),
      parse('$.roles.A.metadata: expected an object, got the string "x"')
    ],
    [
      'token metadata without image',
      create({ roles: '{"A":{"script":"OpenRole","metadata":{"name":"A"}}}' }),
      parse('$.roles.A.metadata: missing required key "image"')
    ],
    [
      'token metadata with a name not text',
      create({ roles: '{"A":{"script":"OpenRole","metadata":{"name":5,"image":"ipfs://x"}}}' }),
      parse('$.roles.A.metadata.name: expected a string, got the integer 5')
    ],
    [
      'token metadata image not a URI',
      create({ roles: '{"A":{"script":"OpenRole","metadata":{"name":"A","image":"just words"}}}' }),
      parse(
        '$.roles.A.metadata.image: expected an absolute URI such as "ipfs://…" or "https://…", got the string "just words"'
      )
    ],
    [
      'token metadata files not a list',
      create({ roles: `{"A":{"script":"OpenRole","metadata":${meta(',"files":{}')}}}` }),
      parse('$.roles.A.metadata.files: expected an array of files, got an empty object')
    ],
    [
      'a token file without src',
      create({ roles: `{"A":{"script":"OpenRole","metadata":${meta(',"files":[{"name":"f","mediaType":"a/b"}]')}}}` }),
      parse('$.roles.A.metadata.files[0]: missing required key "src"')
    ],
    [
      'accounts an array',
      create({ accounts: '[]' }),
      parse('$.accounts: expected an object of accounts, got an array of 0')
    ],
    [
      'an account a number',
      create({ accounts: '{"A":5}' }),
      parse('$.accounts.A: expected an object with "lovelace" and "tokens", got the integer 5')
    ],
    [
      'an account a decimal',
      create({ accounts: '{"A":1.5}' }),
      parse('$.accounts.A: expected an object, got the number 1.5')
    ],
    [
      'an account without lovelace',
      create({ accounts: '{"A":{"tokens":{}}}' }),
      parse('$.accounts.A: missing required key "lovelace"')
    ],
    [
      'decimal lovelace',
      create({ accounts: '{"A":{"lovelace":0.5}}' }),
      parse('$.accounts.A.lovelace: expected an integer, got the number 0.5')
    ],
    [
      'a token policy not hex',
      create({ accounts: '{"A":{"lovelace":1,"tokens":{"zz":{"t":1}}}}' }),
      parse('$.accounts.A.tokens.zz: invalid key: expected a policy id (56 hex digits)')
    ],
    [
      'a token quantity as text',
      create({ accounts: `{"A":{"lovelace":1,"tokens":{"${POLICY}":{"t":"1"}}}}` }),
      parse(`$.accounts.A.tokens.${POLICY}.t: expected an integer, got the string "1"`)
    ]
  ]
  test.each(cases)('%s', (_name, text, expected) => {
    const e = engineError(() => decodeCreateContractBody(body(text)), expected)
    expect(e.details.path).toBe(e.message.slice(0, e.message.indexOf(': ')))
  })
})

describe('POST /contracts body: values Runtime refuses in its DTO conversion are BadRequest', () => {
  const cases: Array<[string, string, Expected, BodyOptions?]> = [
    [
      'version v2',
      create({ version: '"v2"' }),
      bad('Unsupported Marlowe version: $.version: "v2" is not supported; the only version is "v1"')
    ],
    ['version V1', create({ version: '"V1"' }), bad(/^Unsupported Marlowe version: \$\.version: "V1"/)],
    [
      'roles an empty map',
      create({ roles: '{}' }),
      bad('Invalid roles value: $.roles: no roles to mint: the object is empty')
    ],
    [
      'a role for a broken address',
      create({ roles: '{"A":"addr_test1zz"}' }),
      bad('Invalid roles value: $.roles.A: not a bech32 string')
    ],
    [
      'a role for a Byron-looking address',
      create({ roles: '{"A":"Ae2tdPwUPEZ"}' }),
      bad(/^Invalid roles value: \$\.roles\.A: not a bech32 string: it looks like a base58 Byron address/)
    ],
    [
      'a role for a stake address',
      create({ roles: `{"A":"${stakeAddress(false)}"}` }),
      bad('Invalid roles value: $.roles.A: reward (stake) addresses cannot be Marlowe parties')
    ],
    [
      'no recipients',
      create({ roles: '{"A":{"recipients":{}}}' }),
      bad('Invalid roles value: $.roles.A.recipients: no recipients: name at least one address or "OpenRole"')
    ],
    [
      'a recipient that is not an address',
      create({ roles: '{"A":{"recipients":{"not-an-address":1}}}' }),
      bad('Invalid roles value: $.roles.A.recipients["not-an-address"]: not a bech32 string')
    ],
    [
      '"OpenRole" as an address',
      create({ roles: '{"A":{"address":"OpenRole"}}' }),
      bad('Invalid roles value: $.roles.A.address: not a bech32 string: it mixes upper and lower case')
    ],
    [
      'a testnet address on mainnet',
      create({ roles: `{"A":"${TESTNET_ADDRESS}"}` }),
      bad('Invalid roles value: $.roles.A: a testnet address, but this service runs on mainnet'),
      { networkId: 1 }
    ],
    [
      'a token name over 64 bytes',
      create({ roles: `{"A":{"script":"OpenRole","metadata":{"name":"${'n'.repeat(65)}","image":"ipfs://x"}}}` }),
      bad('Invalid roles value: $.roles.A.metadata.name: text longer than 64 bytes')
    ],
    [
      'a media type without a subtype',
      create({ roles: `{"A":{"script":"OpenRole","metadata":${meta(',"mediaType":"png"')}}}` }),
      bad('Invalid roles value: $.roles.A.metadata.mediaType: "png" is not a media type')
    ],
    [
      'a file media type without a subtype',
      create({
        roles: `{"A":{"script":"OpenRole","metadata":${meta(',"files":[{"name":"f","src":"ipfs://y","mediaType":"x"}]')}}}`
      }),
      bad('Invalid roles value: $.roles.A.metadata.files[0].mediaType: "x" is not a media type')
    ],
    [
      'an extra metadata key holding null',
      create({ roles: `{"A":{"script":"OpenRole","metadata":${meta(',"artist":null')}}}` }),
      bad('Invalid roles value: $.roles.A.metadata.artist: null is not allowed in metadata')
    ],
    [
      'negative lovelace',
      create({ accounts: '{"A":{"lovelace":-1}}' }),
      bad('Invalid initial accounts: $.accounts.A.lovelace: a balance must not be negative')
    ],
    [
      'an empty account',
      create({ accounts: '{"A":{"lovelace":0,"tokens":{}}}' }),
      bad('Invalid initial accounts: $.accounts.A: the account is empty: give it lovelace or tokens')
    ],
    [
      'a zero token balance',
      create({ accounts: `{"A":{"lovelace":1,"tokens":{"${POLICY}":{"t":0}}}}` }),
      bad(`Invalid initial accounts: $.accounts.A.tokens.${POLICY}.t: a token balance must be positive`)
    ],
    [
      'a token name over 32 bytes',
      create({ accounts: `{"A":{"lovelace":1,"tokens":{"${POLICY}":{"${'t'.repeat(33)}":1}}}}` }),
      bad(/^Invalid initial accounts: .*: the token name is 33 bytes in UTF-8, over the limit of 32$/)
    ],
    [
      'a role name over 32 bytes',
      create({ accounts: `{"${'r'.repeat(33)}":{"lovelace":1}}` }),
      bad(/^Invalid initial accounts: \$\.accounts\.r+: the role name is 33 bytes in UTF-8, over the limit of 32$/)
    ],
    [
      'a broken address as an account',
      create({ accounts: '{"addr_test1zz":{"lovelace":1}}' }),
      bad('Invalid initial accounts: $.accounts.addr_test1zz: not a bech32 string')
    ],
    [
      'a mainnet account on a testnet',
      create({ accounts: `{"${MAINNET_ADDRESS}":{"lovelace":1}}` }),
      bad(/^Invalid initial accounts: \$\.accounts\.addr1\w+: a mainnet address, but this service runs on a testnet$/),
      { networkId: 0 }
    ],
    [
      'metadata null',
      create({ metadata: '{"1":null}' }),
      bad('Invalid metadata value: $.metadata["1"]: null is not allowed in metadata')
    ],
    [
      'metadata a boolean',
      create({ metadata: '{"674":{"ok":true}}' }),
      bad('Invalid metadata value: $.metadata["674"].ok: booleans are not allowed in metadata')
    ],
    [
      'metadata a decimal',
      create({ metadata: '{"674":[1.5]}' }),
      bad('Invalid metadata value: $.metadata["674"][0]: metadata numbers must be integers')
    ],
    [
      'metadata text over 64 bytes',
      create({ metadata: `{"674":"${'x'.repeat(65)}"}` }),
      bad('Invalid metadata value: $.metadata["674"]: text longer than 64 bytes')
    ],
    [
      'a metadata integer of 2^64',
      create({ metadata: '{"674":18446744073709551616}' }),
      bad('Invalid metadata value: $.metadata["674"]: integer outside ±(2^64 - 1)')
    ],
    [
      'a tag payload over 64 bytes',
      create({ tags: `{"t":"${'x'.repeat(65)}"}` }),
      bad('Invalid tags value: $.tags.t: text longer than 64 bytes')
    ],
    [
      'a tag payload a boolean',
      create({ tags: '{"t":false}' }),
      bad('Invalid tags value: $.tags.t: booleans are not allowed in metadata')
    ],
    [
      'a tag with a lone surrogate',
      create({ tags: '{"\\ud800":null}' }),
      bad('Invalid tags value: $.tags["\\ud800"]: the tag is not valid Unicode text')
    ]
  ]
  test.each(cases)('%s', (_name, text, expected, options) => {
    const e = engineError(() => decodeCreateContractBody(body(text), options), expected)
    expect(typeof e.details.path).toBe('string')
    expect(typeof e.details.reason).toBe('string')
  })

  test('a contract source id is passed on (lowercased) for the service to look up in its store', () => {
    expect(decodeCreateContractBody(body(create({ contract: `"${'AB'.repeat(32)}"` })))).toEqual({
      sourceId: 'ab'.repeat(32),
      tags: {},
      metadata: {}
    })
  })

  test('shape errors come before value errors, as Runtime parses the whole body first', () => {
    engineError(() => decodeCreateContractBody(body(create({ version: '"v2"', tags: undefined }))), {
      code: 'RequestBodyParseError',
      message: '$: missing required key "tags"'
    })
  })

  test("value errors come in Runtime's order: version, roles, accounts, metadata, tags; then the contract source", () => {
    const all = {
      roles: '{}',
      accounts: '{"A":{"lovelace":0}}',
      metadata: '{"1":null}',
      tags: '{"t":true}',
      contract: `"${'a'.repeat(64)}"`
    }
    engineError(() => decodeCreateContractBody(body(create({ ...all, version: '"v2"' }))), bad(/^Unsupported/))
    engineError(() => decodeCreateContractBody(body(create(all))), bad(/^Invalid roles value/))
    const noRoles = { ...all, roles: undefined }
    engineError(() => decodeCreateContractBody(body(create(noRoles))), bad(/^Invalid initial accounts/))
    const noAccounts = { ...noRoles, accounts: undefined }
    engineError(() => decodeCreateContractBody(body(create(noAccounts))), bad(/^Invalid metadata value/))
    engineError(() => decodeCreateContractBody(body(create({ ...noAccounts, metadata: '{}' }))), bad(/^Invalid tags/))
    expect(decodeCreateContractBody(body(create({ ...noAccounts, metadata: '{}', tags: '{}' })))).toMatchObject({
      sourceId: 'a'.repeat(64)
    })
  })
})

describe('POST /contracts body: conversions', () => {
  test('the minimal body: Close, empty tags and metadata, nothing else', () => {
    expect(decodeCreateContractBody(body(create()))).toEqual({ contract: { type: 'Close' }, tags: {}, metadata: {} })
  })

  test('null optional fields read as absent and unknown keys are ignored', () => {
    const text = create({
      roles: 'null',
      accounts: 'null',
      threadTokenName: 'null',
      minUTxODeposit: 'null',
      threadRoleName: '"ignored"',
      sourceId: '5'
    })
    expect(decodeCreateContractBody(body(text))).toEqual({ contract: { type: 'Close' }, tags: {}, metadata: {} })
  })

  test('integers above 2^53 survive exactly, wherever they are', () => {
    const contract =
      '{"when":[{"case":{"deposits":' +
      ABOVE_2_53 +
      ',"party":{"role_token":"A"},"of_token":{"currency_symbol":"","token_name":""},"into_account":{"role_token":"A"}},' +
      '"then":"close"}],"timeout":' +
      ABOVE_2_53 +
      ',"timeout_continuation":"close"}'
    const decoded = decodeCreateContractBody(
      body(
        create({
          contract,
          minUTxODeposit: '18446744073709552000',
          metadata: `{"18446744073709551615":${ABOVE_2_53}}`,
          tags: `{"t":{"n":${ABOVE_2_53}}}`,
          roles: `{"A":{"recipients":{"OpenRole":9223372036854775807}}}`,
          accounts: `{"A":{"lovelace":${ABOVE_2_53},"tokens":{"${POLICY}":{"t":${BIG}}}}}`
        })
      )
    )
    expect(decoded.minUTxODeposit).toBe(18446744073709552000n)
    expect(decoded.metadata?.['18446744073709551615']).toBe(9007199254740993n)
    expect(decoded.tags?.t).toEqual({ n: 9007199254740993n })
    expect(decoded.roles).toEqual({
      type: 'Mint',
      roles: [{ name: 'A', recipients: [{ destination: { openRole: true }, quantity: 9223372036854775807n }] }]
    })
    expect(decoded.accounts).toEqual([
      { party: { type: 'Role', role: 'A' }, token: ADA, amount: 9007199254740993n },
      {
        party: { type: 'Role', role: 'A' },
        token: { currencySymbol: POLICY, tokenName: 't' },
        amount: BigInt(BIG)
      }
    ])
    expect(decoded).toMatchObject({ contract: { type: 'When', timeout: 9007199254740993n } })
    expect(decoded).toMatchObject({ contract: { cases: [{ action: { value: 9007199254740993n } }] } })
  })

  test('tag and metadata values pass through untouched (the builder converts them)', () => {
    const parsed = body(create({ tags: '{"t":{"k":["0x00ff",-7]}}', metadata: '{"7":[{"1":"x"}]}' }))
    const decoded = decodeCreateContractBody(parsed)
    expect(decoded.tags).toEqual({ t: { k: ['0x00ff', -7n] } })
    expect(decoded.metadata).toEqual({ 7: [{ 1: 'x' }] })
    const tags = isJsonObject(parsed) ? parsed.tags : undefined
    expect(decoded.tags?.t).toBe(tags !== undefined && isJsonObject(tags) ? tags.t : 'not found')
  })

  test('roles: a policy id (lowercased) uses existing tokens', () => {
    const decoded = decodeCreateContractBody(body(create({ roles: `"${POLICY.toUpperCase()}"` })))
    expect(decoded.roles).toEqual({ type: 'UsePolicy', policyId: POLICY })
  })

  test('roles: the open-role form sends the named roles to the open-role validator', () => {
    const text = create({ roles: `{"script":"OpenRole","policyId":"${POLICY}","openRoleNames":["A","B"]}` })
    expect(decodeCreateContractBody(body(text)).roles).toEqual({
      type: 'UsePolicy',
      policyId: POLICY,
      openRoles: ['A', 'B']
    })
  })

  test('roles: a map mints, with every recipient form, in key order', () => {
    const roles = {
      Open: '"OpenRole"',
      Addr: `"${TESTNET_ADDRESS.toUpperCase()}"`,
      Script: `{"script":"OpenRole","metadata":${meta('')}}`,
      Advanced: `{"address":"${TESTNET_ADDRESS_2}"}`,
      Many: `{"recipients":{"${TESTNET_ADDRESS}":2,"OpenRole":1,"${TESTNET_ADDRESS_2}":0},"address":"ignored","script":"OpenRole"}`,
      // A role literally named "script" in a mint map: only script + policyId/openRoleNames means the open form.
      script: '"OpenRole"'
    }
    const text = create({ roles: `{${Object.entries(roles).map(([k, v]) => `"${k}":${v}`)}}` })
    expect(decodeCreateContractBody(body(text)).roles).toEqual({
      type: 'Mint',
      roles: [
        { name: 'Open', recipients: [{ destination: { openRole: true }, quantity: 1n }] },
        { name: 'Addr', recipients: [{ destination: { address: TESTNET_ADDRESS }, quantity: 1n }] },
        {
          name: 'Script',
          recipients: [{ destination: { openRole: true }, quantity: 1n }],
          metadata: { name: 'Buyer token', image: 'ipfs://QmX' }
        },
        { name: 'Advanced', recipients: [{ destination: { address: TESTNET_ADDRESS_2 }, quantity: 1n }] },
        {
          name: 'Many',
          recipients: [
            { destination: { address: TESTNET_ADDRESS }, quantity: 2n },
            { destination: { openRole: true }, quantity: 1n },
            { destination: { address: TESTNET_ADDRESS_2 }, quantity: 0n }
          ]
        },
        { name: 'script', recipients: [{ destination: { openRole: true }, quantity: 1n }] }
      ]
    })
  })

  test('roles: token metadata keeps optional fields, files and extra keys', () => {
    const metadata = meta(
      ',"mediaType":"image/png","description":"d","files":[{"name":"f","src":"https://x/y","mediaType":"text/plain","size":3}],"artist":{"n":1},"mediaTypeX":null'
    )
    const text = create({
      roles: `{"A":{"address":"${TESTNET_ADDRESS}","metadata":${metadata.replace(',"mediaTypeX":null', '')}}}`
    })
    const roles = decodeCreateContractBody(body(text)).roles
    expect(roles).toEqual({
      type: 'Mint',
      roles: [
        {
          name: 'A',
          recipients: [{ destination: { address: TESTNET_ADDRESS }, quantity: 1n }],
          metadata: {
            name: 'Buyer token',
            image: 'ipfs://QmX',
            mediaType: 'image/png',
            description: 'd',
            files: [{ name: 'f', src: 'https://x/y', mediaType: 'text/plain', extra: { size: 3n } }],
            extra: { artist: { n: 1n } }
          }
        }
      ]
    })
  })

  test('accounts: address keys become address parties (lowercase), other keys role parties', () => {
    const text = create({
      accounts: `{"${TESTNET_ADDRESS.toUpperCase()}":{"lovelace":5,"tokens":{}},"Buyer":{"lovelace":0,"tokens":{"${POLICY.toUpperCase()}":{"t":7}}}}`
    })
    expect(decodeCreateContractBody(body(text), { networkId: 0 }).accounts).toEqual([
      { party: { type: 'Address', address: TESTNET_ADDRESS }, token: ADA, amount: 5n },
      { party: { type: 'Role', role: 'Buyer' }, token: { currencySymbol: POLICY, tokenName: 't' }, amount: 7n }
    ])
  })

  test('threadTokenName and minUTxODeposit are passed on', () => {
    const decoded = decodeCreateContractBody(body(create({ threadTokenName: '"Thread"', minUTxODeposit: '0' })))
    expect(decoded.threadTokenName).toBe('Thread')
    expect(decoded.minUTxODeposit).toBe(0n)
  })
})

describe('POST /contracts/{id}/transactions body', () => {
  const cases: Array<[string, string, Expected]> = [
    ['no version', apply({ version: undefined }), parse('$: missing required key "version"')],
    ['no inputs', apply({ inputs: undefined }), parse('$: missing required key "inputs"')],
    ['no tags', apply({ tags: undefined }), parse('$: missing required key "tags"')],
    ['no metadata', apply({ metadata: undefined }), parse('$: missing required key "metadata"')],
    ['inputs an object', apply({ inputs: '{}' }), parse('$.inputs: expected an array of inputs, got an empty object')],
    [
      'an input a number',
      apply({ inputs: '[5]' }),
      parse('$.inputs[0]: expected an input ("input_notify", a deposit or a choice), got the integer 5')
    ],
    [
      'a deposit of a decimal',
      apply({
        inputs:
          '[{"input_from_party":{"role_token":"A"},"that_deposits":1.5,"of_token":{"currency_symbol":"","token_name":""},"into_account":{"role_token":"A"}}]'
      }),
      parse('$.inputs[0].that_deposits: expected an integer, got the number 1.5')
    ],
    [
      'invalidBefore a number',
      apply({ invalidBefore: '1700000000000' }),
      parse('$.invalidBefore: expected an ISO-8601 time such as "2024-01-31T12:00:00Z", got the integer 1700000000000')
    ],
    [
      'invalidBefore a date only',
      apply({ invalidBefore: '"2024-01-31"' }),
      parse('$.invalidBefore: expected an ISO-8601 time such as "2024-01-31T12:00:00Z", got "2024-01-31"')
    ],
    [
      'invalidHereafter on 30 February',
      apply({ invalidHereafter: '"2024-02-30T00:00:00Z"' }),
      parse('$.invalidHereafter: day 30 does not exist in 2024-02')
    ],
    [
      'invalidHereafter at hour 24',
      apply({ invalidHereafter: '"2024-02-01T24:00:00Z"' }),
      parse('$.invalidHereafter: time of day 24:00:00 is not valid')
    ],
    ['version v0', apply({ version: '"v0"' }), bad(/^Unsupported Marlowe version: \$\.version: "v0"/)],
    ['tags a boolean payload', apply({ tags: '{"t":true}' }), bad(/^Invalid tags value: \$\.tags\.t: booleans/)],
    ['metadata null', apply({ metadata: '{"5":null}' }), bad(/^Invalid metadata value: \$\.metadata\["5"\]: null/)]
  ]
  test.each(cases)('%s', (_name, text, expected) => {
    engineError(() => decodeApplyInputsBody(body(text)), expected)
  })

  test('inputs, tags, metadata and the validity interval (ISO → POSIX ms)', () => {
    const text = apply({
      inputs: `["input_notify",{"for_choice_id":{"choice_name":"c","choice_owner":{"role_token":"A"}},"input_that_chooses_num":${ABOVE_2_53}}]`,
      tags: '{"t":null}',
      invalidBefore: '"2024-01-31T12:00:00.5Z"',
      invalidHereafter: '"2024-01-31T13:00:00+01:00"'
    })
    expect(decodeApplyInputsBody(body(text))).toEqual({
      inputs: [
        { content: { type: 'INotify' } },
        {
          content: {
            type: 'IChoice',
            choice: { name: 'c', owner: { type: 'Role', role: 'A' } },
            chosen: 9007199254740993n
          }
        }
      ],
      tags: { t: null },
      metadata: {},
      invalidBefore: 1706702400500n,
      invalidHereafter: 1706702400000n
    })
  })

  test('an empty input list and null times', () => {
    expect(decodeApplyInputsBody(body(apply({ invalidBefore: 'null', invalidHereafter: 'null' })))).toEqual({
      inputs: [],
      tags: {},
      metadata: {}
    })
  })
})

describe('POST /withdrawals body', () => {
  const cases: Array<[string, string, Expected]> = [
    ['an array body', '[]', parse('$: expected an object, got an array of 0')],
    ['no payouts', '{}', parse('$: missing required key "payouts"')],
    [
      'payouts a string',
      `{"payouts":"${TX}#1"}`,
      parse(/^\$\.payouts: expected an array of payout references, got the string/)
    ],
    [
      'a payout not a string',
      '{"payouts":[1]}',
      parse('$.payouts[0]: expected a UTxO reference "<64 hex digits>#<output index>", got the integer 1')
    ],
    ['a bare transaction id', `{"payouts":["${TX}"]}`, parse(/^\$\.payouts\[0\]: expected a UTxO reference/)],
    ['an encoded #', `{"payouts":["${TX}%231"]}`, parse(/^\$\.payouts\[0\]: expected a UTxO reference/)],
    [
      'an output index above 65535',
      `{"payouts":["${TX}#65536"]}`,
      parse('$.payouts[0]: Expected [a-fA-F0-9]{64}#[0-9]+ (the output index must be at most 65535)')
    ],
    [
      'no payouts at all',
      '{"payouts":[]}',
      { code: 'EmptyPayouts', message: 'Invalid payouts: $.payouts: no payouts to withdraw' }
    ]
  ]
  test.each(cases)('%s', (_name, text, expected) => {
    engineError(() => decodeWithdrawBody(body(text)), expected)
  })

  test('payouts are a set: duplicates (in any case) collapse, order kept', () => {
    const other = 'd1'.repeat(32)
    const text = `{"payouts":["${TX.toUpperCase()}#1","${other}#0","${TX}#1","${TX}#01"]}`
    expect(decodeWithdrawBody(body(text))).toEqual({
      payouts: [
        { txId: TX, index: 1 },
        { txId: other, index: 0 }
      ]
    })
  })
})

describe('PUT bodies: TextEnvelope', () => {
  const cases: Array<[string, string, Expected]> = [
    ['no type', '{"description":"","cborHex":""}', parse('$: missing required key "type"')],
    ['no description', '{"type":"Tx ConwayEra","cborHex":""}', parse('$: missing required key "description"')],
    ['no cborHex', '{"type":"Tx ConwayEra","description":""}', parse('$: missing required key "cborHex"')],
    [
      'description null',
      '{"type":"Tx ConwayEra","description":null,"cborHex":""}',
      parse('$.description: expected a string, got null')
    ],
    [
      'type a number',
      '{"type":1,"description":"","cborHex":""}',
      parse('$.type: expected a string, got the integer 1')
    ],
    [
      'odd-length hex',
      '{"type":"Tx ConwayEra","description":"","cborHex":"abc"}',
      parse('$.cborHex: expected hex (an even number of hex digits), got the string "abc"')
    ],
    [
      'not hex',
      '{"type":"Tx ConwayEra","description":"","cborHex":"zz"}',
      parse('$.cborHex: expected hex (an even number of hex digits), got the string "zz"')
    ]
  ]
  test.each(cases)('%s', (_name, text, expected) => {
    engineError(() => decodeTextEnvelopeBody(body(text)), expected)
  })

  test('all three fields, hex lowercased; extra keys ignored', () => {
    const text = '{"type":"ShelleyTxWitness ConwayEra","description":"","cborHex":"A1B2","x":1}'
    expect(decodeTextEnvelopeBody(body(text))).toEqual({
      type: 'ShelleyTxWitness ConwayEra',
      description: '',
      cborHex: 'a1b2'
    })
  })
})
