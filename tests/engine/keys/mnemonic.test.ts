import { describe, expect, it } from 'vitest'
import { wordlist } from '@scure/bip39/wordlists/english.js'
import { bytesToHex } from '../../../src/core/bytes'
import { generateMnemonic, mnemonicEntropy } from '../../../src/engine/keys/mnemonic'
import { CSL_VECTORS, thrown } from './support'

const TWELVE = CSL_VECTORS[0].mnemonic
// The entropy CSL's tests give for this phrase.
const TWELVE_ENTROPY = 'df9ed25ed146bf43336a5d7cf7395994'

describe('recovery phrases', () => {
  it('generates 24 English words by default, and 12 or 15 on request', () => {
    const words = generateMnemonic()
    expect(words).toHaveLength(24)
    expect(words.every((word) => wordlist.includes(word))).toBe(true)
    expect(generateMnemonic(12)).toHaveLength(12)
    expect(generateMnemonic(15)).toHaveLength(15)
    expect(mnemonicEntropy(words)).toHaveLength(32)
  })

  it('generates a different phrase each time', () => {
    expect(generateMnemonic().join(' ')).not.toBe(generateMnemonic().join(' '))
  })

  it('reads the BIP39 entropy of a phrase given as text or as words', () => {
    expect(bytesToHex(mnemonicEntropy(TWELVE))).toBe(TWELVE_ENTROPY)
    expect(bytesToHex(mnemonicEntropy(TWELVE.split(' ')))).toBe(TWELVE_ENTROPY)
  })

  it('forgives case and extra whitespace', () => {
    const sloppy = `  ${TWELVE.toUpperCase().split(' ').join(' \n\t ')}  `
    expect(bytesToHex(mnemonicEntropy(sloppy))).toBe(TWELVE_ENTROPY)
  })

  it.each([
    ['13 words', `${TWELVE} abandon`, 'a recovery phrase has 12, 15 or 24 words, got 13'],
    ['no words', '   ', 'a recovery phrase has 12, 15 or 24 words, got 0'],
    [
      'an unknown word',
      TWELVE.replace('penalty', 'penality'),
      'word 4 of the recovery phrase is not in the BIP39 English list'
    ],
    [
      'two words swapped',
      TWELVE.replace('walk nut', 'nut walk'),
      'the recovery phrase checksum does not match: a word is wrong or out of order'
    ]
  ])('rejects %s, without echoing the words', (_what, phrase, message) => {
    const error = thrown(() => mnemonicEntropy(phrase))
    expect(error.code).toBe('InvalidMnemonic')
    expect(error.kind).toBe('BadRequest')
    expect(error.message).toBe(message)
  })
})
