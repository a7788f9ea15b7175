/**
 * Static facts about a contract (and optionally its state): the parties, roles, addresses and tokens it
 * mentions, its merkleized continuation hashes, deadlines and size — what the safety checks, the min-UTxO
 * bound and the CLI's summary need (Haskell `Language.Marlowe.Core.V1.Plate` extractors). One iterative walk,
 * so deep contracts cannot overflow the stack.
 */
import type { Action, Contract, Observation, Party, State, Token, Value } from './types'

export interface ContractFacts {
  /** Every distinct party, in order of first mention. */
  readonly parties: readonly Party[]
  readonly roles: readonly string[]
  readonly addresses: readonly string[]
  readonly tokens: readonly Token[]
  readonly merkleHashes: readonly string[]
  /** Timeouts of every When, including repeats. */
  readonly timeouts: readonly bigint[]
  /** Contract nodes (Close, Pay, If, When, Let, Assert). */
  readonly nodes: number
}

class Collector {
  private readonly tokenKeys = new Set<string>()
  readonly tokens: Token[] = []
  readonly roles = new Set<string>()
  readonly addresses = new Set<string>()
  readonly merkleHashes = new Set<string>()
  readonly parties: Party[] = []
  readonly timeouts: bigint[] = []
  nodes = 0

  token(t: Token): void {
    const key = `${t.currencySymbol}.${t.tokenName}`
    if (this.tokenKeys.has(key)) return
    this.tokenKeys.add(key)
    this.tokens.push(t)
  }

  party(p: Party): void {
    const known = p.type === 'Role' ? this.roles.has(p.role) : this.addresses.has(p.address)
    if (known) return
    this.parties.push(p)
    if (p.type === 'Role') this.roles.add(p.role)
    else this.addresses.add(p.address)
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
        this.party(a.account)
        this.party(a.party)
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
          pending.push(c.then, c.else)
          break
        case 'When':
          this.timeouts.push(c.timeout)
          for (const aCase of c.cases) {
            this.action(aCase.action)
            if (aCase.type === 'Case') pending.push(aCase.then)
            else this.merkleHashes.add(aCase.hash)
          }
          pending.push(c.timeoutContinuation)
          break
        case 'Let':
          this.value(c.value)
          pending.push(c.then)
          break
        case 'Assert':
          this.observation(c.observation)
          pending.push(c.then)
          break
      }
    }
  }

  state(s: State): void {
    for (const [key] of s.accounts) {
      this.party(key.account)
      this.token(key.token)
    }
    for (const [choice] of s.choices) this.party(choice.owner)
  }
}

/** What the contract, and the state when given, mention. */
export function contractFacts(contract: Contract, state?: State): ContractFacts {
  const c = new Collector()
  if (state !== undefined) c.state(state)
  c.contract(contract)
  return {
    parties: c.parties,
    roles: [...c.roles],
    addresses: [...c.addresses],
    tokens: c.tokens,
    merkleHashes: [...c.merkleHashes],
    timeouts: c.timeouts,
    nodes: c.nodes
  }
}

/** Tokens the contract itself mentions (not the state), as Haskell `extractAllWithContinuations`. */
export function contractTokens(contract: Contract): readonly Token[] {
  const c = new Collector()
  c.contract(contract)
  return c.tokens
}
