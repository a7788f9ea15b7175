/** The API's wire codec: bigints and bytes survive exactly, plain numbers stay numbers, bad text is refused. */
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { createDeskClient, DeskError, type DeskTransport } from '../../src/api/contract'
import { decodeWire, encodeWire, WireError } from '../../src/api/wire'

describe('wire codec', () => {
  test('a "__proto__" key is an own field, never the prototype', () => {
    const decoded = decodeWire('{"a":1,"__proto__":{"password":"secret"}}') as Record<string, unknown>
    expect(Object.getPrototypeOf(decoded)).toBe(Object.prototype)
    expect(Object.keys(decoded)).toEqual(['a', '__proto__'])
    expect(decoded['password']).toBeUndefined()
    expect(Object.getOwnPropertyDescriptor(decoded, '__proto__')?.value).toEqual({ password: 'secret' })
  })

  test('round-trips amounts beyond 2^53, negative ones, bytes and nested plain data', () => {
    const value = {
      lovelace: 18446744073709551615n,
      debt: -(2n ** 80n),
      count: 3,
      ratio: 0.5,
      bytes: Uint8Array.of(0, 255, 16),
      list: [1n, 'two', null, true, { deep: [2n ** 64n] }]
    }
    const text = encodeWire(value)
    expect(text).toContain('{"$bigint":"18446744073709551615"}')
    expect(decodeWire(text)).toEqual(value)
  })

  test('any plain value round-trips', () => {
    const plain = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.bigInt(),
        fc.integer(),
        fc.string(),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie('value'), { maxLength: 4 }),
        fc.dictionary(
          fc.string().filter((k) => k !== '$bigint' && k !== '$bytes' && k !== '__proto__'),
          tie('value'),
          { maxKeys: 4, noNullPrototype: true }
        )
      )
    })).value
    fc.assert(
      fc.property(plain, (v) => {
        expect(decodeWire(encodeWire(v))).toEqual(v)
      })
    )
  })

  test.each([
    ['a number a double would round', '{"a": 9007199254740993}', /too large/],
    ['a bad $bigint', '{"$bigint": "12x"}', /bad \$bigint/],
    ['bad bytes', '{"$bytes": "abc"}', /.+/],
    ['broken JSON', '{"a": ', /.+/]
  ])('refuses %s', (_name, text, message) => {
    expect(() => decodeWire(text)).toThrow(WireError)
    expect(() => decodeWire(text)).toThrow(message)
  })

  test('refuses what is not plain data', () => {
    expect(() => encodeWire({ when: new Date(0) })).toThrow(/\$\.when is not plain data/)
    expect(() => encodeWire({ f: () => 1 })).toThrow(WireError)
    expect(() => encodeWire({ n: Number.NaN })).toThrow(/not a finite number/)
  })
})

describe('createDeskClient', () => {
  const codec = { encode: encodeWire, decode: decodeWire }

  test('sends the call name and request, returns the value', async () => {
    const seen: string[] = []
    const transport: DeskTransport = {
      call: async (name, wire) => {
        seen.push(name, wire)
        return encodeWire({
          ok: true,
          value: { walletId: 'w', address: 'a', lovelace: 2n ** 70n, assets: [], utxoCount: 1 }
        })
      }
    }
    const client = createDeskClient(transport, codec)
    const balance = await client['wallets.balance']({ walletId: 'w' })
    expect(balance.lovelace).toBe(2n ** 70n)
    expect(seen).toEqual(['wallets.balance', '{"walletId":"w"}'])
    expect(Object.isFrozen(client)).toBe(true)
  })

  test('a failed call rejects with the error’s sentence, code and details', async () => {
    const transport: DeskTransport = {
      call: async () =>
        encodeWire({
          ok: false,
          error: { message: 'The password is wrong.', code: 'WrongPassword', details: { walletId: 'w' } }
        })
    }
    const error = await createDeskClient(transport, codec)
      ['wallets.unlock']({ walletId: 'w', password: 'x' })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(DeskError)
    expect(error).toMatchObject({
      message: 'The password is wrong.',
      code: 'WrongPassword',
      details: { walletId: 'w' }
    })
  })
})
