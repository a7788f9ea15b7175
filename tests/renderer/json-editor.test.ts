// @vitest-environment happy-dom
/** The JSON editor checks with the core's lossless codec and says where the first problem is. */
import { mount } from '@vue/test-utils'
import { describe, expect, test } from 'vitest'
import type { Contract } from '../../src/core/marlowe/types'
import ContractJsonEditor from '../../src/renderer/src/components/new-contract/ContractJsonEditor.vue'

function editor(text: string) {
  const wrapper = mount(ContractJsonEditor, {
    props: { modelValue: text, 'onUpdate:modelValue': (v: string) => wrapper.setProps({ modelValue: v }) }
  })
  const status = () => wrapper.get('[data-testid=contract-json-status]').text()
  const last = (): Contract | undefined => {
    const events = wrapper.emitted<[Contract | undefined]>('contract') ?? []
    return events[events.length - 1]?.[0]
  }
  return { wrapper, status, last }
}

const PAY = (amount: string) => `{
  "when": [],
  "timeout": 1700000000000,
  "timeout_continuation": {
    "pay": ${amount},
    "token": { "currency_symbol": "", "token_name": "" },
    "from_account": { "role_token": "Lender" },
    "to": { "party": { "role_token": "Borrower" } },
    "then": "close"
  }
}`

describe('contract JSON editor', () => {
  test('a syntax error names its line and column', () => {
    const { status, last, wrapper } = editor('{\n  "when": [],\n  "timeout": 17,\n  "timeout_continuation": close\n}')
    expect(status()).toMatch(/^Line 4, column 27: /)
    expect(last()).toBeUndefined()
    expect(wrapper.get('textarea').attributes('aria-invalid')).toBe('true')
  })

  test('a structural error names its path in the contract', () => {
    const { status, last } = editor(PAY('1.5'))
    expect(status()).toBe('At contract.timeout_continuation.pay: expected an integer, got the number 1.5.')
    expect(last()).toBeUndefined()
  })

  test('a valid contract is emitted with amounts above 2^53 exact', () => {
    const { status, last } = editor(PAY('18446744073709551617'))
    expect(status()).toBe('A valid Marlowe contract.')
    const contract = last()
    expect(contract?.type).toBe('When')
    if (contract?.type !== 'When' || contract.timeoutContinuation.type !== 'Pay')
      throw new Error('not the contract typed')
    expect(contract.timeoutContinuation.value).toBe(2n ** 64n + 1n)
  })

  test('edits are checked as they are typed, and line numbers follow the text', async () => {
    const { wrapper, status, last } = editor('')
    expect(status()).toContain('Paste or type a contract')
    await wrapper.get('textarea').setValue('"close"')
    expect(last()).toEqual({ type: 'Close' })
    await wrapper.get('textarea').setValue('{\n"when": [\n')
    expect(status()).toMatch(/^Line 3, column 1: /)
    expect(wrapper.get('.gutter').text()).toBe('1\n2\n3')
  })
})
