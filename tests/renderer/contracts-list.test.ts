// @vitest-environment happy-dom
/**
 * The contracts list: status, tags, next deadline; search by id or tag, filter open or closed; for the selected
 * wallet, only its contracts with what each waits for from it; any contract opened by its id.
 */
import { readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { flushPromises } from '@vue/test-utils'
import { describe, expect, test } from 'vitest'
import type { AwaitedAction, ContractListItem } from '../../src/api/contract'
import { formatTime } from '../../src/renderer/src/format/time'
import ContractsView from '../../src/renderer/src/views/ContractsView.vue'
import { useWalletsStore } from '../../src/renderer/src/stores/wallets'
import { FakeDesk, mountWithDesk } from './support/desk'
import { WALLET, status } from './support/desk-answers'

const item = (
  n: string,
  tags: string[],
  closed: boolean,
  nextTimeout?: bigint,
  awaiting?: readonly AwaitedAction[]
): ContractListItem => ({
  header: {
    contractId: `${n.repeat(64)}#1`,
    rolesCurrency: '',
    tags: Object.fromEntries(tags.map((t) => [t, null])),
    metadata: {},
    status: 'confirmed',
    block: { slot: 10n, blockNo: 2n, blockHash: 'ab'.repeat(32) }
  },
  closed,
  ...(nextTimeout === undefined ? {} : { nextTimeout }),
  ...(awaiting === undefined ? {} : { awaiting })
})

const DEADLINE = 1_900_000_600_000n

/** The app stylesheet's `.nowrap` rule: the class alone does nothing where the stylesheet lacks it. */
async function nowrapRule(): Promise<string> {
  const css = await readFile(
    join(dirname(fileURLToPath(import.meta.url)), '../../src/renderer/src/styles/main.css'),
    'utf8'
  )
  return /\.nowrap\s*\{([^}]*)\}/.exec(css)?.[1] ?? ''
}
const localTime = (ms: bigint): string =>
  new Intl.DateTimeFormat(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short'
  }).format(new Date(Number(ms)))

describe('contracts list', () => {
  test('search and filter', async () => {
    const desk = new FakeDesk({
      'app.status': () => status(1_900_000_000_000n),
      'contracts.list': () => [
        item('a', ['escrow', 'desk.e2e'], false, 1_900_000_600_000n),
        item('b', ['swap'], true),
        item('c', ['escrow'], true)
      ]
    })
    const { wrapper } = await mountWithDesk(ContractsView, desk, { path: '/contracts' })
    const rows = () => wrapper.findAll('[data-testid=contract-row]').map((r) => r.text())
    expect(rows()).toHaveLength(3)
    expect(rows()[0]).toContain('escrow')
    expect(rows()[0]).toContain('open')
    expect(rows()[1]).toContain('closed')

    await wrapper.get('[data-testid=contracts-search]').setValue('ESCROW')
    expect(rows()).toHaveLength(2)
    await wrapper.get('[data-testid=contracts-filter]').setValue('closed')
    expect(rows()).toHaveLength(1)
    expect(rows()[0]).toContain('cccccccccccc')
    await wrapper.get('[data-testid=contracts-search]').setValue('nothing like it')
    expect(wrapper.get('[data-testid=contracts-empty]').text()).toBe('No contract matches.')
  })

  test('a shortened contract id stays on one line, its whole id in the tooltip and the copy', async () => {
    const desk = new FakeDesk({
      'app.status': () => status(1_900_000_000_000n),
      'contracts.list': () => [item('a', ['escrow'], false)]
    })
    const { wrapper } = await mountWithDesk(ContractsView, desk, { path: '/contracts' })
    const link = wrapper.get('[data-testid=contract-link]')
    expect(link.text()).toBe(`${'a'.repeat(16)}…${'a'.repeat(2)}#1`)
    expect(link.attributes('title')).toBe(`${'a'.repeat(64)}#1`)
    // It could break after its ellipsis, leaving "aa#1" alone on the next line (seen at 800 px).
    expect(link.classes()).toContain('nowrap')
    expect(await nowrapRule()).toMatch(/white-space:\s*nowrap/)
    expect(wrapper.find('[data-testid=contract-row] button[aria-label="Copy contract id"]').exists()).toBe(true)
  })
})

describe('older contracts', () => {
  test('the newest hundred first; older ones on request, after the last one shown, until a page is short', async () => {
    const numbered = (i: number): ContractListItem => {
      const base = item('a', [`n.${i}`], false)
      return { ...base, header: { ...base.header, contractId: `${i.toString(16).padStart(64, '0')}#1` } }
    }
    const all = Array.from({ length: 130 }, (_, i) => numbered(130 - i))
    const desk = new FakeDesk({
      'app.status': () => status(1_900_000_000_000n),
      'contracts.list': (request) => {
        const from = request.after === undefined ? 0 : all.findIndex((c) => c.header.contractId === request.after) + 1
        return all.slice(from, from + (request.limit ?? all.length))
      }
    })
    const { wrapper } = await mountWithDesk(ContractsView, desk, { path: '/contracts' })
    const rows = () => wrapper.findAll('[data-testid=contract-row]')
    expect(rows()).toHaveLength(100)
    expect(desk.requests('contracts.list')).toEqual([{ limit: 100 }])
    await wrapper.get('[data-testid=contracts-more]').trigger('click')
    await flushPromises()
    expect(desk.requests('contracts.list').at(-1)).toEqual({ after: all[99]!.header.contractId, limit: 100 })
    expect(rows()).toHaveLength(130)
    expect(rows().at(-1)?.text()).toContain('n.1')
    expect(wrapper.find('[data-testid=contracts-more]').exists()).toBe(false)
  })
})

describe("a wallet's contracts", () => {
  test('listed for the selected wallet, with what each waits for from it', async () => {
    const desk = new FakeDesk({
      'app.status': () => status(1_900_000_000_000n),
      'wallets.list': () => [WALLET],
      'contracts.list': (request) =>
        request.walletId === undefined
          ? []
          : [
              item('a', ['escrow'], false, DEADLINE, [
                {
                  kind: 'deposit',
                  party: 'role:Buyer',
                  amount: 100_000_000n,
                  token: { currencySymbol: '', tokenName: '' },
                  before: DEADLINE
                },
                { kind: 'choice', party: WALLET.address, choiceName: 'approve', before: DEADLINE }
              ]),
              item('b', ['swap'], false, DEADLINE, [])
            ]
    })
    const { wrapper, pinia } = await mountWithDesk(ContractsView, desk, { path: '/contracts' })
    await useWalletsStore(pinia).load()
    await flushPromises()
    expect(desk.requests('contracts.list').at(-1)).toEqual({ walletId: WALLET.id, limit: 100 })
    const awaiting = wrapper.findAll('[data-testid=contract-awaiting]').map((c) => c.text())
    expect(awaiting).toEqual([
      `Deposit 100 ada as Buyer before ${localTime(DEADLINE)}Choose “approve” before ${localTime(DEADLINE)}`,
      'Nothing now'
    ])
  })

  test('columns for the wallet’s role, the action needed and the dates; its drafts; a passed deadline', async () => {
    const NOW = 1_900_000_000_000n
    const CREATED = NOW - 86_400_000n
    const { block: _onChain, ...header } = item('d', ['escrow'], false).header
    const draft: ContractListItem = {
      ...item('d', ['escrow'], false, DEADLINE, []),
      header: { ...header, status: 'unsigned' },
      parties: [WALLET.address],
      createdAt: NOW - 60_000n
    }
    const desk = new FakeDesk({
      'app.status': () => status(NOW),
      'wallets.list': () => [WALLET],
      'contracts.list': () => [
        draft,
        {
          ...item('a', ['escrow'], false, DEADLINE, [
            {
              kind: 'deposit',
              party: 'role:Buyer',
              amount: 25_000_000n,
              token: { currencySymbol: '', tokenName: '' },
              before: DEADLINE
            }
          ]),
          parties: ['role:Buyer', 'role:Mediator'],
          createdAt: CREATED
        },
        { ...item('b', ['swap'], false, NOW - 1000n, []), parties: [WALLET.address], createdAt: CREATED },
        { ...item('c', ['swap'], true, undefined, []), parties: [], createdAt: CREATED }
      ]
    })
    const { wrapper, pinia } = await mountWithDesk(ContractsView, desk, { path: '/contracts' })
    await useWalletsStore(pinia).load()
    await flushPromises()
    const column = (id: string) => wrapper.findAll(`[data-testid=${id}]`).map((c) => c.text())
    expect(wrapper.findAll('th').map((th) => th.text())).toEqual([
      'Contract',
      'Status',
      'Your role',
      'Action needed',
      'Created',
      'Next deadline',
      'Tags'
    ])
    expect(column('contract-role')).toEqual(['Your draft', 'Buyer, Mediator', 'your address', '—'])
    expect(column('contract-awaiting')).toEqual([
      // A draft can be resumed or discarded from the list.
      'Sign it to open the contract Resume Discard',
      `Deposit 25 ada as Buyer before ${formatTime(DEADLINE)}`,
      // Nothing is asked of the wallet, but the deadline has passed: the timeout is there to apply.
      'Apply the timeout: its deadline has passed',
      'Nothing now'
    ])
    expect(column('contract-created')).toEqual([
      formatTime(NOW - 60_000n),
      formatTime(CREATED),
      formatTime(CREATED),
      formatTime(CREATED)
    ])
  })

  test('any contract opens by its id; a malformed id is explained', async () => {
    const desk = new FakeDesk({ 'app.status': () => status(1_900_000_000_000n), 'contracts.list': () => [] })
    const { wrapper, router } = await mountWithDesk(ContractsView, desk, { path: '/contracts' })
    await wrapper.get('[data-testid=open-id]').setValue('not an id')
    await wrapper.get('[data-testid=open-by-id]').trigger('submit')
    expect(wrapper.get('[data-testid=open-id-error]').text()).toContain('output number')
    expect(router.currentRoute.value.name).toBe('contracts')
    const id = `${'AB'.repeat(32)}#2`
    await wrapper.get('[data-testid=open-id]').setValue(` ${id} `)
    await wrapper.get('[data-testid=open-by-id]').trigger('submit')
    await flushPromises()
    expect(router.currentRoute.value.name).toBe('contract')
    expect(router.currentRoute.value.params['contractId']).toBe(id.toLowerCase())
    expect(wrapper.find('[data-testid=open-id-error]').exists()).toBe(false)
  })
})
