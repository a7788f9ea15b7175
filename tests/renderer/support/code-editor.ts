/** The contract JSON editor is CodeMirror: tests read and replace its text through its view. */
import { EditorView } from '@codemirror/view'
import type { DOMWrapper, VueWrapper } from '@vue/test-utils'
import { nextTick } from 'vue'

/** The editor is in the host's (open) shadow root. */
export function editorRoot(wrapper: VueWrapper | DOMWrapper<Element>, testId = 'contract-json'): ShadowRoot {
  const root = wrapper.get(`[data-testid=${testId}]`).element.shadowRoot
  if (root === null) throw new Error(`no shadow root in ${testId}`)
  return root
}

export function editorView(wrapper: VueWrapper | DOMWrapper<Element>, testId = 'contract-json'): EditorView {
  const el = editorRoot(wrapper, testId).querySelector<HTMLElement>('.cm-editor')
  const view = el === null ? null : EditorView.findFromDOM(el)
  if (view === null) throw new Error(`no editor in ${testId}`)
  return view
}

/** Replaces the whole text, as typing or pasting would. */
export async function setEditorText(wrapper: VueWrapper | DOMWrapper<Element>, text: string): Promise<void> {
  const view = editorView(wrapper)
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text }, userEvent: 'input.paste' })
  await nextTick()
}

export function editorText(wrapper: VueWrapper | DOMWrapper<Element>): string {
  return editorView(wrapper).state.doc.toString()
}
