/** Contracts: the list, the one open in detail (state, history, next steps, the wallet's payouts) and the builds. */
import { defineStore } from 'pinia'
import { shallowRef } from 'vue'
import type { ContractInfo, ContractTx, CreateContractRequest, PayoutInfo, PreparedTx } from '../../../api/contract'
import type { ApplicableInputs } from '../../../core/marlowe/next'
import { useDesk } from '../api/desk'
import { contractSummary, type ContractSummary } from '../model/contracts'
import { useWalletsStore } from './wallets'

/** Contracts asked for at a time: the engine reads only these, however many it holds. */
const LIST_PAGE = 100

export interface OpenContract {
  readonly contractId: string
  readonly contract: ContractInfo
  /** The deadline it waits on now, POSIX ms. */
  readonly nextTimeout?: bigint
  readonly history: readonly ContractTx[]
  /** What the selected wallet's parties can do now. */
  readonly next?: ApplicableInputs
  /** What every party can do now: whose turn it is. */
  readonly turn?: ApplicableInputs
  /** The selected wallet's parties in the contract (`role:<name>` or an address). */
  readonly parties?: readonly string[]
  /** Payouts of this contract the selected wallet can withdraw. */
  readonly payouts: readonly PayoutInfo[]
}

export const useContractsStore = defineStore('contracts', () => {
  const desk = useDesk()
  const wallets = useWalletsStore()
  // Shallow: these are replaced whole, never edited in place, and contract trees can be large.
  const list = shallowRef<readonly ContractSummary[]>([])
  const current = shallowRef<OpenContract | undefined>(undefined)

  /** Whether the list may go on past what is loaded: the last page asked for was full. */
  const more = shallowRef(false)

  /** One page of the list after `after`, added to `kept`. */
  async function loadPage(kept: readonly ContractSummary[], after?: string): Promise<void> {
    const walletId = wallets.selected?.id
    const page = await desk['contracts.list']({
      ...(walletId === undefined ? {} : { walletId }),
      ...(after === undefined ? {} : { after }),
      limit: LIST_PAGE
    })
    list.value = [...kept, ...page.map(contractSummary)]
    more.value = page.length === LIST_PAGE
  }

  /** The selected wallet's contracts (those it is a party of), or every contract when no wallet is chosen: the newest page. */
  function loadList(): Promise<void> {
    return loadPage([])
  }

  /** The next page of older contracts. */
  function loadMore(): Promise<void> {
    return loadPage(list.value, list.value.at(-1)?.contractId)
  }

  async function open(contractId: string): Promise<void> {
    if (current.value?.contractId !== contractId) current.value = undefined
    const walletId = wallets.selected?.id
    const detail = await desk['contracts.get'](walletId === undefined ? { contractId } : { contractId, walletId })
    const { contract } = detail
    // A closed contract accepts nothing; a contract still being created is not on chain to ask.
    const acts = contract.current !== undefined && contract.status === 'confirmed'
    const next = acts
      ? (await desk['contracts.next'](walletId === undefined ? { contractId } : { contractId, walletId }))
          .applicableInputs
      : undefined
    const turn = acts && walletId !== undefined ? (await desk['contracts.next']({ contractId })).applicableInputs : next
    const payouts =
      walletId === undefined
        ? []
        : (await desk['payouts.list']({ walletId })).filter(
            (p) => p.contractId === contractId && p.status === 'available'
          )
    current.value = {
      contractId,
      contract,
      history: detail.transactions,
      payouts,
      ...(detail.nextTimeout === undefined ? {} : { nextTimeout: detail.nextTimeout }),
      ...(next === undefined ? {} : { next }),
      ...(turn === undefined ? {} : { turn }),
      ...(detail.parties === undefined ? {} : { parties: detail.parties })
    }
  }

  function create(request: Omit<CreateContractRequest, 'walletId'>): Promise<PreparedTx> {
    return desk['contracts.create']({ ...request, walletId: wallets.requireSelected().id })
  }

  function apply(contractId: string, inputsJson: string): Promise<PreparedTx> {
    return desk['contracts.apply']({ walletId: wallets.requireSelected().id, contractId, inputsJson })
  }

  function withdraw(payoutIds: readonly string[]): Promise<PreparedTx> {
    return desk['payouts.withdraw']({ walletId: wallets.requireSelected().id, payoutIds })
  }

  return { list, more, current, loadList, loadMore, open, create, apply, withdraw }
})
