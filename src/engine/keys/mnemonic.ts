/**
 * BIP39 recovery phrases (English word list). New wallets get 24 words; restoring also accepts the 12 and
 * 15 words of other Cardano wallets. Error messages give word positions, never the words: they are secret.
 */
import { generateMnemonic as generateWords, mnemonicToEntropy, validateMnemonic } from '@scure/bip39'
import { wordlist } from '@scure/bip39/wordlists/english.js'
import { keystoreError } from './errors'

export type MnemonicLength = 12 | 15 | 24

export const DEFAULT_MNEMONIC_LENGTH: MnemonicLength = 24

const ENTROPY_BITS: Readonly<Record<MnemonicLength, number>> = { 12: 128, 15: 160, 24: 256 }
const WORDS = new Set(wordlist)

export function generateMnemonic(length: MnemonicLength = DEFAULT_MNEMONIC_LENGTH): string[] {
  return generateWords(wordlist, ENTROPY_BITS[length]).split(' ')
}

/**
 * The BIP39 entropy of a phrase, checked word by word. Case, surrounding and repeated whitespace and Unicode
 * composition are forgiven, as people type phrases back by hand. The caller zeroes the result after use.
 */
export function mnemonicEntropy(phrase: string | readonly string[]): Uint8Array {
  const words = (typeof phrase === 'string' ? phrase.split(/\s+/u) : phrase)
    .map((word) => word.normalize('NFKD').trim().toLowerCase())
    .filter((word) => word !== '')
  if (!Object.hasOwn(ENTROPY_BITS, words.length)) {
    throw keystoreError('InvalidMnemonic', `a recovery phrase has 12, 15 or 24 words, got ${words.length}`)
  }
  const unknown = words.findIndex((word) => !WORDS.has(word))
  if (unknown >= 0) {
    throw keystoreError(
      'InvalidMnemonic',
      `word ${unknown + 1} of the recovery phrase is not in the BIP39 English list`
    )
  }
  const sentence = words.join(' ')
  if (!validateMnemonic(sentence, wordlist)) {
    throw keystoreError(
      'InvalidMnemonic',
      'the recovery phrase checksum does not match: a word is wrong or out of order'
    )
  }
  return mnemonicToEntropy(sentence, wordlist)
}
