/**
 * The offline review whole (issue 16 §3): a deposit built on the sandbox, carried as a review bundle to a Desk
 * set to another network with no chain at all (a Blockfrost on a closed port), is reviewed there with its
 * Marlowe section — the contract input decoded, the step run, the net effect — and, carried as a bare
 * transaction file without its inputs, claims no net effect at all.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { BlockfrostProvider } from '../../../src/chain/blockfrost'
import type { NetworkName } from '../../../src/chain/provider'
import { unreadInputs } from '../../../src/core/cardano/review'
import { unusedPort } from '../../chain/submit-api/peer'
import { depositFiles } from './deposit-files'
import { deskHarness, restoreSandboxWallet, type DeskHarness } from './support'

let online: DeskHarness
let bundleText: string
let unsignedText: string

/** A desk on `network` whose chain never answers: the air-gapped machine. */
async function offlineDesk(network: Exclude<NetworkName, 'sandbox'>): Promise<DeskHarness> {
  const provider = new BlockfrostProvider({
    network,
    projectId: 'offline',
    baseUrl: `http://127.0.0.1:${await unusedPort()}/api/v0`,
    retries: 0,
    timeoutMs: 1_000
  })
  return deskHarness({ provider: Object.assign(provider, { close: async () => {} }) })
}

beforeAll(async () => {
  online = await deskHarness()
  ;({ bundleText, unsignedText } = await depositFiles(online, await restoreSandboxWallet(online, 'alice')))
}, 120_000)
afterAll(() => online.close())

describe.each(['preprod', 'mainnet'] as const)('a sandbox deposit reviewed on an offline Desk set to %s', (network) => {
  let offline: DeskHarness
  beforeAll(async () => {
    offline = await offlineDesk(network)
    await restoreSandboxWallet(offline, 'alice')
  })
  afterAll(() => offline.close())

  test('from its bundle: the Marlowe section is whole — the contract input, the step run, the net effect', async () => {
    const { review } = await offline.ok('tx.import', { text: bundleText })
    expect(review.inputs.every((i) => i.resolved)).toBe(true)
    expect(review.inputs.some((i) => i.address?.scriptName === 'marlowe-semantics')).toBe(true)
    expect(review.marlowe.steps).toHaveLength(1)
    const [step] = review.marlowe.steps
    expect(step?.result).toMatchObject({ type: 'success', closes: true })
    expect(step?.inputs).toHaveLength(1)
    // Closing pays Alice her 10 ada and the contract's min-ada back: she is out the fee less that min-ada.
    const contractInput = review.inputs.find((i) => i.address?.scriptName === 'marlowe-semantics')
    const [effect] = review.netEffect
    expect(effect).toMatchObject({ complete: true, lovelace: review.fee.fee - contractInput!.value!.lovelace })
  })

  test('from the bare transaction file: no net effect is claimed, what is unknown is said', async () => {
    const { review } = await offline.ok('tx.import', { text: unsignedText })
    expect(review.inputs.every((i) => !i.resolved)).toBe(true)
    expect(review.netEffect.length).toBeGreaterThan(0)
    for (const effect of review.netEffect) {
      expect(effect).toMatchObject({ complete: false })
      expect(unreadInputs(review).spent).toBe(review.inputs.length)
      expect(effect).not.toHaveProperty('lovelace')
    }
  })
})
