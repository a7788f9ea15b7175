import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { blake2bHex, blake2bPartsHex, portable, useBlake2b } from '../../src/core/blake2b'
import { bytesToHex, portableHex, useHexEncoder } from '../../src/core/bytes'
import { installNativeCodecs } from '../../src/engine/native-codecs'

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text)

describe('native codecs', () => {
  afterAll(() => {
    useBlake2b(portable)
    useHexEncoder(portableHex)
  })

  it('matches the published blake2b-256 and -224 values (portable)', () => {
    // RFC 7693 style check values for the empty input and "abc".
    expect(blake2bHex(new Uint8Array(0), 32)).toBe('0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8')
    expect(blake2bHex(utf8('abc'), 32)).toBe('bddd813c634239723171ef3fee98579b94964e3bb1cb3e427262c8c068d52319')
    expect(blake2bHex(new Uint8Array(0), 28)).toBe('836cc68931c2e4e3e838602eca1902591d216837bafddfe6f0c8cb07')
  })

  it('the WebAssembly blake2b the engine installs gives the same digests for every length used', async () => {
    await installNativeCodecs()
    expect(blake2bHex(utf8('abc'), 32)).toBe('bddd813c634239723171ef3fee98579b94964e3bb1cb3e427262c8c068d52319')
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 20_000 }), fc.constantFrom(20, 28, 32, 64), (bytes, length) => {
        expect(blake2bHex(bytes, length)).toBe(bytesToHex(portable([bytes], length)))
      }),
      { numRuns: 200 }
    )
  })

  it('hashes parts as their concatenation, portable and WebAssembly alike', async () => {
    const check = (): void =>
      fc.assert(
        fc.property(
          fc.array(fc.uint8Array({ maxLength: 3000 }), { maxLength: 5 }),
          fc.constantFrom(28, 32),
          (parts, n) => {
            const whole = new Uint8Array(parts.reduce((sum, p) => sum + p.length, 0))
            let at = 0
            for (const p of parts) {
              whole.set(p, at)
              at += p.length
            }
            expect(blake2bPartsHex(parts, n)).toBe(blake2bHex(whole, n))
            expect(blake2bPartsHex(parts, n)).toBe(bytesToHex(portable([whole], n)))
          }
        ),
        { numRuns: 100 }
      )
    await installNativeCodecs()
    check()
    useBlake2b(portable)
    check()
  })

  it('the native hex the engine installs gives the portable text, for views into larger buffers too', async () => {
    await installNativeCodecs()
    expect(bytesToHex(Uint8Array.of(0, 1, 0xab, 0xff, 0x10, 0x7f, 0x80, 0x0f, 0xf0))).toBe('0001abff107f800ff0')
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 9000 }), fc.nat(), fc.nat(), (bytes, a, b) => {
        const from = bytes.length === 0 ? 0 : a % bytes.length
        const view = bytes.subarray(from, from + (b % (bytes.length - from + 1)))
        expect(bytesToHex(view)).toBe(portableHex(view))
      }),
      { numRuns: 300 }
    )
  })

  it('installing twice is one installation', async () => {
    await Promise.all([installNativeCodecs(), installNativeCodecs()])
    expect(blake2bHex(utf8('abc'), 28)).toBe(bytesToHex(portable([utf8('abc')], 28)))
  })
})
