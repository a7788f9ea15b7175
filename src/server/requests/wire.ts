/**
 * Zod building blocks for request shapes that arrive as lossless JSON (integers are `bigint`, values
 * decoded by the core decoders are opaque to zod). Each block records the JSON Schema it stands for, so the
 * OpenAPI document is generated from the very schema objects that validate requests.
 */
import { z } from 'zod'
import type { JsonValue } from '../../core/json/lossless'

export type JsonSchema = z.core.JSONSchema.BaseSchema

/** Metadata of the request registry: `id` makes a schema a named OpenAPI component. */
export interface SchemaMeta {
  readonly id?: string
  readonly description?: string
  readonly [keyword: string]: unknown
}

/** Every schema the OpenAPI document names or annotates. */
export const registry = z.registry<SchemaMeta>()

/** JSON Schemas for the zod types JSON Schema has no equivalent for (bigints, custom and decoded values). */
const wireSchemas = new WeakMap<z.core.$ZodType, JsonSchema>()

export function wireSchemaOf(schema: z.core.$ZodType): JsonSchema | undefined {
  return wireSchemas.get(schema)
}

export function named<T extends z.core.$ZodType>(schema: T, id: string, description: string): T {
  registry.add(schema, { id, description })
  return schema
}

export function annotated<T extends z.core.$ZodType>(schema: T, meta: SchemaMeta): T {
  registry.add(schema, meta)
  return schema
}

/** An integer within bounds; `what` is the noun phrase error messages use ("expected <what>"). */
export function integer(min: bigint | undefined, max: bigint | undefined, what: string): z.ZodBigInt {
  let schema = z.bigint({ error: what })
  if (min !== undefined) schema = schema.min(min, { error: what })
  if (max !== undefined) schema = schema.max(max, { error: what })
  wireSchemas.set(schema, {
    type: 'integer',
    ...(min === undefined ? {} : { minimum: Number(min) }),
    ...(max === undefined ? {} : { maximum: Number(max) })
  })
  return schema
}

/** Any JSON value, passed through untouched (so `JsonDecimal`s and own `__proto__` keys survive). */
export function anyJson(json: JsonSchema): z.ZodCustom<JsonValue, JsonValue> {
  const schema = z.custom<JsonValue>((v) => v !== undefined)
  wireSchemas.set(schema, json)
  return schema
}

/** Null reads as absent, as aeson's `.:?` does; the output is `T | undefined`. */
export function optional<T extends z.ZodType>(schema: T) {
  return schema.nullish().transform((v) => (v === null ? undefined : v))
}

/**
 * A union branch taken only when `applies(input)`: otherwise it fails with a marker issue, so error
 * reporting knows which branch the input was meant for (see `problems.ts`).
 */
export function branch<T extends z.ZodType>(applies: (input: unknown) => boolean, schema: T) {
  return z.preprocess((input, ctx) => {
    if (!applies(input)) ctx.addIssue({ code: 'custom', message: 'not this form', params: { mismatch: true } })
    return input
  }, schema)
}

/**
 * Zod silently skips an own `__proto__` key of records and of objects with extra keys (the lossless parser
 * keeps it as data), which would drop an entry without a word; refuse it instead.
 */
export function ownKeysOnly<T extends z.ZodType>(schema: T) {
  return z.preprocess((input, ctx) => {
    if (typeof input === 'object' && input !== null && Object.hasOwn(input, '__proto__')) {
      ctx.addIssue({ code: 'custom', message: 'the key "__proto__" is not supported' })
    }
    return input
  }, schema)
}

/** A JSON object used as a map; `what` is the noun phrase for a non-object. */
export function map<K extends z.core.$ZodRecordKey, V extends z.ZodType>(key: K, value: V, what: string) {
  return ownKeysOnly(z.record(key, value, { error: what }))
}
