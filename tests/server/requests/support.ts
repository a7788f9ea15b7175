/** Fixtures for the request-decoding tests: addresses of both networks, stake addresses, error capture. */
import { bech32 } from '@scure/base'
import { expect } from 'vitest'
import { formatShelleyAddress } from '../../../src/core/cardano/address'
import { parseJson, type JsonValue } from '../../../src/core/json/lossless'
import { EngineError } from '../../../src/engine/errors'

export const TESTNET_ADDRESS = formatShelleyAddress({ mainnet: false, payment: { type: 'key', hash: '11'.repeat(28) } })
export const TESTNET_ADDRESS_2 = formatShelleyAddress({
  mainnet: false,
  payment: { type: 'key', hash: '22'.repeat(28) },
  stake: { type: 'key', hash: '33'.repeat(28) }
})
export const MAINNET_ADDRESS = formatShelleyAddress({ mainnet: true, payment: { type: 'key', hash: '44'.repeat(28) } })

export function stakeAddress(mainnet: boolean): string {
  const payload = new Uint8Array(29).fill(0x55)
  payload[0] = 0xe0 | (mainnet ? 1 : 0)
  return bech32.encode(mainnet ? 'stake' : 'stake_test', bech32.toWords(payload))
}

export const POLICY = 'ab'.repeat(28)
export const TX = 'c0'.repeat(32)

/** Request bodies are parsed losslessly before decoding, as the server does. */
export function body(text: string): JsonValue {
  return parseJson(text)
}

export interface Expected {
  readonly kind?: EngineError['kind']
  readonly code: string
  /** The whole message, or a pattern it must match. */
  readonly message: string | RegExp
}

/** Runs `f`, which must throw an EngineError of the expected kind, code and message; returns it. */
export function engineError(f: () => unknown, expected: Expected): EngineError {
  let thrown: unknown
  try {
    f()
  } catch (e) {
    thrown = e
  }
  expect(thrown).toBeInstanceOf(EngineError)
  const e = thrown as EngineError
  expect(e.kind).toBe(expected.kind ?? 'BadRequest')
  expect(e.code).toBe(expected.code)
  if (typeof expected.message === 'string') expect(e.message).toBe(expected.message)
  else expect(e.message).toMatch(expected.message)
  return e
}
