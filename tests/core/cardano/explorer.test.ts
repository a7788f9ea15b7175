import { describe, expect, it } from 'vitest'
import { explorerUrl, isExplorerUrl } from '../../../src/core/cardano/explorer'

const TX = 'ab'.repeat(32)
const ADDRESS = 'addr_test1vz2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzerspjrlsz'

describe('explorer links', () => {
  it('maps each public network and a transaction, contract id or address to its Cardanoscan page', () => {
    expect(explorerUrl('mainnet', { kind: 'tx', txId: TX })).toBe(`https://cardanoscan.io/transaction/${TX}`)
    expect(explorerUrl('preprod', { kind: 'tx', txId: `${TX.toUpperCase()}#3` })).toBe(
      `https://preprod.cardanoscan.io/transaction/${TX}`
    )
    expect(explorerUrl('preview', { kind: 'address', address: ADDRESS })).toBe(
      `https://preview.cardanoscan.io/address/${ADDRESS}`
    )
  })

  it('has no link on the sandbox, an unknown network, or for text that is not an id or an address', () => {
    expect(explorerUrl('sandbox', { kind: 'tx', txId: TX })).toBeUndefined()
    expect(explorerUrl('toString', { kind: 'tx', txId: TX })).toBeUndefined()
    expect(explorerUrl('mainnet', { kind: 'tx', txId: 'abc' })).toBeUndefined()
    expect(explorerUrl('mainnet', { kind: 'address', address: '../../evil' })).toBeUndefined()
    expect(explorerUrl('mainnet', { kind: 'address', address: `${ADDRESS}?x=1` })).toBeUndefined()
  })

  it('allows out exactly the pages it makes', () => {
    expect(isExplorerUrl(`https://cardanoscan.io/transaction/${TX}`)).toBe(true)
    expect(isExplorerUrl(`https://preview.cardanoscan.io/address/${ADDRESS}`)).toBe(true)
    for (const url of [
      `https://sandbox.cardanoscan.io/transaction/${TX}`,
      `https://cardanoscan.io/transaction/${TX}/extra`,
      `https://cardanoscan.io/transaction/${TX}#top`,
      `https://user@cardanoscan.io/transaction/${TX}`,
      `https://cardanoscan.io:444/transaction/${TX}`,
      `https://cardanoscan.io/token/${TX}`,
      `https://CARDANOSCAN.io/transaction/${TX.toUpperCase()}`,
      'not a url'
    ]) {
      expect(isExplorerUrl(url), url).toBe(false)
    }
  })
})
