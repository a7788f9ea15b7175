// @vitest-environment happy-dom
/** The contracts list: status, tags, next deadline; search by id or tag, filter open or closed. */
import { describe, expect, test } from 'vitest'
import type { ContractListItem } from '../../src/api/contract'
import ContractsView from '../../src/renderer/src/views/ContractsView.vue'
import { FakeDesk, mountWithDesk } from './support/desk'
import { status } from './support/runtime-json'

const item = (n: string, tags: string[], closed: boolean, nextTimeout?: bigint): ContractListItem => ({
  header: {
    contractId: `${n.repeat(64)}#1`,
    roleTokenMintingPolicyId: '',
    version: 'v1',
    tags: Object.fromEntries(tags.map((t) => [t, null])),
    metadata: {},
    status: 'confirmed',
    block: { slotNo: 10n, blockNo: 2n, blockHeaderHash: 'ab'.repeat(32) }
  },
  closed,
  ...(nextTimeout === undefined ? {} : { nextTimeout })
})

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
})
