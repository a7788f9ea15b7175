/**
 * What a TextEnvelope holds, by its `type`: the names cardano-cli (every version still in use),
 * cardano-hw-cli and Marlowe Runtime write for transactions, bodies and witnesses.
 */
import { type TextEnvelope } from './envelope'

export const ERAS = ['Shelley', 'Allegra', 'Mary', 'Alonzo', 'Babbage', 'Conway', 'Dijkstra'] as const
export type Era = (typeof ERAS)[number]

export type EnvelopeContent =
  /** A whole transaction `[body, witnesses, isValid, auxData]`, signed or not. */
  | { readonly kind: 'tx'; readonly era: Era }
  /** A transaction body alone (legacy `TxBody…` files). */
  | { readonly kind: 'body'; readonly era: Era }
  /** A witness set (Runtime's PUT body: `ShelleyTxWitness <Era>`). */
  | { readonly kind: 'witness-set'; readonly era: Era }
  /** One cardano-cli key witness `[0, [vkey, signature]]` or bootstrap witness `[1, …]`. */
  | { readonly kind: 'key-witness'; readonly era: Era }

const ERA_PATTERN = `(${ERAS.join('|')})Era`
const PATTERNS: ReadonlyArray<readonly [RegExp, EnvelopeContent['kind']]> = [
  [new RegExp(`^(?:Witnessed |Unwitnessed )?Tx ${ERA_PATTERN}$`), 'tx'],
  [new RegExp(`^TxBody(${ERAS.join('|')})$`), 'body'],
  [new RegExp(`^ShelleyTxWitness ${ERA_PATTERN}$`), 'witness-set'],
  [new RegExp(`^TxWitness ${ERA_PATTERN}$`), 'key-witness']
]

const LEGACY: Readonly<Record<string, EnvelopeContent>> = {
  TxSignedShelley: { kind: 'tx', era: 'Shelley' },
  TxUnsignedShelley: { kind: 'body', era: 'Shelley' },
  TxWitnessShelley: { kind: 'key-witness', era: 'Shelley' }
}

export const SUPPORTED_ENVELOPE_TYPES =
  'Tx <Era>, Witnessed Tx <Era>, Unwitnessed Tx <Era>, TxBody<Era>, ShelleyTxWitness <Era>, TxWitness <Era> (Era: ' +
  ERAS.map((e) => `${e}Era`).join(', ') +
  '), TxSignedShelley, TxUnsignedShelley'

/** Classifies an envelope, or returns undefined for a type that holds no transaction material. */
export function envelopeContent(envelope: TextEnvelope): EnvelopeContent | undefined {
  const legacy = LEGACY[envelope.type]
  if (legacy !== undefined) return legacy
  for (const [pattern, kind] of PATTERNS) {
    const era = pattern.exec(envelope.type)?.[1]
    if (era !== undefined) return { kind, era: era as Era }
  }
  return undefined
}

export function txEnvelopeType(era: Era): string {
  return `Tx ${era}Era`
}

export function witnessSetEnvelopeType(era: Era): string {
  return `ShelleyTxWitness ${era}Era`
}

export function keyWitnessEnvelopeType(era: Era): string {
  return `TxWitness ${era}Era`
}
