/**
 * OpenAPI 3.1 `components.schemas` for the request side, generated with zod's `toJSONSchema` from the
 * schemas that validate requests. Bigints and the values the core decoders read (contracts, inputs,
 * metadata) carry their JSON Schema in `wire.ts`.
 */
import { z } from 'zod'
import './schemas'
import { registry, wireSchemaOf, type JsonSchema } from './wire'

const COMPONENTS = '#/components/schemas/'

/** Components whose properties are HTTP parameters, and where those travel. */
const PARAMETER_COMPONENTS = {
  WalletHeaders: 'header',
  CreateContractHeaders: 'header',
  GetContractsQuery: 'query',
  GetWithdrawalsQuery: 'query',
  GetPayoutsQuery: 'query',
  GetNextQuery: 'query',
  PostContractSourcesQuery: 'query',
  GetContractSourceQuery: 'query'
} as const

export type ParameterComponent = keyof typeof PARAMETER_COMPONENTS

/** An OpenAPI 3.1 Parameter Object. */
export interface ParameterObject {
  readonly name: string
  readonly in: 'header' | 'query'
  readonly required: boolean
  readonly description?: string
  readonly schema: JsonSchema
  /** Repeated query parameters: `?tag=a&tag=b`. */
  readonly explode?: true
}

/** Request schemas by component name; `$ref`s point into the same map. Numbers are JS numbers. */
export function requestSchemas(): Record<string, JsonSchema> {
  const { schemas } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    // Requests: document what clients send, not what the transforms produce.
    io: 'input',
    metadata: registry,
    uri: (id) => `${COMPONENTS}${id}`,
    unrepresentable: ({ zodSchema }) =>
      // Checks (min/max) hang off a parent bigint with no schema of its own; the checked one carries it.
      wireSchemaOf(zodSchema) ?? (zodSchema._zod.def.type === 'bigint' ? { type: 'integer' } : 'throw')
  })
  const out: Record<string, JsonSchema> = {}
  for (const [id, schema] of Object.entries(schemas)) {
    // Components are not documents: no `$schema`, and `$id` would re-base the `$ref`s inside them.
    const { $schema: _schema, $id: _id, ...rest } = schema
    out[id] = rest
  }
  return out
}

/** The header or query parameters described by one of the parameter components. */
export function requestParameters(
  component: ParameterComponent,
  schemas: Readonly<Record<string, JsonSchema>> = requestSchemas()
): ParameterObject[] {
  const object = schemas[component]
  const where = PARAMETER_COMPONENTS[component]
  const required = new Set(object?.required ?? [])
  return Object.entries(object?.properties ?? {}).map(([name, property]) => {
    const { description, ...schema } = typeof property === 'boolean' ? {} : property
    return {
      name,
      in: where,
      required: required.has(name),
      ...(typeof description === 'string' ? { description } : {}),
      schema,
      ...(schema.type === 'array' ? { explode: true as const } : {})
    }
  })
}
