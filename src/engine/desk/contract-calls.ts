/**
 * `contracts.*` and `payouts.*`: the service's operations with the wallet standing in for Runtime's wallet
 * headers, answered in the API contract's domain shape (./contract-views.ts), and every build returned with its
 * review.
 */
import type { AwaitedAction, ContractListItem, RoleRecipient } from '../../api/contract'
import type { EraSummary } from '../../chain/provider'
import { decodeTransaction } from '../../core/cardano/tx'
import { formatRef } from '../../core/cardano/refs'
import { isJsonObject, JsonSyntaxError, parseJson, type JsonObject } from '../../core/json/lossless'
import { contractFacts } from '../../core/marlowe/analysis'
import { MarloweJsonError, parseContract, parseInputs } from '../../core/marlowe/json'
import { nextTimeout } from '../../core/marlowe/timeouts'
import type { Contract, Input, Party } from '../../core/marlowe/types'
import type { TxRow } from '../../store/service-store'
import { parseRef, type RolesConfig, transactionMetadataFromJson, SlotClock } from '../build'
import { EngineError } from '../errors'
import { type ContractView, contractQuery, nextStepsOf, readableRows } from '../service'
import { contractHeaderInfo, contractInfo, contractTx, payoutInfo } from './contract-views'
import type { DeskContext } from './context'
import { deskFailure } from './errors'
import type { HandlersOf } from './handlers'
import type { WalletParties } from './wallets'

type ContractCall =
  | 'contracts.list'
  | 'contracts.get'
  | 'contracts.next'
  | 'contracts.create'
  | 'contracts.apply'
  | 'payouts.list'
  | 'payouts.withdraw'
  | 'roles.burnClosed'

/** How far ahead `contracts.next` looks: long enough to fill in a form, short of most deadlines. */
const NEXT_WINDOW_MS = 10n * 60n * 1000n

function parseMarlowe<T>(what: string, parse: (text: string) => T, text: string): T {
  try {
    return parse(text)
  } catch (e) {
    if (e instanceof MarloweJsonError || e instanceof JsonSyntaxError) {
      const code = what === 'contract' ? 'InvalidContract' : 'InvalidInputs'
      throw deskFailure('BadRequest', code, `the ${what} is not valid Marlowe JSON: ${e.message}`)
    }
    throw e
  }
}

/**
 * The request's metadata JSON (`{ "<uint64 label>": metadatum }`), parsed losslessly and checked with the
 * builder's own conversion now, so a mistake is a clear BadRequest before any build starts.
 */
export function parseMetadata(text: string | undefined): JsonObject {
  if (text === undefined || text.trim() === '') return {}
  let json
  try {
    json = parseJson(text)
  } catch (e) {
    if (e instanceof JsonSyntaxError) {
      throw deskFailure('BadRequest', 'InvalidMetadata', `the metadata is not valid JSON: ${e.message}`)
    }
    throw e
  }
  if (!isJsonObject(json)) {
    throw deskFailure('BadRequest', 'InvalidMetadata', 'the metadata must be a JSON object of labels to values')
  }
  try {
    transactionMetadataFromJson(json)
  } catch (e) {
    if (e instanceof EngineError) {
      throw deskFailure('BadRequest', 'InvalidMetadata', `the metadata is not valid: ${e.message}`, e.details)
    }
    throw e
  }
  return json
}

/** One token per listed recipient; a role listed for several addresses mints one for each. */
function rolesConfig(roles: readonly RoleRecipient[]): RolesConfig | undefined {
  if (roles.length === 0) return undefined
  const byRole = new Map<string, string[]>()
  for (const { role, address } of roles) byRole.set(role, [...(byRole.get(role) ?? []), address])
  return {
    type: 'Mint',
    roles: [...byRole].map(([name, addresses]) => ({
      name,
      recipients: addresses.map((address) => ({ destination: { address }, quantity: 1n }))
    }))
  }
}

/** The deadline the contract waits on now (it may have passed: then a `[]` apply moves the contract on). */
function pendingTimeout(view: ContractView): bigint | undefined {
  const current = view.current
  return current === undefined ? undefined : nextTimeout(current.contract, current.state.minTime)
}

/** Confirmed first in chain order, then the rest in the order they were built. */
function chainOrder(a: TxRow, b: TxRow): number {
  if (a.block !== undefined && b.block !== undefined) {
    if (a.block.slot !== b.block.slot) return a.block.slot < b.block.slot ? -1 : 1
    return a.block.blockNo < b.block.blockNo ? -1 : a.block.blockNo > b.block.blockNo ? 1 : 0
  }
  if (a.block !== undefined) return -1
  if (b.block !== undefined) return 1
  return a.createdAt - b.createdAt
}

const withTimeout = <T extends object>(value: T, timeout: bigint | undefined): T & { nextTimeout?: bigint } =>
  timeout === undefined ? value : { ...value, nextTimeout: timeout }

/** An interval from `from` that does not straddle the contract's next deadline (the step would be ambiguous). */
function nextInterval(view: ContractView, from: bigint): { from: bigint; to: bigint } {
  const deadline = view.current === undefined ? undefined : nextTimeout(view.current.contract, from)
  const to = deadline !== undefined && deadline - 1n < from + NEXT_WINDOW_MS ? deadline - 1n : from + NEXT_WINDOW_MS
  return { from, to }
}

const listItem = (view: ContractView, createdAt: bigint | undefined): ContractListItem =>
  withTimeout(
    {
      header: contractHeaderInfo(view),
      closed: view.current === undefined,
      ...(createdAt === undefined ? {} : { createdAt })
    },
    pendingTimeout(view)
  )

const partyText = (p: Party): string => (p.type === 'Role' ? `role:${p.role}` : p.address)

/** The creating transaction's id: a contract's id is that transaction's output. */
const createTxId = (contractId: string): string => contractId.slice(0, 64)

/** The wallet's parties in the contract: its role tokens of it (`role:<name>`), then its addresses that are parties. */
function partiesOf(view: ContractView, wallet: WalletParties): string[] {
  const roles = view.rolesCurrency === '' ? [] : wallet.roles.filter((r) => r.policyId === view.rolesCurrency)
  const addresses = contractFacts(view.initialContract, view.initialState).addresses
  return [...roles.map((r) => `role:${r.role}`), ...addresses.filter((a) => wallet.addresses.includes(a))]
}

/**
 * Whether an unsigned creation is the wallet's draft: not discarded, and it spends an output the wallet holds (still
 * unspent, as unsigned).
 */
function isDraftOf(create: TxRow, wallet: WalletParties): boolean {
  if (create.discardedAt !== undefined) return false
  return decodeTransaction(create.unsignedTx).body.inputs.some((i) => wallet.utxoRefs.has(formatRef(i)))
}

/** POSIX ms of a slot, when the chain's eras cover it. */
export function slotTime(eras: readonly EraSummary[], slot: bigint): bigint | undefined {
  try {
    return new SlotClock(eras, slot, 0n).slotToTime(slot)
  } catch (e) {
    if (e instanceof EngineError) return undefined
    throw e
  }
}

/** The deposits and choices the contract accepts now from the wallet's own parties. */
function awaitedFrom(view: ContractView, wallet: WalletParties, now: bigint): AwaitedAction[] {
  if (view.current === undefined || view.status !== 'confirmed') return []
  const parties: Party[] = [
    ...wallet.addresses.map((address): Party => ({ type: 'Address', address })),
    ...wallet.roles.filter((r) => r.policyId === view.rolesCurrency).map((r): Party => ({ type: 'Role', role: r.role }))
  ]
  if (parties.length === 0) return []
  let steps
  try {
    // From the view already read: what the service's `next` would read again from the contract's head.
    steps = nextStepsOf(view.current, { interval: nextInterval(view, now), parties })
  } catch (e) {
    // A deadline just passed or an interval the contract cannot take: it waits for nothing from anyone now.
    if (e instanceof EngineError) return []
    throw e
  }
  const before = nextTimeout(view.current.contract, now)
  const when = before === undefined ? {} : { before }
  return [
    ...steps.applicableInputs.deposits.map((d): AwaitedAction => ({
      kind: 'deposit',
      party: partyText(d.party),
      amount: d.canDeposit,
      token: { currencySymbol: d.token.currencySymbol, tokenName: d.token.tokenName },
      ...when
    })),
    ...steps.applicableInputs.choices.map((c): AwaitedAction => ({
      kind: 'choice',
      party: partyText(c.choice.owner),
      choiceName: c.choice.name,
      ...when
    }))
  ]
}

/** How many of a wallet's party contracts are read from the store at a time when the list has no limit. */
const PARTY_BATCH = 500

const notListed = (after: string): Error =>
  deskFailure('NotFound', 'ContractNotFound', `there is no contract ${after} to list after`, { contractId: after })

/** Where the page after the contract `after` starts in `ids` (the start without it). */
function pageStart(ids: readonly string[], after: string | undefined): number {
  if (after === undefined) return 0
  const at = ids.indexOf(after)
  if (at < 0) throw notListed(after)
  return at + 1
}

/** The views after the one whose id is `after` (all of them without it), at most `limit` (all without it). */
function pageOf(views: readonly ContractView[], after: string | undefined, limit: number | undefined): ContractView[] {
  const from = pageStart(
    views.map((view) => view.contractId),
    after
  )
  return views.slice(from, limit === undefined ? undefined : from + limit)
}

/** Whether a creation built at `at` with id `txId` comes before one built at `otherAt` with `otherTxId`. */
const builtLater = (at: number, txId: string, otherAt: number, otherTxId: string): boolean =>
  at > otherAt || (at === otherAt && txId > otherTxId)

/**
 * Places each draft (newest first) among `listed` (newest build first, by `builtAt`) in the store's order of
 * creations (build time, then creation tx id, newest first): a binary search each, so only some `log2(listed)`
 * build times are read a draft.
 */
async function mergeByBuildTime(
  listed: readonly string[],
  drafts: readonly TxRow[],
  builtAt: (contractId: string) => Promise<number>
): Promise<string[]> {
  const merged: string[] = []
  let from = 0
  for (const draft of drafts) {
    let low = from
    let high = listed.length
    while (low < high) {
      const middle = (low + high) >>> 1
      const id = listed[middle]!
      if (builtLater(await builtAt(id), createTxId(id), draft.createdAt, draft.txId)) low = middle + 1
      else high = middle
    }
    merged.push(...listed.slice(from, low), draft.contractId!)
    from = low
  }
  merged.push(...listed.slice(from))
  return merged
}

export function contractCalls(ctx: DeskContext): HandlersOf<ContractCall> {
  const { service, store, wallets, progress } = ctx

  /**
   * When each of `views` was created: its creation's block time on chain, else when it was built (the builds of
   * those not on chain read in one query).
   */
  async function creationTimes(views: readonly ContractView[]): Promise<(view: ContractView) => bigint | undefined> {
    const eras = await ctx.provider.eraSummaries()
    const unconfirmed = views.filter((view) => view.block === undefined).map((view) => createTxId(view.contractId))
    const built = new Map((await store.txs(unconfirmed)).map((row) => [row.txId, BigInt(row.createdAt)]))
    return (view) =>
      view.block !== undefined ? slotTime(eras, view.block.slot) : built.get(createTxId(view.contractId))
  }

  /**
   * A page of every stored contract, newest build first, after the contract `after`: only the page's contracts
   * are read. Stored contracts that cannot be read back are passed over, so a page is short only at the end.
   */
  async function storedPage(after: string | undefined, limit: number): Promise<ContractView[]> {
    const views: ContractView[] = []
    let start = after
    while (views.length < limit) {
      const want = limit - views.length
      const page = await service.pageStoredContracts({
        ...(start === undefined ? {} : { start }),
        order: 'desc',
        offset: start === undefined ? 0 : 1,
        limit: want
      })
      if (page === undefined) throw notListed(start ?? '')
      views.push(...page.views)
      if (page.ids.length < want) break
      start = page.ids[page.ids.length - 1]
    }
    return views
  }

  /**
   * The wallet's list, newest build first, after the contract `after`, as at most `limit` contract ids (all without
   * a limit): the contracts it is a party to, and its drafts. Unsigned creations are drafts: listed for the wallet
   * that built them only, whoever they name as parties, until discarded. The party contracts are read a page at a
   * time from the store's index, so a page costs its own contracts, not every one the wallet is a party to.
   */
  async function walletContractIds(
    wallet: WalletParties,
    after: string | undefined,
    limit: number | undefined
  ): Promise<string[]> {
    const unsigned = new Set<string>()
    const drafts: TxRow[] = []
    for (const row of await store.txsWithStatus('unsigned')) {
      if (row.kind !== 'create' || row.contractId === undefined) continue
      unsigned.add(row.contractId)
      if (isDraftOf(row, wallet)) drafts.push(row)
    }
    // Newest first as the store orders creations: build time, then creation tx id.
    drafts.sort((a, b) => (builtLater(a.createdAt, a.txId, b.createdAt, b.txId) ? -1 : 1))
    const query = contractQuery({ partyAddresses: wallet.addresses, partyRoles: wallet.roles })
    const want = limit ?? Number.MAX_SAFE_INTEGER
    // Signed ones only: a party's unsigned creation is listed as a draft, or not at all.
    const asParty: string[] = []
    let start = after
    let listed = after === undefined || drafts.some((row) => row.contractId === after)
    for (;;) {
      const batch = Math.min(want, PARTY_BATCH) + 1
      const rows = await store.storedContractPage(
        { ...(start === undefined ? {} : { start }), order: 'desc', offset: 0, limit: batch },
        query
      )
      if (rows === undefined) throw notListed(start ?? '')
      const ids = rows.map((row) => row.contractId)
      if (start !== undefined && ids[0] === start) {
        if (start === after && !unsigned.has(after)) listed = true
        ids.shift()
      }
      asParty.push(...ids.filter((id) => !unsigned.has(id)))
      if (rows.length < batch || asParty.length >= want) break
      start = ids[ids.length - 1]
    }
    if (!listed) throw notListed(after!)
    return (await mergeByBuildTime(asParty, await draftsAfter(drafts, after), builtAt)).slice(0, want)
  }

  const builtAt = async (contractId: string): Promise<number> =>
    (await store.tx(createTxId(contractId)))?.createdAt ?? 0

  /** The drafts (newest first) that the list shows after the contract `after` (all of them without it). */
  async function draftsAfter(drafts: readonly TxRow[], after: string | undefined): Promise<readonly TxRow[]> {
    if (after === undefined) return drafts
    const at = drafts.findIndex((row) => row.contractId === after)
    if (at >= 0) return drafts.slice(at + 1)
    const afterAt = await builtAt(after)
    return drafts.filter((row) => builtLater(afterAt, createTxId(after), row.createdAt, row.txId))
  }

  return {
    // Every contract in the store (or the wallet's), whatever its status (a just-submitted one too), newest first.
    'contracts.list': async ({ walletId, after, limit }) => {
      if (walletId === undefined) {
        const views =
          limit === undefined
            ? pageOf(await service.storedContracts(), after, undefined)
            : await storedPage(after, limit)
        const createdAt = await creationTimes(views)
        return views.map((view) => listItem(view, createdAt(view)))
      }
      const wallet = await wallets.parties(walletId)
      const now = await ctx.chainTime()
      // Views, and what each waits for from the wallet, are worked out for the page only.
      const views: ContractView[] = []
      let from = after
      for (;;) {
        const want = limit === undefined ? undefined : limit - views.length
        const ids = await walletContractIds(wallet, from, want)
        // At most `want` ids: the page's views are read together.
        views.push(...(await service.contractViews(ids)))
        // Short only at the end of the list: contracts that do not read back are passed over.
        if (want === undefined || views.length === limit || ids.length < want) break
        from = ids[ids.length - 1]
      }
      const createdAt = await creationTimes(views)
      return views.map((view) => ({
        ...listItem(view, createdAt(view)),
        awaiting: awaitedFrom(view, wallet, now),
        parties: partiesOf(view, wallet)
      }))
    },

    'contracts.get': async ({ contractId, walletId }) => {
      const view = await service.getContract(contractId)
      const wallet = walletId === undefined ? undefined : await wallets.parties(walletId)
      const applied = (await store.txsOfContract(view.contractId)).filter((t) => t.kind === 'apply').sort(chainOrder)
      const transactions = await readableRows(applied, async (t) =>
        contractTx(await service.getTransaction(view.contractId, t.txId))
      )
      return withTimeout(
        {
          contract: contractInfo(view),
          transactions,
          ...(wallet === undefined ? {} : { parties: partiesOf(view, wallet) })
        },
        pendingTimeout(view)
      )
    },

    'contracts.next': async ({ contractId, walletId }) => {
      const view = await service.getContract(contractId)
      const interval = nextInterval(view, await ctx.chainTime())
      let parties: Party[] | undefined
      if (walletId !== undefined) {
        const [addresses, roles] = await Promise.all([
          wallets.fundAddresses(walletId),
          wallets.rolesHeld(walletId, view.rolesCurrency)
        ])
        parties = [
          ...addresses.map((address): Party => ({ type: 'Address', address })),
          ...roles.map((role): Party => ({ type: 'Role', role }))
        ]
      }
      return service.next(view.contractId, { interval, ...(parties === undefined ? {} : { parties }) })
    },

    'contracts.create': async ({ walletId, contractJson, roles, tags, metadataJson, minUTxODeposit }) => {
      const contract: Contract = parseMarlowe('contract', parseContract, contractJson)
      const metadata = parseMetadata(metadataJson)
      const config = rolesConfig(roles)
      return progress.run('contracts.create', 'Reading the wallet', 3, async (stage) => {
        const request = await wallets.walletRequest(walletId)
        stage('Building the transaction')
        const created = await service.createContract(request, {
          contract,
          ...(config === undefined ? {} : { roles: config }),
          ...(minUTxODeposit === undefined ? {} : { minUTxODeposit }),
          tags: Object.fromEntries(tags.map((t) => [t, null])),
          metadata
        })
        stage('Reviewing the transaction')
        return ctx.prepared('create', {
          txId: created.contractId.slice(0, 64),
          tx: created.unsigned.tx,
          contractId: created.contractId,
          safetyErrors: created.safetyErrors
        })
      })
    },

    'contracts.apply': async ({ walletId, contractId, inputsJson }) => {
      const inputs: Input[] = parseMarlowe('inputs', parseInputs, inputsJson)
      return progress.run('contracts.apply', 'Reading the wallet', 3, async (stage) => {
        const request = await wallets.walletRequest(walletId)
        stage('Building the transaction')
        const applied = await service.applyInputs(contractId, request, { inputs, tags: {}, metadata: {} })
        stage('Reviewing the transaction')
        return ctx.prepared('apply', {
          txId: applied.transactionId,
          tx: applied.unsigned.tx,
          contractId: applied.contractId,
          safetyErrors: applied.safetyErrors
        })
      })
    },

    'payouts.list': async ({ walletId }) => {
      const roleTokens = await wallets.heldTokens(walletId)
      // An empty filter means "every payout" to the service; a wallet without tokens has none.
      if (roleTokens.length === 0) return []
      const payouts = await service.listPayouts({ roleTokens, status: 'available' })
      return payouts.map(payoutInfo)
    },

    'payouts.withdraw': async ({ walletId, payoutIds }) => {
      const payouts = payoutIds.map((id) => {
        const ref = parseRef(id)
        if (ref === undefined)
          throw deskFailure('BadRequest', 'InvalidPayoutId', `"${id}" is not a payout id (txid#index)`)
        return ref
      })
      return progress.run('payouts.withdraw', 'Reading the wallet', 3, async (stage) => {
        const request = await wallets.walletRequest(walletId)
        stage('Building the transaction')
        const { withdrawalId, unsigned } = await service.withdraw(request, { payouts })
        stage('Reviewing the transaction')
        return ctx.prepared('withdraw', { txId: withdrawalId, tx: unsigned.tx })
      })
    },

    'roles.burnClosed': async ({ walletId }) =>
      progress.run('roles.burnClosed', 'Reading the wallet', 3, async (stage) => {
        const request = await wallets.walletRequest(walletId)
        stage('Building the transaction')
        const { txId, unsigned } = await service.burnRoleTokens(request, { type: 'any' }, true)
        stage('Reviewing the transaction')
        return ctx.prepared('burn', { txId, tx: unsigned.tx })
      })
  }
}
