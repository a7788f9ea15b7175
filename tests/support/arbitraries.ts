/** fast-check generators for the Marlowe model, for round-trip property tests. */
import fc from 'fast-check'
import { utf8Length } from '../../src/core/bytes'
import { formatShelleyAddress } from '../../src/core/cardano/address'
import type {
  Action,
  Bound,
  Case,
  ChoiceId,
  Contract,
  Input,
  InputContent,
  MarloweData,
  Observation,
  Party,
  Payee,
  State,
  Token,
  Value
} from '../../src/core/marlowe/types'

const hexBytes = (n: number): fc.Arbitrary<string> =>
  fc
    .uint8Array({ minLength: n, maxLength: n })
    .map((b) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join(''))

/** Integers around the interesting edges: small, beyond 2^53, beyond 2^64 (bignum encoding). */
export const integer: fc.Arbitrary<bigint> = fc.oneof(
  fc.bigInt({ min: -1000n, max: 1000n }),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }),
  fc.bigInt({ min: -(10n ** 50n), max: 10n ** 50n })
)

/** Text of at most 32 UTF-8 bytes, some of it non-ASCII. */
export const assetName: fc.Arbitrary<string> = fc
  .oneof(fc.string({ maxLength: 12 }), fc.constantFrom('', 'Buyer', 'Seller', 'Mediator', 'é€😀'))
  .filter((s) => utf8Length(s) >= 0 && utf8Length(s) <= 32)

const credential = fc.record({ type: fc.constantFrom('key' as const, 'script' as const), hash: hexBytes(28) })

export const address: fc.Arbitrary<string> = fc
  .record({ mainnet: fc.boolean(), payment: credential, stake: fc.option(credential, { nil: undefined }) })
  .map(({ mainnet, payment, stake }) =>
    formatShelleyAddress(stake === undefined ? { mainnet, payment } : { mainnet, payment, stake })
  )

export const party: fc.Arbitrary<Party> = fc.oneof(
  address.map((a): Party => ({ type: 'Address', address: a })),
  assetName.map((r): Party => ({ type: 'Role', role: r }))
)

export const token: fc.Arbitrary<Token> = fc.oneof(
  fc.constant({ currencySymbol: '', tokenName: '' }),
  fc.record({ currencySymbol: hexBytes(28), tokenName: assetName })
)

const text = fc.string({ maxLength: 10 }).filter((s) => utf8Length(s) >= 0)
export const choiceId: fc.Arbitrary<ChoiceId> = fc.record({ name: text, owner: party })
const payee: fc.Arbitrary<Payee> = fc.oneof(
  party.map((p): Payee => ({ type: 'Account', account: p })),
  party.map((p): Payee => ({ type: 'Party', party: p }))
)
const bound: fc.Arbitrary<Bound> = fc.record({ from: integer, to: integer })

const { value, observation } = fc.letrec<{ value: Value; observation: Observation }>((tie) => {
  const v = tie('value')
  const o = tie('observation')
  const binary = <T extends 'AddValue' | 'SubValue' | 'MulValue' | 'DivValue'>(type: T) =>
    fc.record({ type: fc.constant(type), left: v, right: v })
  const comparison = <T extends 'ValueGE' | 'ValueGT' | 'ValueLT' | 'ValueLE' | 'ValueEQ'>(type: T) =>
    fc.record({ type: fc.constant(type), left: v, right: v })
  return {
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      integer,
      fc.record({ type: fc.constant('AvailableMoney' as const), account: party, token }),
      fc.constant({ type: 'TimeIntervalStart' as const }),
      fc.constant({ type: 'TimeIntervalEnd' as const }),
      fc.record({ type: fc.constant('UseValue' as const), id: text }),
      fc.record({ type: fc.constant('ChoiceValue' as const), choice: choiceId }),
      fc.record({ type: fc.constant('NegValue' as const), value: v }),
      binary('AddValue'),
      binary('SubValue'),
      binary('MulValue'),
      binary('DivValue'),
      fc.record({ type: fc.constant('Cond' as const), observation: o, then: v, else: v })
    ),
    observation: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.boolean(),
      fc.record({ type: fc.constant('ChoseSomething' as const), choice: choiceId }),
      fc.record({ type: fc.constant('AndObs' as const), left: o, right: o }),
      fc.record({ type: fc.constant('OrObs' as const), left: o, right: o }),
      fc.record({ type: fc.constant('NotObs' as const), observation: o }),
      comparison('ValueGE'),
      comparison('ValueGT'),
      comparison('ValueLT'),
      comparison('ValueLE'),
      comparison('ValueEQ')
    )
  }
})
export { observation, value }

export const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({ type: fc.constant('Deposit' as const), account: party, party, token, value }),
  fc.record({ type: fc.constant('Choice' as const), choice: choiceId, bounds: fc.array(bound, { maxLength: 3 }) }),
  fc.record({ type: fc.constant('Notify' as const), observation })
)

export const contract: fc.Arbitrary<Contract> = fc.letrec<{ contract: Contract; case: Case }>((tie) => {
  const c = tie('contract')
  return {
    contract: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.constant({ type: 'Close' as const }),
      fc.record({ type: fc.constant('Pay' as const), from: party, to: payee, token, value, then: c }),
      fc.record({ type: fc.constant('If' as const), observation, then: c, else: c }),
      fc.record({
        type: fc.constant('When' as const),
        cases: fc.array(tie('case'), { maxLength: 3 }),
        timeout: integer,
        timeoutContinuation: c
      }),
      fc.record({ type: fc.constant('Let' as const), id: text, value, then: c }),
      fc.record({ type: fc.constant('Assert' as const), observation, then: c })
    ),
    case: fc.oneof(
      fc.record({ type: fc.constant('Case' as const), action, then: c }),
      fc.record({ type: fc.constant('MerkleizedCase' as const), action, hash: hexBytes(32) })
    )
  }
}).contract

export const state: fc.Arbitrary<State> = fc.record({
  accounts: fc.array(fc.tuple(fc.record({ account: party, token }), integer), { maxLength: 3 }),
  choices: fc.array(fc.tuple(choiceId, integer), { maxLength: 3 }),
  boundValues: fc.array(fc.tuple(text, integer), { maxLength: 3 }),
  minTime: integer
})

export const marloweData: fc.Arbitrary<MarloweData> = fc.record({
  params: fc.record({ rolesCurrency: fc.oneof(fc.constant(''), hexBytes(28)) }),
  state,
  contract
})

const inputContent: fc.Arbitrary<InputContent> = fc.oneof(
  fc.record({ type: fc.constant('IDeposit' as const), account: party, party, token, amount: integer }),
  fc.record({ type: fc.constant('IChoice' as const), choice: choiceId, chosen: integer }),
  fc.constant({ type: 'INotify' as const })
)

export const input: fc.Arbitrary<Input> = fc.oneof(
  inputContent.map((content): Input => ({ content })),
  fc
    .record({ content: inputContent, hash: hexBytes(32), continuation: contract })
    .map(({ content, hash, continuation }): Input => ({ content, merkleized: { hash, continuation } }))
)
