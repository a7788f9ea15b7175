/** A template form's state: the draft being edited, the contract it builds (or the field at fault), and its emit. */
import { computed, reactive, watch, type ComputedRef } from 'vue'
import type { ExampleContract } from '../../../core/marlowe/examples'
import { tryBuild, type BuildResult, type FieldLabels } from '../templates/drafts'

export interface TemplateForm<D> {
  readonly draft: D
  readonly result: ComputedRef<BuildResult>
  /** The error to show beside `field` (a dotted parameter path), if it is the one at fault. */
  errorFor(field: string): string | undefined
}

export function useTemplateForm<D extends object>(
  initial: D,
  build: (draft: D) => ExampleContract,
  onBuilt: (built: ExampleContract | undefined) => void,
  labels: FieldLabels
): TemplateForm<D> {
  const draft = reactive(initial) as D
  const result = computed(() => tryBuild(() => build(draft), labels))
  watch(result, (r) => onBuilt(r.ok ? r.built : undefined), { immediate: true })
  const errorFor = (field: string): string | undefined => {
    const r = result.value
    return !r.ok && r.field === field ? r.message : undefined
  }
  return { draft, result, errorFor }
}
