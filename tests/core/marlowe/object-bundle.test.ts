import { describe, expect, test } from 'vitest'
import { parseJson, type JsonValue } from '../../../src/core/json/lossless'
import { decodeContract } from '../../../src/core/marlowe/json/decode'
import { deepMerkleize, expandContract, merkleizeInputs } from '../../../src/core/marlowe/merkle'
import {
  BUNDLE_LIMITS,
  BundleError,
  linkBundle,
  readBundle,
  type BundleErrorKind,
  type LabelledObject
} from '../../../src/core/marlowe/object-bundle'
import { merkleHash } from '../../../src/core/marlowe/plutus/hash'
import { emptyState, type Contract } from '../../../src/core/marlowe/types'

const nothingStored = () => false

/** A bundle from JSON text (lossless: amounts stay bigints). */
const bundle = (text: string): LabelledObject[] => readBundle(parseJson(text), '$')

const ALICE = '{"role_token":"Alice"}'
const ADA = '{"currency_symbol":"","token_name":""}'

/** Alice deposits `price`, then Bob chooses 1, then `price` is paid to Bob: two merkleized steps. */
const ESCROW = `[
  {"label":"alice","type":"party","value":${ALICE}},
  {"label":"bob","type":"party","value":{"role_token":"Bob"}},
  {"label":"ada","type":"token","value":${ADA}},
  {"label":"price","type":"value","value":123456789012345678901234567890},
  {"label":"pay","type":"contract","value":{"from_account":{"ref":"alice"},"to":{"party":{"ref":"bob"}},
    "token":{"ref":"ada"},"pay":{"ref":"price"},"then":"close"}},
  {"label":"choose","type":"contract","value":{"when":[{"case":{"for_choice":{"choice_name":"ok",
    "choice_owner":{"ref":"bob"}},"choose_between":[{"from":1,"to":1}]},"then":{"ref":"pay"}}],
    "timeout":2000,"timeout_continuation":"close"}},
  {"label":"deposit","type":"action","value":{"into_account":{"ref":"alice"},"party":{"ref":"alice"},
    "of_token":{"ref":"ada"},"deposits":{"ref":"price"}}},
  {"label":"main","type":"contract","value":{"when":[{"case":{"ref":"deposit"},"then":{"ref":"choose"}}],
    "timeout":1000,"timeout_continuation":"close"}}
]`

/** The same escrow written out in core JSON. */
const ESCROW_CORE: Contract = decodeContract(
  parseJson(`{"when":[{"case":{"into_account":${ALICE},"party":${ALICE},"of_token":${ADA},
    "deposits":123456789012345678901234567890},"then":{"when":[{"case":{"for_choice":{"choice_name":"ok",
    "choice_owner":{"role_token":"Bob"}},"choose_between":[{"from":1,"to":1}]},"then":{"from_account":${ALICE},
    "to":{"party":{"role_token":"Bob"}},"token":${ADA},"pay":123456789012345678901234567890,"then":"close"}}],
    "timeout":2000,"timeout_continuation":"close"}}],"timeout":1000,"timeout_continuation":"close"}`)
)

function refused(objects: readonly LabelledObject[], kind: BundleErrorKind, known = nothingStored): BundleError {
  try {
    linkBundle(objects, known)
  } catch (e) {
    expect(e).toBeInstanceOf(BundleError)
    expect((e as BundleError).kind).toBe(kind)
    return e as BundleError
  }
  throw new Error('the bundle was linked')
}

describe('linking an object bundle', () => {
  test("each contract object's id is the merkle hash of the contract merkleized as Runtime stores it", () => {
    const linked = linkBundle(bundle(ESCROW), nothingStored)
    const merkleized = deepMerkleize(ESCROW_CORE)
    const mainId = merkleHash(merkleized.contract)
    expect(linked.ids.get('main')).toBe(mainId)
    expect([...linked.ids.keys()]).toEqual(['pay', 'choose', 'main'])
    // Every continuation and every contract object is stored; `pay` is both.
    expect(linked.contracts.get(mainId)).toEqual(merkleized.contract)
    for (const [hash, c] of merkleized.continuations) expect(linked.contracts.get(hash)).toEqual(c)
    expect(linked.contracts.size).toBe(3)
    // Expanding from the store gives back the contract the bundle describes, big amount exact.
    expect(expandContract(merkleized.contract, (h) => linked.contracts.get(h), 1000)).toEqual(ESCROW_CORE)
  })

  test('a merkleized case may name a contract already stored; one not stored is refused', () => {
    const stored = linkBundle(bundle(ESCROW), nothingStored)
    const payId = stored.ids.get('pay')!
    const objects = bundle(`[{"label":"m","type":"contract","value":{"when":[{"case":{"notify_if":true},
      "merkleized_then":"${payId.toUpperCase()}"}],"timeout":5,"timeout_continuation":"close"}}]`)
    expect(linkBundle(objects, (h) => stored.contracts.has(h)).ids.get('m')).toMatch(/^[0-9a-f]{64}$/)
    const e = refused(objects, 'ContinuationNotInStore')
    expect(e.message).toBe('Merkleized continuation not in store.')
    expect(e.details).toBe(payId)
  })

  test("Runtime's reasons: unknown symbol, a use before the definition (no cycles), duplicate, type mismatch", () => {
    expect(
      refused(bundle('[{"label":"c","type":"contract","value":{"ref":"nowhere"}}]'), 'UnknownSymbol').details
    ).toBe('nowhere')
    const selfLoop = '[{"label":"loop","type":"contract","value":{"assert":true,"then":{"ref":"loop"}}}]'
    expect(refused(bundle(selfLoop), 'UnknownSymbol').message).toBe('Symbol not defined.')
    const twoWay = `[{"label":"a","type":"contract","value":{"assert":true,"then":{"ref":"b"}}},
      {"label":"b","type":"contract","value":{"assert":true,"then":{"ref":"a"}}}]`
    expect(refused(bundle(twoWay), 'UnknownSymbol').details).toBe('b')
    const twice = '[{"label":"x","type":"value","value":1},{"label":"x","type":"value","value":2}]'
    expect(refused(bundle(twice), 'DuplicateLabel').details).toBe('x')
    const mismatch = `[{"label":"v","type":"value","value":1},
      {"label":"c","type":"contract","value":{"assert":{"ref":"v"},"then":"close"}}]`
    const e = refused(bundle(mismatch), 'TypeMismatch')
    expect(e.message).toBe('Type mismatch.')
    expect(e.details).toEqual({ expected: 'observation', actual: 'value' })
  })

  test('malformed objects are refused with the path of the problem', () => {
    expect(() => readBundle(parseJson('{"label":"x"}'), '$')).toThrow(/^\$: expected a bundle/)
    expect(() => bundle('[{"label":"x","type":"thing","value":1}]')).toThrow(/^\$\[0\]\.type: expected one of/)
    const badValue = bundle('[{"label":"c","type":"contract","value":{"assert":true}}]')
    expect(refused(badValue, 'Malformed').message).toMatch(/objects\["c"\]/)
  })

  test('what the bundle expands to is bounded: doubling references and deep chains are refused, not expanded', () => {
    const doubling: JsonValue[] = [{ label: 'v0', type: 'value', value: 1n }]
    for (let i = 1; i <= 25; i += 1) {
      doubling.push({ label: `v${i}`, type: 'value', value: { add: { ref: `v${i - 1}` }, and: { ref: `v${i - 1}` } } })
    }
    expect(refused(readBundle(doubling, '$'), 'TooLarge').message).toMatch(/expands to more than 50000 JSON nodes/)

    const chain: JsonValue[] = [{ label: 'c0', type: 'contract', value: 'close' }]
    for (let i = 1; i <= BUNDLE_LIMITS.maxExpandedDepth; i += 1) {
      chain.push({ label: `c${i}`, type: 'contract', value: { assert: true, then: { ref: `c${i - 1}` } } })
    }
    // Each link of a chain without cases expands to the whole chain below it.
    expect(refused(readBundle(chain, '$'), 'TooLarge').message).toMatch(/JSON (nodes|levels)/)

    const many = Array.from({ length: BUNDLE_LIMITS.maxObjects + 1 }, (_, i) => ({
      label: `x${i}`,
      type: 'value' as const,
      value: 1n
    }))
    expect(refused(many, 'TooLarge').message).toMatch(/5001 objects/)
  })

  test('a long schedule of cases deeper than one JSON document may nest links and merkleizes', () => {
    const steps: JsonValue[] = [{ label: 's0', type: 'contract', value: 'close' }]
    for (let i = 1; i <= 600; i += 1) {
      steps.push({
        label: `s${i}`,
        type: 'contract',
        value: {
          when: [{ case: { notify_if: true }, then: { ref: `s${i - 1}` } }],
          timeout: BigInt(i),
          timeout_continuation: 'close'
        }
      })
    }
    const linked = linkBundle(readBundle(steps, '$'), nothingStored)
    // Every step is stored once (s0 is Close): each merkleized step names the one below by hash.
    expect(linked.contracts.size).toBe(601)
    expect(linked.ids.get('s600')).toBe(merkleHash(deepMerkleize(nested(600)).contract))
  })
})

/** The schedule of `n` notify steps written out in one contract. */
function nested(n: number): Contract {
  let c: Contract = { type: 'Close' }
  for (let i = 1; i <= n; i += 1) {
    c = {
      type: 'When',
      cases: [{ type: 'Case', action: { type: 'Notify', observation: true }, then: c }],
      timeout: BigInt(i),
      timeoutContinuation: { type: 'Close' }
    }
  }
  return c
}

describe('merkleizeInputs', () => {
  const { contract, continuations } = deepMerkleize(ESCROW_CORE)
  const lookup = (h: string) => continuations.get(h)
  const deposit = {
    content: {
      type: 'IDeposit' as const,
      account: { type: 'Role' as const, role: 'Alice' },
      party: { type: 'Role' as const, role: 'Alice' },
      token: { currencySymbol: '', tokenName: '' },
      amount: 123456789012345678901234567890n
    }
  }
  const choice = {
    content: {
      type: 'IChoice' as const,
      choice: { name: 'ok', owner: { type: 'Role' as const, role: 'Bob' } },
      chosen: 1n
    }
  }

  test('each input that takes a merkleized case gets its continuation, in turn', () => {
    const out = merkleizeInputs({ from: 0n, to: 500n }, emptyState(0n), contract, [deposit, choice], lookup)
    if (out.type !== 'Inputs') throw new Error(out.type)
    expect(out.inputs.map((i) => i.merkleized?.hash)).toEqual([...continuations.keys()].reverse())
    expect(out.inputs[1]?.merkleized?.continuation.type).toBe('Pay')
  })

  test('a continuation the store lacks is named; inputs that match nothing are left for the semantics', () => {
    const first = contract.type === 'When' ? contract.cases[0] : undefined
    if (first?.type !== 'MerkleizedCase') throw new Error('the deposit case is merkleized')
    expect(merkleizeInputs({ from: 0n, to: 500n }, emptyState(0n), contract, [deposit], () => undefined)).toEqual({
      type: 'ContinuationNotFound',
      hash: first.hash
    })
    const out = merkleizeInputs({ from: 0n, to: 500n }, emptyState(0n), contract, [choice], lookup)
    expect(out).toEqual({ type: 'Inputs', inputs: [choice] })
  })
})
