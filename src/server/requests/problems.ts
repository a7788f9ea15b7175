/**
 * Zod issues → one human-readable problem: where (an aeson-style JSON path such as `$.roles.Buyer`) and
 * what was expected versus what came. Only the first issue is reported, as aeson reports the first failure.
 */
import { z } from 'zod'
import { describe } from '../../core/marlowe/json'
import { JsonDecimal, type JsonValue } from '../../core/json/lossless'

export type PathSegment = string | number

export interface Problem {
  /** Where zod found the problem (for headers and queries, `path[0]` is the field). */
  readonly path: readonly PathSegment[]
  /** The JSON path to show, possibly deeper than `path` (the Marlowe decoders know more). */
  readonly where: string
  readonly reason: string
  /** Set when a required key is absent (then `path` is its parent's). */
  readonly missingKey?: string
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/

/** Appends one key or index to a JSON path (`$.a.b[0]["odd key"]`). */
export function childPath(where: string, segment: PathSegment): string {
  if (typeof segment === 'number') return `${where}[${segment}]`
  return IDENTIFIER.test(segment) ? `${where}.${segment}` : `${where}[${JSON.stringify(segment)}]`
}

function jsonPath(segments: readonly PathSegment[]): string {
  return segments.reduce<string>(childPath, '$')
}

/** A header or query value in a message, cut short if long. */
export function quote(text: string): string {
  return JSON.stringify(text.length > 120 ? `${text.slice(0, 120)}…` : text)
}

/** Describes a request value the way the core decoders do ("the string \"x\"", "an array of 2", …). */
export function describeInput(value: unknown): string {
  if (typeof value === 'number') return `the number ${value}`
  if (isJsonLike(value)) return describe(value)
  return 'an unsupported value'
}

function isJsonLike(value: unknown): value is JsonValue | undefined {
  const t = typeof value
  return t === 'undefined' || t === 'boolean' || t === 'bigint' || t === 'string' || t === 'object'
}

/** A JSON object (or a header or query object): what a missing key can be missing from. */
export function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof JsonDecimal)
}

function lookup(root: unknown, path: readonly PathSegment[]): { found: boolean; value: unknown } {
  let value = root
  for (const segment of path) {
    if (typeof segment === 'number') {
      if (!Array.isArray(value) || segment >= value.length) return { found: false, value: undefined }
      value = value[segment]
    } else {
      if (!isObject(value) || !Object.hasOwn(value, segment)) return { found: false, value: undefined }
      value = (value as Readonly<Record<string, unknown>>)[segment]
    }
  }
  return { found: true, value }
}

function segments(path: readonly PropertyKey[]): PathSegment[] {
  return path.map((s) => (typeof s === 'number' ? s : String(s)))
}

/** A branch the input was not meant for: it failed on the input's type or on a `branch` guard. */
function mismatched(issues: readonly z.core.$ZodIssue[]): boolean {
  return issues.every(
    (i) => i.path.length === 0 && (i.code === 'invalid_type' || (i.code === 'custom' && i.params?.mismatch === true))
  )
}

function problemOf(issue: z.core.$ZodIssue, input: unknown, prefix: readonly PathSegment[] = []): Problem {
  const path = [...prefix, ...segments(issue.path)]
  const at = (p: readonly PathSegment[], reason: string): Problem => ({ path: p, where: jsonPath(p), reason })
  if (issue.code === 'custom' && typeof issue.params?.where === 'string') {
    // Decoders that know a deeper location than zod's path (the Marlowe decoders) pass it as `where`.
    return { path, where: issue.params.where, reason: issue.message }
  }
  const actual = lookup(input, path)
  if (!actual.found) {
    const parentPath = path.slice(0, -1)
    const parent = lookup(input, parentPath).value
    const key = String(path.at(-1))
    if (isObject(parent)) return { ...at(parentPath, `missing required key ${JSON.stringify(key)}`), missingKey: key }
    // Zod reads keys of any object, so a non-object (say a JsonDecimal) shows up as missing keys.
    return at(parentPath, `expected an object, got ${describeInput(parent)}`)
  }
  switch (issue.code) {
    case 'invalid_union': {
      const meant = issue.errors.filter((errors) => !mismatched(errors))
      const first = meant.length === 1 ? meant[0]![0] : undefined
      if (first !== undefined) return problemOf(first, input, path)
      return at(path, `expected ${issue.message}, got ${describeInput(actual.value)}`)
    }
    case 'custom':
      return at(path, issue.message)
    case 'invalid_key':
      return at(path, `invalid key: expected ${issue.issues[0]?.message ?? 'a valid key'}`)
    default:
      return at(path, `expected ${issue.message}, got ${describeInput(actual.value)}`)
  }
}

const NOUNS: Readonly<Record<string, string>> = {
  string: 'a string',
  bigint: 'an integer',
  object: 'an object',
  record: 'an object',
  array: 'an array',
  boolean: 'a boolean'
}

/** Per-parse error map: noun phrases for issues whose schema names no expectation of its own. */
function expectation(issue: z.core.$ZodRawIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return NOUNS[issue.expected] ?? issue.expected
    case 'invalid_value':
      return issue.values.map((v) => JSON.stringify(String(v))).join(' or ')
    case 'invalid_format':
      return issue.pattern === undefined ? issue.format : `text matching ${issue.pattern}`
    case 'invalid_union':
      return 'one of the allowed forms'
    default:
      return 'a valid value'
  }
}

export type Parsed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problem: Problem }

/** Runs a schema; on failure reports the first issue against the original input. */
export function parseWith<S extends z.ZodType>(schema: S, input: unknown): Parsed<z.output<S>> {
  const result = schema.safeParse(input, { error: expectation })
  if (result.success) return { ok: true, value: result.data }
  // A failed parse has at least one issue.
  return { ok: false, problem: problemOf(result.error.issues[0]!, input) }
}
