/** The recovery phrase step as its owner goes through it: the words are written down, then some typed back. */
import { flushPromises, type VueWrapper } from '@vue/test-utils'

/** Moves from the words to their check; the words asked for, by number (1-based). */
export async function startPhraseCheck(wrapper: VueWrapper): Promise<number[]> {
  await wrapper.get('[data-testid=recovery-written]').trigger('click')
  return wrapper.findAll('[data-testid=recovery-check]').map((input) => Number(input.attributes('data-word-number')))
}

/** Types the words asked for, from `words`, and presses Continue. */
export async function typeCheckedWords(wrapper: VueWrapper, words: readonly string[]): Promise<void> {
  for (const input of wrapper.findAll('[data-testid=recovery-check]')) {
    await input.setValue(words[Number(input.attributes('data-word-number')) - 1])
  }
  await wrapper.get('[data-testid=recovery-done]').trigger('submit')
  await flushPromises()
}

export async function confirmPhrase(wrapper: VueWrapper, words: readonly string[]): Promise<void> {
  await startPhraseCheck(wrapper)
  await typeCheckedWords(wrapper, words)
}
