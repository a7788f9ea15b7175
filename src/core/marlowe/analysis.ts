/** Static facts about a contract: the parties, roles and tokens it mentions, its size and deadlines. */
import { partyEquals, tokenEquals } from './equality'
import type { Action, Contract, Observation, Party, Token, Value } from './types'

export interface ContractFacts {
  /** Every distinct party, in order of first mention. */
  readonly parties: readonly Party[]
  /** Role names, in order of first mention (the role tokens a create must mint or find). */
  readonly roles: readonly string[]
  readonly tokens: readonly Token[]
  /** Timeouts in contract order, including repeats. */
  readonly timeouts: readonly bigint[]
  readonly merkleizedCases: number
  /** Contract nodes (Close, Pay, If, When, Let, Assert). */
  readonly nodes: number
}

class Collector {
  readonly parties: Party[] = []
  readonly tokens: Token[] = []
  readonly timeouts: bigint[] = []
  merkleizedCases = 0
  nodes = 0

  party(p: Party): void {
    if (!this.parties.some((q) => partyEquals(p, q))) this.parties.push(p)
  }

  token(t: Token): void {
    if (!this.tokens.some((u) => tokenEquals(t, u))) this.tokens.push(t)
  }

  value(v: Value): void {
    if (typeof v === 'bigint') return
    switch (v.type) {
      case 'AvailableMoney':
        this.party(v.account)
        this.token(v.token)
        return
      case 'NegValue':
        this.value(v.value)
        return
      case 'AddValue':
      case 'SubValue':
      case 'MulValue':
      case 'DivValue':
        this.value(v.left)
        this.value(v.right)
        return
      case 'ChoiceValue':
        this.party(v.choice.owner)
        return
      case 'Cond':
        this.observation(v.observation)
        this.value(v.then)
        this.value(v.else)
        return
      case 'TimeIntervalStart':
      case 'TimeIntervalEnd':
      case 'UseValue':
        return
    }
  }

  observation(o: Observation): void {
    if (typeof o === 'boolean') return
    switch (o.type) {
      case 'AndObs':
      case 'OrObs':
        this.observation(o.left)
        this.observation(o.right)
        return
      case 'NotObs':
        this.observation(o.observation)
        return
      case 'ChoseSomething':
        this.party(o.choice.owner)
        return
      default:
        this.value(o.left)
        this.value(o.right)
    }
  }

  action(a: Action): void {
    switch (a.type) {
      case 'Deposit':
        this.party(a.party)
        this.party(a.account)
        this.token(a.token)
        this.value(a.value)
        return
      case 'Choice':
        this.party(a.choice.owner)
        return
      case 'Notify':
        this.observation(a.observation)
    }
  }

  contract(root: Contract): void {
    const pending: Contract[] = [root]
    for (let c = pending.pop(); c !== undefined; c = pending.pop()) {
      this.nodes += 1
      switch (c.type) {
        case 'Close':
          break
        case 'Pay':
          this.party(c.from)
          this.party(c.to.type === 'Account' ? c.to.account : c.to.party)
          this.token(c.token)
          this.value(c.value)
          pending.push(c.then)
          break
        case 'If':
          this.observation(c.observation)
          pending.push(c.else, c.then)
          break
        case 'When':
          this.timeouts.push(c.timeout)
          pending.push(c.timeoutContinuation)
          for (let i = c.cases.length - 1; i >= 0; i -= 1) {
            const k = c.cases[i]!
            this.action(k.action)
            if (k.type === 'Case') pending.push(k.then)
            else this.merkleizedCases += 1
          }
          break
        case 'Let':
          this.value(c.value)
          pending.push(c.then)
          break
        case 'Assert':
          this.observation(c.observation)
          pending.push(c.then)
      }
    }
  }
}

/** Walks the contract once (iteratively, so deep contracts cannot overflow the stack). */
export function contractFacts(contract: Contract): ContractFacts {
  const c = new Collector()
  c.contract(contract)
  return {
    parties: c.parties,
    roles: c.parties.flatMap((p) => (p.type === 'Role' ? [p.role] : [])),
    tokens: c.tokens,
    timeouts: c.timeouts,
    merkleizedCases: c.merkleizedCases,
    nodes: c.nodes
  }
}
