/**
 * Evaluation of `Value` and `Observation` against an environment and a state. Integers are unbounded in Marlowe;
 * here every value evaluated, constants and what the state holds included, stays within `MAX_VALUE_BITS`
 * (./limits.ts), or evaluation throws a `ValueTooLargeError`: so no operation ever works on a number longer than
 * the limit, nor makes one longer than twice the limit.
 */
import { moneyInAccount } from './accounts'
import { lookup, member } from './assoc-list'
import { choiceIdEquals } from './equality'
import { withinLimit } from './limits'
import type { Observation, State, TimeInterval, Value, ValueId } from './types'

/** What the semantics knows about the transaction besides the state: its (trimmed) validity interval. */
export interface Environment {
  readonly timeInterval: TimeInterval
}

export function valueIdEquals(a: ValueId, b: ValueId): boolean {
  return a === b
}

/**
 * Every value that can be longer than its operands is checked: constants and what the state or the interval
 * holds, sums, differences and products. A negation, a quotient or a branch is no longer than what it is made of.
 */
export function evalValue(env: Environment, state: State, value: Value): bigint {
  if (typeof value === 'bigint') return withinLimit(value, value)
  switch (value.type) {
    case 'AvailableMoney':
      return withinLimit(value, moneyInAccount(state.accounts, value.account, value.token))
    case 'NegValue':
      return -evalValue(env, state, value.value)
    case 'AddValue':
      return withinLimit(value, evalValue(env, state, value.left) + evalValue(env, state, value.right))
    case 'SubValue':
      return withinLimit(value, evalValue(env, state, value.left) - evalValue(env, state, value.right))
    case 'MulValue':
      return withinLimit(value, evalValue(env, state, value.left) * evalValue(env, state, value.right))
    case 'DivValue': {
      const numerator = evalValue(env, state, value.left)
      const denominator = evalValue(env, state, value.right)
      // Plutus quotientInteger truncates toward zero, as bigint `/` does; the semantics defines x/0 as 0.
      return denominator === 0n ? 0n : numerator / denominator
    }
    case 'ChoiceValue':
      return withinLimit(value, lookup(state.choices, value.choice, choiceIdEquals) ?? 0n)
    case 'TimeIntervalStart':
      return withinLimit(value, env.timeInterval.from)
    case 'TimeIntervalEnd':
      return withinLimit(value, env.timeInterval.to)
    case 'UseValue':
      return withinLimit(value, lookup(state.boundValues, value.id, valueIdEquals) ?? 0n)
    case 'Cond':
      return evalObservation(env, state, value.observation)
        ? evalValue(env, state, value.then)
        : evalValue(env, state, value.else)
  }
}

export function evalObservation(env: Environment, state: State, observation: Observation): boolean {
  if (typeof observation === 'boolean') return observation
  switch (observation.type) {
    case 'AndObs':
      return evalObservation(env, state, observation.left) && evalObservation(env, state, observation.right)
    case 'OrObs':
      return evalObservation(env, state, observation.left) || evalObservation(env, state, observation.right)
    case 'NotObs':
      return !evalObservation(env, state, observation.observation)
    case 'ChoseSomething':
      return member(state.choices, observation.choice, choiceIdEquals)
    case 'ValueGE':
      return evalValue(env, state, observation.left) >= evalValue(env, state, observation.right)
    case 'ValueGT':
      return evalValue(env, state, observation.left) > evalValue(env, state, observation.right)
    case 'ValueLT':
      return evalValue(env, state, observation.left) < evalValue(env, state, observation.right)
    case 'ValueLE':
      return evalValue(env, state, observation.left) <= evalValue(env, state, observation.right)
    case 'ValueEQ':
      return evalValue(env, state, observation.left) === evalValue(env, state, observation.right)
  }
}
