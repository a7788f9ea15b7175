import { describe, expect, test } from 'vitest'
import { SANDBOX_FAUCET, FAUCET_GENESIS_LOVELACE, sandboxWallet } from '../../../src/chain/sandbox'
import { formatShelleyAddress } from '../../../src/core/cardano/address'
import { sandboxes } from '../support/lifecycle'
import { ADA } from '../support/txkit'

const fresh = sandboxes()
const bob = sandboxWallet('bob')

describe('the faucet', () => {
  test('pays in a real, confirmed transaction from the faucet wallet', async () => {
    const sandbox = fresh()

    const ref = await sandbox.fund(bob.address, 1_000n * ADA)

    expect(ref.index).toBe(0)
    expect(await sandbox.utxosByRef([ref])).toEqual([
      { ref, address: bob.address, value: { lovelace: 1_000n * ADA, assets: {} } }
    ])
    expect(await sandbox.txStatus(ref.txId)).toMatchObject({ status: 'confirmed', block: { blockNo: 1n } })
    const [change] = await sandbox.utxosAt([SANDBOX_FAUCET.address])
    const fee = FAUCET_GENESIS_LOVELACE - 1_000n * ADA - change!.value.lovelace
    expect(fee > 150_000n && fee < 200_000n).toBe(true)
  })

  test('serves requests one after another, each from the change of the last', async () => {
    const sandbox = fresh()
    const refs = await Promise.all([1n, 2n, 3n].map((n) => sandbox.fund(bob.address, n * 10n * ADA)))
    expect(new Set(refs.map((r) => r.txId)).size).toBe(3)
    expect(await sandbox.utxosAt([SANDBOX_FAUCET.address])).toHaveLength(1)
    expect((await sandbox.tip()).blockNo).toBe(3n)
  })

  test('refuses what the ledger would: another network, too little ada, not an address', async () => {
    const sandbox = fresh()
    const mainnet = formatShelleyAddress({ mainnet: true, payment: { type: 'key', hash: bob.paymentKeyHash } })
    await expect(sandbox.fund(mainnet, 10n * ADA)).rejects.toMatchObject({
      kind: 'Rejected',
      reason: expect.stringMatching(/^WrongNetwork: output 0/)
    })
    await expect(sandbox.fund(bob.address, 1n)).rejects.toMatchObject({
      kind: 'Rejected',
      reason: expect.stringMatching(/^the faucet cannot pay 1 lovelace/)
    })
    await expect(sandbox.fund('not an address', 10n * ADA)).rejects.toMatchObject({
      kind: 'Rejected',
      reason: expect.stringMatching(/not an address/)
    })
    await expect(sandbox.fund(bob.address, 0n)).rejects.toMatchObject({ kind: 'Rejected' })
    await expect(sandbox.fund(bob.address, FAUCET_GENESIS_LOVELACE)).rejects.toMatchObject({
      kind: 'Rejected',
      reason: expect.stringMatching(/^the faucet has no UTxO/)
    })
    expect((await sandbox.tip()).blockNo).toBe(0n)
  })
})
