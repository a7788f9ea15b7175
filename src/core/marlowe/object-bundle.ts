/**
 * The Marlowe object format (`Language.Marlowe.Object`): a contract written as labelled objects (contracts,
 * values, observations, parties, tokens, actions) that name earlier ones with `{"ref": label}`, linked here into
 * core contracts and merkleized as Runtime's contract store does (`TransferServer.merkleizeAndStoreContracts`):
 * every contract object and every case continuation that is not `Close` is stored under its merkle hash.
 *
 * Objects are defined before use, so a bundle has no cycles: a reference to a label not yet defined (itself
 * included) is an unknown symbol. A linked object's JSON is shared by every reference to it (a contract
 * object's in its merkleized form), and what each object expands to is measured as it goes (nodes and depth,
 * memoised per object) and bounded, because ten values that each use the previous one twice already expand a
 * thousandfold.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../json/lossless'
import { contractFacts } from './analysis'
import {
  decodeAction,
  decodeContract,
  decodeObservation,
  decodeParty,
  decodeToken,
  decodeValue,
  encodeContract,
  MarloweJsonError,
  isHex
} from './json'
import { deepMerkleize } from './merkle'
import { merkleHash } from './plutus/hash'
import type { Contract } from './types'

export const OBJECT_TYPES = ['value', 'observation', 'contract', 'party', 'token', 'action'] as const
export type ObjectType = (typeof OBJECT_TYPES)[number]

export interface LabelledObject {
  readonly label: string
  readonly type: ObjectType
  readonly value: JsonValue
}

/**
 * Bounds on one upload: far above real contracts, low enough that linking and merkleizing, which run on the
 * request's thread, stay under a second (5,000 small contract objects took 0.8 s and a chain of objects up to
 * the node limit 0.1 s, warm, with the engine's WebAssembly blake2b, on a shared core).
 */
export const BUNDLE_LIMITS = {
  /** Labelled objects in all the bundles of one upload. */
  maxObjects: 5_000,
  /** JSON nodes all the objects expand to, references inlined (a contract object's in its merkleized form). */
  maxExpandedNodes: 50_000,
  /** JSON levels one object expands to (the decoders and the Data encoder recurse per level). */
  maxExpandedDepth: 3_000
} as const

export type BundleErrorKind =
  | 'Malformed'
  | 'UnknownSymbol'
  | 'DuplicateLabel'
  | 'TypeMismatch'
  | 'ContinuationNotInStore'
  | 'MainNotDefined'
  | 'TooLarge'

/** Why a bundle was refused; `details` is what Runtime puts in its error's `details`. */
export class BundleError extends Error {
  constructor(
    readonly kind: BundleErrorKind,
    message: string,
    readonly details: JsonValue = null
  ) {
    super(message)
    this.name = 'BundleError'
  }
}

/** One JSON document of the upload (a bundle: an array of labelled objects), checked for shape. */
export function readBundle(doc: JsonValue, path: string): LabelledObject[] {
  if (!Array.isArray(doc)) throw malformed(path, 'expected a bundle: an array of labelled objects')
  return doc.map((item, i) => {
    const at = `${path}[${i}]`
    if (!isJsonObject(item)) throw malformed(at, 'expected a labelled object {"label", "type", "value"}')
    const { label, type, value } = item
    if (typeof label !== 'string') throw malformed(`${at}.label`, 'expected the label as a string')
    if (typeof type !== 'string' || !(OBJECT_TYPES as readonly string[]).includes(type)) {
      throw malformed(`${at}.type`, `expected one of: ${OBJECT_TYPES.join(', ')}`)
    }
    if (value === undefined) throw malformed(at, 'missing key "value"')
    return { label, type: type as ObjectType, value }
  })
}

export interface LinkedBundle {
  /** Each contract object's label → the merkle hash of its merkleized form (Runtime's `intermediateIds`). */
  readonly ids: ReadonlyMap<string, string>
  /** Every contract to store, by merkle hash: the contract objects and every continuation taken out of them. */
  readonly contracts: ReadonlyMap<string, Contract>
}

interface Linked {
  readonly type: ObjectType
  readonly json: JsonValue
  readonly nodes: number
  readonly depth: number
}

/**
 * Links the objects in order and merkleizes each contract object. `known` says whether the store holds a
 * contract: a `merkleized_then` the bundle names must be there or among the contracts linked before it.
 */
export function linkBundle(objects: readonly LabelledObject[], known: (hash: string) => boolean): LinkedBundle {
  if (objects.length > BUNDLE_LIMITS.maxObjects) {
    throw tooLarge(`the bundle has ${objects.length} objects, over the limit of ${BUNDLE_LIMITS.maxObjects}`)
  }
  const symbols = new Map<string, Linked>()
  const ids = new Map<string, string>()
  const contracts = new Map<string, Contract>()
  let expanded = 0
  for (const object of objects) {
    if (symbols.has(object.label)) {
      throw new BundleError('DuplicateLabel', 'Duplicate label.', object.label)
    }
    const linker = new Linker(symbols)
    const path = `objects[${JSON.stringify(object.label)}]`
    const resolved = linker.resolve(object.value, object.type, path, 1)
    if (resolved.depth > BUNDLE_LIMITS.maxExpandedDepth) {
      throw tooLarge(
        `${path} nests ${resolved.depth} JSON levels once its references are inlined, over the limit of ${BUNDLE_LIMITS.maxExpandedDepth}`
      )
    }
    expanded += resolved.nodes
    if (expanded > BUNDLE_LIMITS.maxExpandedNodes) {
      throw tooLarge(
        `the bundle expands to more than ${BUNDLE_LIMITS.maxExpandedNodes} JSON nodes once references are inlined`
      )
    }
    const decoded = decodeObject(object.type, resolved.json, path)
    if (decoded === undefined) {
      symbols.set(object.label, { type: object.type, ...resolved })
      continue
    }
    for (const hash of linker.merkleized) {
      if (!known(hash) && !contracts.has(hash)) {
        throw new BundleError('ContinuationNotInStore', 'Merkleized continuation not in store.', hash)
      }
    }
    const merkleized = deepMerkleize(decoded)
    for (const [hash, continuation] of merkleized.continuations) contracts.set(hash, continuation)
    const id = merkleHash(merkleized.contract)
    contracts.set(id, merkleized.contract)
    ids.set(object.label, id)
    // Uses of a contract object take its merkleized form: merkleizing is bottom-up and leaves merkleized cases
    // as they are, so the result is the same, and a schedule of N steps costs N steps rather than N².
    const json = encodeContract(merkleized.contract)
    symbols.set(object.label, { type: 'contract', json, ...measure(json) })
  }
  return { ids, contracts }
}

/** JSON nodes and levels of a value (a merkleized contract: as deep as the object it came from, or less). */
function measure(v: JsonValue): { readonly nodes: number; readonly depth: number } {
  const children = Array.isArray(v) ? v : isJsonObject(v) ? Object.values(v) : []
  let nodes = 1
  let deepest = 0
  for (const child of children) {
    const m = measure(child)
    nodes += m.nodes
    deepest = Math.max(deepest, m.depth)
  }
  return { nodes, depth: deepest + 1 }
}

/** Each stored contract's children: the hashes its merkleized cases name (Runtime's adjacency). */
export function adjacencyOf(contract: Contract): readonly string[] {
  return contractFacts(contract).merkleHashes
}

/** Decodes a linked object with the core decoders (they check what linking passed through); a contract is returned. */
function decodeObject(type: ObjectType, json: JsonValue, path: string): Contract | undefined {
  try {
    switch (type) {
      case 'contract':
        return decodeContract(json, path)
      case 'value':
        decodeValue(json, path)
        return undefined
      case 'observation':
        decodeObservation(json, path)
        return undefined
      case 'party':
        decodeParty(json, path)
        return undefined
      case 'token':
        decodeToken(json, path)
        return undefined
      case 'action':
        decodeAction(json, path)
        return undefined
    }
  } catch (e) {
    if (e instanceof MarloweJsonError) throw new BundleError('Malformed', e.message, path)
    throw e
  }
}

type Kind = ObjectType | 'case' | 'payee' | 'choiceId'

/** Which child of a recognised shape holds what (the keys Haskell's object parser reads, in its order). */
type Shape = readonly (readonly [key: string, kind: Kind | 'leaf'])[]

const VALUE_SHAPES: readonly (readonly [string, Shape])[] = [
  [
    'amount_of_token',
    [
      ['in_account', 'party'],
      ['amount_of_token', 'token']
    ]
  ],
  ['negate', [['negate', 'value']]],
  [
    'add',
    [
      ['add', 'value'],
      ['and', 'value']
    ]
  ],
  [
    'minus',
    [
      ['value', 'value'],
      ['minus', 'value']
    ]
  ],
  [
    'multiply',
    [
      ['multiply', 'value'],
      ['times', 'value']
    ]
  ],
  [
    'divide',
    [
      ['divide', 'value'],
      ['by', 'value']
    ]
  ],
  ['value_of_choice', [['value_of_choice', 'choiceId']]],
  ['use_value', [['use_value', 'leaf']]],
  [
    'if',
    [
      ['if', 'observation'],
      ['then', 'value'],
      ['else', 'value']
    ]
  ]
]

const OBSERVATION_SHAPES: readonly (readonly [string, Shape])[] = [
  [
    'both',
    [
      ['both', 'observation'],
      ['and', 'observation']
    ]
  ],
  [
    'either',
    [
      ['either', 'observation'],
      ['or', 'observation']
    ]
  ],
  ['not', [['not', 'observation']]],
  ['chose_something_for', [['chose_something_for', 'choiceId']]],
  ...['ge_than', 'gt', 'lt', 'le_than', 'equal_to'].map(
    (op) =>
      [
        op,
        [
          ['value', 'value'],
          [op, 'value']
        ]
      ] as const
  )
]

const CONTRACT_SHAPES: readonly (readonly [string, Shape])[] = [
  [
    'pay',
    [
      ['from_account', 'party'],
      ['to', 'payee'],
      ['token', 'token'],
      ['pay', 'value'],
      ['then', 'contract']
    ]
  ],
  [
    'if',
    [
      ['if', 'observation'],
      ['then', 'contract'],
      ['else', 'contract']
    ]
  ],
  [
    'when',
    [
      ['when', 'case'],
      ['timeout', 'leaf'],
      ['timeout_continuation', 'contract']
    ]
  ],
  [
    'let',
    [
      ['let', 'leaf'],
      ['be', 'value'],
      ['then', 'contract']
    ]
  ],
  [
    'assert',
    [
      ['assert', 'observation'],
      ['then', 'contract']
    ]
  ]
]

const ACTION_SHAPES: readonly (readonly [string, Shape])[] = [
  [
    'deposits',
    [
      ['into_account', 'party'],
      ['party', 'party'],
      ['of_token', 'token'],
      ['deposits', 'value']
    ]
  ],
  [
    'for_choice',
    [
      ['for_choice', 'choiceId'],
      ['choose_between', 'leaf']
    ]
  ],
  ['notify_if', [['notify_if', 'observation']]]
]

const SHAPES: Readonly<Record<Kind, readonly (readonly [string, Shape])[]>> = {
  value: VALUE_SHAPES,
  observation: OBSERVATION_SHAPES,
  contract: CONTRACT_SHAPES,
  action: ACTION_SHAPES,
  party: [],
  token: [],
  case: [],
  payee: [
    ['party', [['party', 'party']]],
    ['account', [['account', 'party']]]
  ],
  choiceId: [
    [
      'choice_owner',
      [
        ['choice_name', 'leaf'],
        ['choice_owner', 'party']
      ]
    ]
  ]
}

/** Kinds an object can name: only these take `{"ref": …}`. */
const REFERABLE = new Set<Kind>(OBJECT_TYPES)

interface Resolved {
  readonly json: JsonValue
  readonly nodes: number
  readonly depth: number
}

/** Inlines one object's references (sharing the referenced JSON) and measures what it expands to. */
class Linker {
  /** The hashes of the `merkleized_then` cases the object names itself. */
  readonly merkleized = new Set<string>()

  constructor(private readonly symbols: ReadonlyMap<string, Linked>) {}

  resolve(v: JsonValue, kind: Kind, path: string, depth: number): Resolved {
    if (depth > BUNDLE_LIMITS.maxExpandedDepth) {
      throw tooLarge(`${path} nests deeper than ${BUNDLE_LIMITS.maxExpandedDepth} JSON levels`)
    }
    if (kind === 'case') return this.resolveCase(v, path, depth)
    if (!isJsonObject(v)) return { json: v, nodes: 1, depth: 1 }
    for (const [key, shape] of SHAPES[kind]) {
      if (Object.hasOwn(v, key)) return this.resolveShape(v, shape, path, depth)
    }
    if (REFERABLE.has(kind) && Object.hasOwn(v, 'ref') && !isPlainLeaf(kind, v)) {
      return this.reference(v.ref ?? null, kind as ObjectType, `${path}.ref`)
    }
    // A shape not recognised here: the core decoder refuses it with its own message.
    return { json: v, nodes: 1, depth: 1 }
  }

  private resolveShape(v: JsonObject, shape: Shape, path: string, depth: number): Resolved {
    const json: JsonObject = {}
    let nodes = 1
    let deepest = 0
    for (const [key, kind] of shape) {
      if (!Object.hasOwn(v, key)) continue
      const child = v[key] as JsonValue
      const at = `${path}.${key}`
      const r =
        kind === 'leaf'
          ? { json: child, nodes: 1, depth: 1 }
          : kind === 'case'
            ? this.resolveCases(child, at, depth + 1)
            : this.resolve(child, kind, at, depth + 1)
      json[key] = r.json
      nodes += r.nodes
      deepest = Math.max(deepest, r.depth)
    }
    return { json, nodes, depth: deepest + 1 }
  }

  private resolveCases(v: JsonValue, path: string, depth: number): Resolved {
    if (!Array.isArray(v)) return { json: v, nodes: 1, depth: 1 }
    const json: JsonValue[] = []
    let nodes = 1
    let deepest = 0
    v.forEach((c, i) => {
      const r = this.resolve(c, 'case', `${path}[${i}]`, depth + 1)
      json.push(r.json)
      nodes += r.nodes
      deepest = Math.max(deepest, r.depth)
    })
    return { json, nodes, depth: deepest + 1 }
  }

  private resolveCase(v: JsonValue, path: string, depth: number): Resolved {
    if (!isJsonObject(v)) return { json: v, nodes: 1, depth: 1 }
    const merkleized = v.merkleized_then
    if (!Object.hasOwn(v, 'then') && typeof merkleized === 'string' && isHex(merkleized)) {
      this.merkleized.add(merkleized.toLowerCase())
    }
    return this.resolveShape(
      v,
      [
        ['case', 'action'],
        ['then', 'contract'],
        ['merkleized_then', 'leaf']
      ],
      path,
      depth
    )
  }

  private reference(label: JsonValue, kind: ObjectType, path: string): Resolved {
    if (typeof label !== 'string') throw malformed(path, 'expected the label of an object defined earlier')
    const linked = this.symbols.get(label)
    if (linked === undefined) throw new BundleError('UnknownSymbol', 'Symbol not defined.', label)
    if (linked.type !== kind) {
      throw new BundleError('TypeMismatch', 'Type mismatch.', { expected: kind, actual: linked.type })
    }
    return linked
  }
}

/** A party or token written out in full also parses when it carries a stray `ref` key (Haskell tries it first). */
function isPlainLeaf(kind: Kind, v: JsonObject): boolean {
  if (kind === 'party') return Object.hasOwn(v, 'address') || Object.hasOwn(v, 'role_token')
  if (kind === 'token') return Object.hasOwn(v, 'currency_symbol')
  return false
}

function malformed(path: string, reason: string): BundleError {
  return new BundleError('Malformed', `${path}: ${reason}`, path)
}

function tooLarge(reason: string): BundleError {
  return new BundleError('TooLarge', reason)
}
