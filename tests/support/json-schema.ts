/**
 * A small validator for the JSON Schema subset the OpenAPI document uses (type, const, enum, pattern, bounds,
 * items, required, properties, additionalProperties, propertyNames, anyOf, `$ref` into its components), over
 * lossless JSON values: integers are bigints. It names the first place a value breaks its schema.
 */
import { isJsonObject, JsonDecimal, type JsonValue } from '../../src/core/json/lossless'
import type { JsonSchema } from '../../src/server/requests'

const COMPONENTS = '#/components/schemas/'

function typeOf(v: JsonValue): string {
  if (v === null) return 'null'
  if (typeof v === 'bigint') return 'integer'
  if (v instanceof JsonDecimal) return 'number'
  if (Array.isArray(v)) return 'array'
  return typeof v
}

function hasType(v: JsonValue, type: string): boolean {
  const actual = typeOf(v)
  return actual === type || (type === 'number' && actual === 'integer')
}

export class SchemaChecker {
  constructor(private readonly components: Readonly<Record<string, JsonSchema>>) {}

  private resolve(schema: JsonSchema): JsonSchema {
    if (typeof schema.$ref !== 'string') return schema
    const target = this.components[schema.$ref.replace(COMPONENTS, '')]
    if (target === undefined) throw new Error(`unresolved ${schema.$ref}`)
    return this.resolve(target)
  }

  /** Where `value` breaks `schema` (`$.a.b: why`), or undefined when it fits. */
  problem(value: JsonValue, s: JsonSchema | boolean, at = '$'): string | undefined {
    if (typeof s === 'boolean') return s ? undefined : `${at}: not allowed here`
    const schema = this.resolve(s)
    if (schema.anyOf !== undefined && schema.anyOf.every((alt) => this.problem(value, alt, at) !== undefined)) {
      return `${at}: fits none of ${schema.anyOf.length} alternatives (${schema.anyOf
        .map((alt) => this.problem(value, alt, at))
        .join(' | ')})`
    }
    if (schema.type !== undefined) {
      const types = Array.isArray(schema.type) ? schema.type : [schema.type]
      if (!types.some((t) => hasType(value, t))) return `${at}: a ${typeOf(value)}, not ${types.join(' or ')}`
    }
    if (schema.const !== undefined && value !== schema.const) return `${at}: not ${JSON.stringify(schema.const)}`
    if (schema.enum !== undefined && !schema.enum.includes(value as string)) return `${at}: not one of the enum`
    if (typeof value === 'string' && schema.pattern !== undefined && !new RegExp(schema.pattern).test(value)) {
      return `${at}: ${JSON.stringify(value)} does not match ${schema.pattern}`
    }
    // Compared as doubles, as JSON Schema validators in JavaScript do (the bound itself is a double).
    if (typeof value === 'bigint') {
      if (schema.minimum !== undefined && Number(value) < schema.minimum) return `${at}: below ${schema.minimum}`
      if (schema.maximum !== undefined && Number(value) > schema.maximum) return `${at}: above ${schema.maximum}`
    }
    if (Array.isArray(value) && schema.items !== undefined && !Array.isArray(schema.items)) {
      const items = schema.items
      for (const [i, item] of value.entries()) {
        const found = this.problem(item, items, `${at}[${i}]`)
        if (found !== undefined) return found
      }
    }
    if (isJsonObject(value) && typeOf(value) === 'object') {
      const missing = (schema.required ?? []).filter((k) => !Object.hasOwn(value, k))
      if (missing.length > 0) return `${at}: missing ${missing.join(', ')}`
      for (const [k, v] of Object.entries(value)) {
        if (schema.propertyNames !== undefined && this.problem(k, schema.propertyNames) !== undefined) {
          return `${at}: the key ${JSON.stringify(k)} is not allowed`
        }
        const property = schema.properties?.[k]
        const found =
          property !== undefined
            ? this.problem(v, property, `${at}.${k}`)
            : schema.additionalProperties === undefined
              ? undefined
              : this.problem(v, schema.additionalProperties, `${at}.${k}`)
        if (found !== undefined) return found
      }
    }
    return undefined
  }

  valid(value: JsonValue, schema: JsonSchema | boolean): boolean {
    return this.problem(value, schema) === undefined
  }
}
