/**
 * The contract JSON editor's check: the core's lossless codec reads the text, and the first problem is given with
 * where it is — the offset of a syntax error, or the value a structure error's path names, found in the text.
 */
import { jsonLanguage } from '@codemirror/lang-json'
import type { Diagnostic } from '@codemirror/lint'
import type { SyntaxNode } from '@lezer/common'
import { JsonSyntaxError, parseJson } from '../../../../core/json/lossless'
import { MarloweJsonError, parseContract } from '../../../../core/marlowe/json'
import type { Contract } from '../../../../core/marlowe/types'

export type ContractJsonCheck =
  { readonly contract: Contract } | { readonly error: string; readonly from?: number; readonly to?: number }

export const EMPTY_HINT = 'Paste or type a contract in Marlowe’s JSON form, or import a file.'

export function checkContractJson(text: string): ContractJsonCheck {
  if (text.trim() === '') return { error: EMPTY_HINT }
  try {
    return { contract: parseContract(text) }
  } catch (e) {
    if (e instanceof JsonSyntaxError) {
      const from = Math.min(e.offset, text.length)
      return { error: `Line ${e.line}, column ${e.column}: ${e.reason}.`, from, to: Math.min(from + 1, text.length) }
    }
    if (e instanceof MarloweJsonError) return { error: `At ${e.path}: ${e.reason}.`, ...locatePath(text, e.path) }
    throw e
  }
}

/** `contract.when[0].case` → `['when', 0, 'case']` (the first segment names the root). */
export function pathSteps(path: string): (string | number)[] {
  const steps: (string | number)[] = []
  const re = /\.([^.[]+)|\[(\d+)\]/g
  const start = path.search(/[.[]/)
  if (start < 0) return steps
  re.lastIndex = start
  for (let m = re.exec(path); m !== null; m = re.exec(path)) {
    if (m.index !== re.lastIndex - m[0].length) break
    steps.push(m[2] !== undefined ? Number(m[2]) : (m[1] ?? ''))
  }
  return steps
}

const VALUE_NODES = new Set(['Object', 'Array', 'String', 'Number', 'True', 'False', 'Null'])

function children(node: SyntaxNode): SyntaxNode[] {
  const out: SyntaxNode[] = []
  for (let c = node.firstChild; c !== null; c = c.nextSibling) out.push(c)
  return out
}

/**
 * The span of the value a decoder path names (JSON that parsed, so the syntax tree is whole); where a step is not
 * found, the deepest value that was, and the whole text's start when none is.
 */
export function locatePath(text: string, path: string): { from: number; to: number } {
  const tree = jsonLanguage.parser.parse(text)
  let node: SyntaxNode | null = children(tree.topNode).find((c) => VALUE_NODES.has(c.name)) ?? null
  if (node === null) return { from: 0, to: Math.min(1, text.length) }
  for (const step of pathSteps(path)) {
    let next: SyntaxNode | undefined
    if (typeof step === 'number' && node.name === 'Array') {
      next = children(node).filter((c) => VALUE_NODES.has(c.name))[step]
    } else if (typeof step === 'string' && node.name === 'Object') {
      const property = children(node)
        .filter((c) => c.name === 'Property')
        .find((p) => {
          const name = p.getChild('PropertyName')
          return name !== null && parseJson(text.slice(name.from, name.to)) === step
        })
      next = property === undefined ? undefined : children(property).find((c) => VALUE_NODES.has(c.name))
    }
    if (next === undefined) break
    node = next
  }
  return { from: node.from, to: node.to }
}

/** The check as CodeMirror diagnostics: the empty text gets a hint in the status line, not a mark. */
export function contractDiagnostics(doc: string): Diagnostic[] {
  const c = checkContractJson(doc)
  if ('contract' in c || c.error === EMPTY_HINT) return []
  const from = c.from ?? 0
  return [{ from, to: Math.max(from, c.to ?? from), severity: 'error', message: c.error }]
}
