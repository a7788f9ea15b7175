// @vitest-environment happy-dom
/** The JSON editor (CodeMirror) checks with the core's lossless codec, says where the first problem is, and marks it. */
import { diagnosticCount, forceLinting } from '@codemirror/lint'
import { StateEffect } from '@codemirror/state'
import { EditorView } from '@codemirror/view'
import { mount } from '@vue/test-utils'
import { afterEach, describe, expect, test } from 'vitest'
import type { Contract } from '../../src/core/marlowe/types'
import ContractJsonEditor from '../../src/renderer/src/components/new-contract/ContractJsonEditor.vue'
import {
  contractDiagnostics,
  locatePath,
  pathSteps
} from '../../src/renderer/src/components/new-contract/contract-json-check'
import { editorRoot, editorText, editorView, setEditorText } from './support/code-editor'

/** Resolves once the linter's diagnostics are in the editor (and so drawn: listeners run after the DOM update). */
function diagnosticsArrive(view: EditorView): Promise<void> {
  return new Promise((resolve) => {
    const listener = EditorView.updateListener.of((update) => {
      if (diagnosticCount(update.state) > 0) resolve()
    })
    view.dispatch({ effects: StateEffect.appendConfig.of(listener) })
  })
}

const mounted: { unmount(): void }[] = []
afterEach(() => mounted.splice(0).forEach((w) => w.unmount()))

function editor(text: string) {
  const wrapper = mount(ContractJsonEditor, {
    attachTo: document.body,
    props: { modelValue: text, 'onUpdate:modelValue': (v: string) => wrapper.setProps({ modelValue: v }) }
  })
  mounted.push(wrapper)
  const content = () => editorRoot(wrapper).querySelector('.cm-content')
  const status = () => wrapper.get('[data-testid=contract-json-status]').text()
  const last = (): Contract | undefined => {
    const events = wrapper.emitted<[Contract | undefined]>('contract') ?? []
    return events[events.length - 1]?.[0]
  }
  return { wrapper, status, last, content }
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

const SYNTAX = '{\n  "when": [],\n  "timeout": 17,\n  "timeout_continuation": close\n}'

describe('contract JSON editor', () => {
  test('a syntax error names its line and column', () => {
    const { status, last, wrapper, content } = editor(SYNTAX)
    expect(status()).toMatch(/^Line 4, column 27: /)
    expect(last()).toBeUndefined()
    expect(content()?.getAttribute('aria-invalid')).toBe('true')
    expect(content()?.getAttribute('aria-label')).toBe('Contract JSON')
    expect(content()?.getAttribute('role')).toBe('textbox')
    expect(wrapper.get('#contract-json-label').text()).toBe('Contract JSON')
  })

  test('a structural error names its path in the contract', () => {
    const { status, last } = editor(PAY('1.5'))
    expect(status()).toBe('At contract.timeout_continuation.pay: expected an integer, got the number 1.5.')
    expect(last()).toBeUndefined()
  })

  test('a valid contract is emitted with amounts above 2^53 exact', () => {
    const { status, last, content } = editor(PAY('18446744073709551617'))
    expect(status()).toBe('A valid Marlowe contract.')
    expect(content()?.getAttribute('aria-invalid')).toBe('false')
    const contract = last()
    expect(contract?.type).toBe('When')
    if (contract?.type !== 'When' || contract.timeoutContinuation.type !== 'Pay')
      throw new Error('not the contract typed')
    expect(contract.timeoutContinuation.value).toBe(2n ** 64n + 1n)
  })

  test('edits flow to the model as text, are checked as they are typed, and line numbers follow', async () => {
    const { wrapper, status, last, content } = editor('')
    expect(status()).toContain('Paste or type a contract')
    await setEditorText(wrapper, '"close"')
    expect(wrapper.props('modelValue')).toBe('"close"')
    expect(last()).toEqual({ type: 'Close' })
    await setEditorText(wrapper, '{\n"when": [\n')
    expect(wrapper.props('modelValue')).toBe('{\n"when": [\n')
    expect(status()).toMatch(/^Line 3, column 1: /)
    expect(content()?.getAttribute('aria-invalid')).toBe('true')
    // The first gutter element is CodeMirror's hidden width spacer.
    const numbers = [...editorRoot(wrapper).querySelectorAll('.cm-lineNumbers .cm-gutterElement')].slice(1)
    expect(numbers.map((n) => n.textContent)).toEqual(['1', '2', '3'])
    const big = PAY('18446744073709551617')
    await setEditorText(wrapper, big)
    expect(wrapper.props('modelValue')).toBe(big)
  })

  test('text set from outside replaces the editor’s', async () => {
    const { wrapper, last } = editor('')
    await wrapper.setProps({ modelValue: '"close"' })
    expect(editorText(wrapper)).toBe('"close"')
    expect(last()).toEqual({ type: 'Close' })
  })

  test('the linter marks the problem in the text', async () => {
    const { wrapper } = editor(SYNTAX)
    const view = editorView(wrapper)
    const marked = diagnosticsArrive(view)
    forceLinting(view)
    await marked
    expect(editorRoot(wrapper).querySelector('.cm-lintRange-error')?.textContent).toBe('c')
  })
})

describe('contract JSON diagnostics', () => {
  test('a syntax error is marked at its line and column', () => {
    const [d] = contractDiagnostics(SYNTAX)
    const at = SYNTAX.split('\n').slice(0, 3).join('\n').length + 1 + 26
    expect(d).toMatchObject({ from: at, to: at + 1, severity: 'error' })
    expect(d?.message).toMatch(/^Line 4, column 27: /)
  })

  test('a structure error is marked on the value its path names', () => {
    const text = PAY('1.5')
    const [d] = contractDiagnostics(text)
    expect(d?.message).toBe('At contract.timeout_continuation.pay: expected an integer, got the number 1.5.')
    expect(text.slice(d?.from, d?.to)).toBe('1.5')
  })

  test('paths through arrays, and steps not found fall back to the deepest value found', () => {
    const text = '{"when": [{"case": {"notify_if": true}, "then": "close"}, {"case": {"x": 1}}]}'
    expect(pathSteps('contract.when[1].case.x')).toEqual(['when', 1, 'case', 'x'])
    const at = (path: string) => {
      const { from, to } = locatePath(text, path)
      return text.slice(from, to)
    }
    expect(at('contract.when[1].case.x')).toBe('1')
    expect(at('contract.when[0].then')).toBe('"close"')
    expect(at('contract.when[0].timeout')).toBe('{"case": {"notify_if": true}, "then": "close"}')
    expect(at('contract')).toBe(text)
  })

  test('empty text and valid contracts have no marks', () => {
    expect(contractDiagnostics('')).toEqual([])
    expect(contractDiagnostics('"close"')).toEqual([])
  })
})
