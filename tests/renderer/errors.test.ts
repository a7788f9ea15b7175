/** What an error says on screen: plain words for the engine's and the core's texts, theirs kept in the details. */
import { describe, expect, test } from 'vitest'
import { DeskError } from '../../src/api/contract'
import { formatShelleyAddress } from '../../src/core/cardano/address'
import { formatTime } from '../../src/renderer/src/format/time'
import { addressProblem } from '../../src/renderer/src/model/address'
import { errorDetails, errorMessage } from '../../src/renderer/src/model/errors'

const ADDRESS = formatShelleyAddress({ mainnet: false, payment: { type: 'key', hash: '11'.repeat(28) } })
/** The address with its last character changed: its checksum no longer matches. */
const MISTYPED = ADDRESS.slice(0, -1) + (ADDRESS.endsWith('q') ? 'p' : 'q')

describe('addresses', () => {
  test('a mistyped address is said to have a wrong checksum, not a bech32 one', () => {
    expect(addressProblem(MISTYPED)).toBe('The address’s checksum is wrong: a character is mistyped, missing or extra.')
    expect(addressProblem('hello')).toBe(
      'This is not a Cardano address: they start with addr1 (mainnet) or addr_test1.'
    )
    expect(addressProblem(ADDRESS)).toBeUndefined()
    expect(addressProblem(' ')).toBe('Enter the address that receives it.')
  })
})

describe('engine errors', () => {
  test('amounts are in ada, not lovelace', () => {
    const e = new DeskError(
      'CoinSelectionFailed',
      'Coin selection failed: the wallet holds 1500000 lovelace, 2000000 are needed',
      {
        tag: 'CoinSelectionFailed',
        coinSelectionFailed: { tag: 'InsufficientLovelace', required: 2_000_000n, available: 1_500_000n }
      }
    )
    expect(errorMessage(e)).toBe('The wallet holds 1.5 ada; this transaction needs 2 ada.')
    // The engine's own text stays one click away, for a bug report.
    expect(errorDetails(e)).toContain('the wallet holds 1500000 lovelace')
    const deposit = new DeskError('InsufficientMinAdaDeposit', 'The min-UTxO deposit 1 is below the 1159390 lovelace', {
      minimumRequiredDeposit: 1_159_390n
    })
    expect(errorMessage(deposit)).toBe('The deposit is too small: this contract may need 1.15939 ada.')
  })

  test('a file that is not a transaction says so without cardano-cli’s field names', () => {
    const e = new DeskError('InvalidTransaction', 'TextEnvelope has no "type" string')
    expect(errorMessage(e)).not.toContain('TextEnvelope')
    expect(errorMessage(e)).toMatch(/^This is not a transaction Marlowe Desk can read/)
    expect(errorDetails(e)).toBe('code: InvalidTransaction\nTextEnvelope has no "type" string')
  })

  test('UTC times become local ones, address reasons plain words, other texts stay', () => {
    expect(errorMessage(new DeskError('Other', 'Closed at 2026-11-28T22:12:00.000Z.'))).toBe(
      `Closed at ${formatTime(BigInt(Date.UTC(2026, 10, 28, 22, 12)))}.`
    )
    expect(errorMessage(new DeskError('BadRequest', 'Invalid changeAddress value: bech32 checksum is invalid'))).toBe(
      'Invalid changeAddress value: the address’s checksum is wrong: a character is mistyped, missing or extra.'
    )
    expect(errorMessage(new DeskError('WalletLocked', 'The wallet is locked.'))).toBe('The wallet is locked.')
    expect(errorDetails(new DeskError('WalletLocked', 'The wallet is locked.'))).toBe('code: WalletLocked')
  })
})
