// @vitest-environment happy-dom
/** A new contract from a template or from JSON, with its roles, tags and deposit, asked of the engine exactly. */
import { flushPromises } from '@vue/test-utils'
import { beforeAll, describe, expect, test } from 'vitest'
import type { PreparedTx } from '../../src/api/contract'
import { escrow } from '../../src/core/marlowe/examples'
import { parseContract, stringifyContract } from '../../src/core/marlowe/json'
import { fromDateTimeLocal, toDateTimeLocal } from '../../src/renderer/src/format/time'
import { useWalletsStore } from '../../src/renderer/src/stores/wallets'
import App from '../../src/renderer/src/App.vue'
import { editorText, setEditorText } from './support/code-editor'
import { FakeDesk, mountWithDesk } from './support/desk'
import { engineReviews, type EngineReviews } from './support/engine-review'
import { WALLET, status } from './support/desk-answers'

const NOW = BigInt(Date.UTC(2030, 5, 1, 12, 0))
const DAY = 86_400_000n
const at = (offset: bigint): bigint => fromDateTimeLocal(toDateTimeLocal(NOW + offset))!

let real: EngineReviews
beforeAll(async () => {
  real = await engineReviews()
}, 120_000)

async function newContract() {
  const created: PreparedTx = {
    kind: 'create',
    txId: real.create.txId,
    contractId: real.contractId,
    review: real.create,
    cborHex: '84a0',
    safetyErrors: []
  }
  const desk = new FakeDesk({
    'app.status': () => status(NOW),
    'wallets.list': () => [WALLET],
    'contracts.create': () => created
  })
  // The whole app, so the screen sits in its shell and the review follows it.
  const mounted = await mountWithDesk(App, desk, { path: '/contracts/new' })
  return { ...mounted, desk }
}

describe('new contract', () => {
  test('an escrow from the template: the core’s contract, role tokens to the wallet, tags and deposit', async () => {
    const { wrapper, desk, router } = await newContract()
    expect(useWalletsStore().selected?.id).toBe(WALLET.id)
    await wrapper.get('[data-testid=field-escrow-price]').setValue('250')
    await wrapper.get('[data-testid=role-recipient-Mediator]').setValue(real.wallets.carol.address)
    await wrapper.get('[data-testid=contract-tags]').setValue('escrow, desk.e2e')
    await wrapper.get('[data-testid=contract-deposit]').setValue('3')
    await wrapper.get('[data-testid=create-review]').trigger('submit')
    await flushPromises()
    const role = (name: string) => ({ type: 'Role', role: name }) as const
    expect(desk.requests('contracts.create')).toEqual([
      {
        walletId: WALLET.id,
        contractJson: stringifyContract(
          escrow({
            seller: role('Seller'),
            buyer: role('Buyer'),
            mediator: role('Mediator'),
            price: 250_000_000n,
            token: { currencySymbol: '', tokenName: '' },
            paymentDeadline: at(DAY),
            complaintDeadline: at(2n * DAY),
            disputeDeadline: at(3n * DAY),
            mediationDeadline: at(4n * DAY)
          }).contract
        ),
        roles: [
          { role: 'Seller', address: WALLET.address },
          { role: 'Buyer', address: WALLET.address },
          { role: 'Mediator', address: real.wallets.carol.address }
        ],
        tags: ['escrow', 'desk.e2e'],
        minUTxODeposit: 3_000_000n
      }
    ])
    expect(router.currentRoute.value.path).toBe('/review')
    expect(wrapper.get('[data-testid=review-summary]').text()).toContain('Opens a Marlowe contract.')
  })

  test('a recipient typed for a role survives a parameter error, with no word of "no roles" meanwhile', async () => {
    const { wrapper, desk } = await newContract()
    const buyer = () => wrapper.get<HTMLInputElement>('[data-testid=role-recipient-Buyer]')
    await buyer().setValue(real.wallets.bob.address)
    await wrapper.get('[data-testid=field-escrow-price]').setValue('ten')
    expect(wrapper.find('[data-testid=template-error]').exists()).toBe(true)
    expect(wrapper.text()).not.toContain('no roles')
    expect(buyer().element.value).toBe(real.wallets.bob.address)
    await wrapper.get('[data-testid=field-escrow-price]').setValue('25')
    expect(buyer().element.value).toBe(real.wallets.bob.address)
    // A role renamed and named back finds its address again.
    await wrapper.get('[data-testid=field-escrow-buyer]').setValue('Purchaser')
    expect(wrapper.find('[data-testid=role-recipient-Buyer]').exists()).toBe(false)
    expect(wrapper.get<HTMLInputElement>('[data-testid=role-recipient-Purchaser]').element.value).toBe(WALLET.address)
    await wrapper.get('[data-testid=field-escrow-buyer]').setValue('Buyer')
    await wrapper.get('[data-testid=create-review]').trigger('submit')
    await flushPromises()
    expect(desk.requests('contracts.create')[0]?.roles).toEqual([
      { role: 'Seller', address: WALLET.address },
      { role: 'Buyer', address: real.wallets.bob.address },
      { role: 'Mediator', address: WALLET.address }
    ])
  })

  test('JSON: a contract typed in the editor, with the roles it mentions', async () => {
    const { wrapper, desk } = await newContract()
    await wrapper.get('[data-testid=tab-json]').trigger('click')
    const create = wrapper.get('[data-testid=create-review]')
    await setEditorText(wrapper, '{"when": [], "timeout": 1, "timeout_continuation": clos}')
    expect(create.attributes('disabled')).toBeDefined()
    const contract =
      '{"when":[{"case":{"notify_if":true},"then":{"pay":1,"token":{"currency_symbol":"","token_name":""},' +
      '"from_account":{"role_token":"Alice"},"to":{"party":{"role_token":"Bob"}},"then":"close"}}],' +
      '"timeout":1900000000000,"timeout_continuation":"close"}'
    await setEditorText(wrapper, contract)
    expect(wrapper.find('[data-testid=role-recipient-Alice]').exists()).toBe(true)
    await wrapper.get('[data-testid=role-recipient-Bob]').setValue('addr_test1notanaddress')
    expect(wrapper.get('#role-1-note').classes()).toContain('field-error')
    expect(create.attributes('disabled')).toBeDefined()
    await wrapper.get('[data-testid=role-recipient-Bob]').setValue(real.wallets.bob.address)
    expect(create.attributes('disabled')).toBeUndefined()
    await create.trigger('submit')
    await flushPromises()
    const [request] = desk.requests('contracts.create')
    // Sent as the core writes it: checked, and in Runtime's canonical key order.
    expect(request?.contractJson).toBe(stringifyContract(parseContract(contract)))
    expect(request?.roles).toEqual([
      { role: 'Alice', address: WALLET.address },
      { role: 'Bob', address: real.wallets.bob.address }
    ])
    expect(request?.minUTxODeposit).toBeUndefined()
  })

  test('metadata: JSON errors inline hold the build back; valid metadata is sent as written', async () => {
    const { wrapper, desk } = await newContract()
    const create = wrapper.get('[data-testid=create-review]')
    const field = wrapper.get('[data-testid=contract-metadata]')
    const note = () => wrapper.get('[data-testid=contract-metadata-status]')
    expect(create.attributes('disabled')).toBeUndefined()
    expect(note().classes()).toContain('hint')

    const bad: [string, string][] = [
      ['{"674": ', 'Line 1, column 9'],
      ['[1]', 'JSON object of labels to values'],
      ['{"msg": 1}', 'label "msg" is not a 64-bit unsigned integer.'],
      ['{"674": {"ok": null}}', 'metadata.674.ok: null is not allowed in metadata.'],
      ['{"674": [true]}', 'metadata.674[0]: booleans are not allowed in metadata.'],
      ['{"674": 2.5}', 'metadata.674: metadata numbers must be integers.'],
      ['{"674": "' + 'x'.repeat(65) + '"}', 'metadata.674: text longer than 64 bytes.']
    ]
    for (const [text, message] of bad) {
      await field.setValue(text)
      expect(note().text()).toContain(message)
      expect(note().classes()).toContain('field-error')
      expect(field.attributes('aria-invalid')).toBe('true')
      expect(create.attributes('disabled')).toBeDefined()
    }

    // Integers beyond 2^53 stay exact: the text goes to the engine as typed.
    const metadata = '{"674": {"msg": ["rent for May"]}, "1": 18446744073709551615}'
    await field.setValue(metadata)
    expect(note().classes()).toContain('hint')
    expect(create.attributes('disabled')).toBeUndefined()
    await create.trigger('submit')
    await flushPromises()
    expect(desk.requests('contracts.create')[0]?.metadataJson).toBe(metadata)
  })

  test('a deadline already past: warned of on the form, built all the same, and warned of on the review', async () => {
    const { wrapper, desk } = await newContract()
    await wrapper.get('[data-testid=field-escrow-payment]').setValue(toDateTimeLocal(0n))
    expect(wrapper.get('#escrow-payment-note').text()).toBe(
      'This time has already passed: nothing can be done before it.'
    )
    expect(wrapper.get('[data-testid=template-deadline-warning]').text()).toContain('has already passed')
    await wrapper.get('[data-testid=create-review]').trigger('submit')
    await flushPromises()
    expect(desk.requests('contracts.create')).toHaveLength(1)
    // The engine's build of an escrow whose deadlines (2025) are behind the chain's clock (2030).
    expect(wrapper.get('[data-testid=deadline-warning]').text()).toMatch(
      /^Warning: 4 deadlines of this contract have already passed, the first /
    )
  })

  test('the template’s output can be edited as JSON', async () => {
    const { wrapper } = await newContract()
    await wrapper.get('[data-testid=edit-as-json]').trigger('click')
    const text = editorText(wrapper)
    expect(text).toContain('"role_token": "Buyer"')
    expect(wrapper.get('[data-testid=contract-json-status]').text()).toBe('A valid Marlowe contract.')
  })
})
