import { describe, expect, it } from 'vitest'
import { envelopeContent } from '../../../src/core/cardano/tx-envelope'

const env = (type: string) => ({ type, description: '', cbor: new Uint8Array() })

describe('envelopeContent', () => {
  it.each([
    ['Tx ConwayEra', { kind: 'tx', era: 'Conway' }],
    ['Tx BabbageEra', { kind: 'tx', era: 'Babbage' }],
    ['Witnessed Tx ConwayEra', { kind: 'tx', era: 'Conway' }],
    ['Unwitnessed Tx BabbageEra', { kind: 'tx', era: 'Babbage' }],
    ['Tx DijkstraEra', { kind: 'tx', era: 'Dijkstra' }],
    ['TxSignedShelley', { kind: 'tx', era: 'Shelley' }],
    ['TxBodyConway', { kind: 'body', era: 'Conway' }],
    ['TxBodyMary', { kind: 'body', era: 'Mary' }],
    ['TxUnsignedShelley', { kind: 'body', era: 'Shelley' }],
    ['ShelleyTxWitness ConwayEra', { kind: 'witness-set', era: 'Conway' }],
    ['ShelleyTxWitness BabbageEra', { kind: 'witness-set', era: 'Babbage' }],
    ['TxWitness ConwayEra', { kind: 'key-witness', era: 'Conway' }]
  ])('reads %s', (type, content) => {
    expect(envelopeContent(env(type))).toEqual(content)
  })

  it.each([
    'PaymentSigningKeyShelley_ed25519',
    'Tx Conway',
    'tx ConwayEra',
    'Tx ConwayEra ',
    'TxBodyConwayEra',
    'ShelleyTxWitness FooEra'
  ])('does not take %j for a transaction', (type) => {
    expect(envelopeContent(env(type))).toBeUndefined()
  })
})
