import { describe, expect, test } from 'vitest'
import {
  MARLOWE_DEPLOYMENTS,
  marloweDeployment,
  payoutValidatorAddress,
  semanticsValidatorAddress
} from '../../src/chain/deployments'
import { SANDBOX_REFERENCE_SCRIPTS, STAND_IN_VALIDATORS } from '../../src/chain/sandbox'
import { parseShelleyAddress } from '../../src/core/cardano/address'
import { sandboxes } from './support/lifecycle'

const fresh = sandboxes()

describe('Marlowe deployments', () => {
  test('the public networks use the Runtime 1.0 script set (runtime-api.md §11)', () => {
    for (const network of ['mainnet', 'preprod', 'preview'] as const) {
      expect(marloweDeployment(network)).toMatchObject({
        network,
        standIn: false,
        semantics: { hash: '377325ad84a55ba0282d844dff2d5f0f18c33fd4a28a0a9d73c6f60d', reference: { index: 1 } },
        payout: { hash: 'fcb8885eb5e4f9a5cfca3c75e8c7280e482af32dcdf2d13e47d05d27', reference: { index: 2 } },
        openRole: { hash: '2722e12a53dfb4fe3742b8a2c0534bd16b0b5ae492a3d76554bbe8a5', reference: { index: 1 } }
      })
      const d = MARLOWE_DEPLOYMENTS[network]
      expect(d.payout.reference.txId).toBe(d.semantics.reference.txId)
    }
    expect(MARLOWE_DEPLOYMENTS.mainnet.semantics.reference.txId).toBe(
      '9e2f6031d9bd6ff1d08f38ff469657b8dac63ab78854a1fccca6b922292d0fce'
    )
    expect(MARLOWE_DEPLOYMENTS.preprod.openRole.reference.txId).toBe(
      'e3f2fc0da8eed52092eb909848365ab534177aea8321432f50e553848a7911c4'
    )
    expect(MARLOWE_DEPLOYMENTS.preview.semantics.reference.txId).toBe(
      '63e44f2ab9304e6d16aeceda07493d5ceb88e7f2d5e147dd208ef5edf3fbb436'
    )
  })

  test('the sandbox entry names the stand-ins, and its reference UTxOs hold them', async () => {
    const sandbox = fresh()
    const d = marloweDeployment('sandbox')
    expect(d.standIn).toBe(true)
    for (const role of ['semantics', 'payout', 'openRole'] as const) {
      expect(d[role].hash).toBe(STAND_IN_VALIDATORS[role].hash)
      const [utxo] = await sandbox.utxosByRef([d[role].reference])
      expect(utxo?.scriptRef?.bytes).toEqual(SANDBOX_REFERENCE_SCRIPTS[role].script.bytes)
    }
  })

  test('validator addresses: payout without a stake part, semantics with one when given', () => {
    expect(parseShelleyAddress(payoutValidatorAddress('mainnet'))).toEqual({
      mainnet: true,
      payment: { type: 'script', hash: MARLOWE_DEPLOYMENTS.mainnet.payout.hash }
    })
    expect(payoutValidatorAddress('preprod')).toMatch(/^addr_test1w/)
    const stake = { type: 'key', hash: '11'.repeat(28) } as const
    expect(parseShelleyAddress(semanticsValidatorAddress('preview', stake))).toEqual({
      mainnet: false,
      payment: { type: 'script', hash: MARLOWE_DEPLOYMENTS.preview.semantics.hash },
      stake
    })
    expect(parseShelleyAddress(semanticsValidatorAddress('sandbox'))).toEqual({
      mainnet: false,
      payment: { type: 'script', hash: STAND_IN_VALIDATORS.semantics.hash }
    })
  })
})
