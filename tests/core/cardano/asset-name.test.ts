/** Asset names as text: only safe, printable UTF-8; anything that could impersonate another name stays hex. */
import { describe, expect, test } from 'vitest'
import { bytesToHex } from '../../../src/core/bytes'
import { assetNameText } from '../../../src/core/cardano/asset-name'

const hex = (text: string): string => bytesToHex(new TextEncoder().encode(text))

describe('assetNameText', () => {
  test('printable names read as text, the empty name too', () => {
    expect(assetNameText(hex('Buyer'))).toBe('Buyer')
    expect(assetNameText(hex('Größe 🎟'))).toBe('Größe 🎟')
    expect(assetNameText('')).toBe('')
  })

  test.each([
    ['a bidi override (RLO) that reverses what follows', '\u202eyreB'],
    ['a bidi isolate', 'Sel\u2066ler'],
    ['a left-to-right mark', '\u200eSeller'],
    ['a control character', 'Sell\u0007er'],
    ['a C1 control character', 'Sell\u0085er']
  ])('%s has no text form', (_, name) => {
    expect(assetNameText(hex(name))).toBeUndefined()
  })

  test('bytes that are not UTF-8, odd or upper-case hex, and names over 32 bytes have no text form', () => {
    expect(assetNameText('ff')).toBeUndefined()
    expect(assetNameText('abc')).toBeUndefined()
    expect(assetNameText('4A')).toBeUndefined()
    expect(assetNameText(hex('x'.repeat(33)))).toBeUndefined()
    expect(assetNameText(hex('x'.repeat(32)))).toBe('x'.repeat(32))
  })
})
