/**
 * A contract Desk did not build, found and acted on in a real browser (issue 12): another service with its own
 * store creates an escrow on a sandbox ledger, its Buyer role token sent to Alice; Desk, which learns that chain
 * only through its chain index, shows Alice the contract among hers with what it waits for from her, she deposits
 * from the page, and the other builder sees her deposit. The same story runs with Desk on the sandbox itself,
 * through a local Blockfrost serving that ledger, and through a local Kupo and Ogmios telling it.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import type { OpenedChain } from '../../src/chain/open'
import { SandboxProvider } from '../../src/chain/sandbox'
import { sandboxWallet } from '../../src/chain/sandbox/wallets'
import { openService, type OpenService } from '../../src/engine/service'
import { sandboxBlockfrost, sandboxPeer } from '../chain/blockfrost/sandbox-peer'
import { sandboxKupo } from '../chain/kupo/sandbox-peers'
import { escrowRoles, witnessed } from '../engine/service/support'
import { rolesEscrow } from '../engine/build/flows'
import { testWallet } from '../engine/build/support'
import {
  SCREENSHOT_DIR,
  STEP_TIMEOUT_MS,
  restoreOnFirstRun,
  screenshots,
  startUiHost,
  suiteChromium,
  waitForText
} from './support'

const PASSWORD = 'correct horse battery staple'
const CONFIRM_TIMEOUT_MS = 60_000

const chromium = suiteChromium()

/** How Desk reaches the ledger the other builder writes to. */
type Route = 'sandbox' | 'Blockfrost' | 'Kupo + Ogmios'

interface World {
  readonly sandbox: SandboxProvider
  /** What Desk runs on. */
  readonly chain: OpenedChain
  /** The other builder: a service of its own, straight on the ledger, with its own store. */
  readonly other: OpenService
  close(): Promise<void>
}

async function world(route: Route): Promise<World> {
  const sandbox = SandboxProvider.open({ clockTickMs: false })
  const store = mkdtempSync(join(tmpdir(), 'marlowe-desk-e2e-other-'))
  const other = await openService({
    provider: sandbox,
    databasePath: join(store, 'other.sqlite'),
    followEveryMs: false
  })
  const closers: Array<() => Promise<void>> = [
    async () => rmSync(store, { recursive: true, force: true }),
    () => sandbox.close(),
    () => other.close()
  ]
  const close = async (): Promise<void> => {
    for (const c of closers.reverse()) await c()
  }
  const noClose = async (): Promise<void> => undefined
  try {
    if (route === 'sandbox')
      return { sandbox, other, close, chain: { provider: sandbox, network: 'sandbox', close: noClose } }
    if (route === 'Blockfrost') {
      const peer = await sandboxPeer(sandbox)
      closers.push(() => peer.close())
      return { sandbox, other, close, chain: { provider: sandboxBlockfrost(peer), network: 'sandbox', close: noClose } }
    }
    const peers = await sandboxKupo(sandbox)
    closers.push(() => peers.close())
    return { sandbox, other, close, chain: { provider: peers.provider, network: 'sandbox', close: noClose } }
  } catch (e) {
    await close()
    throw e
  }
}

/** The escrow (100 ada, deadlines days from now) created, signed and submitted by carol through the other service. */
async function otherCreatesEscrow(other: OpenService): Promise<string> {
  const contract = rolesEscrow(BigInt(Date.now()))
  const carol = testWallet('carol')
  const created = await other.service.createContract(
    { changeAddress: carol.address },
    { contract, roles: escrowRoles(), tags: { 'made-elsewhere': 'escrow' }, metadata: {} }
  )
  await other.service.submitBuild(created.contractId.slice(0, 64), witnessed(created.unsigned.tx, [carol]))
  await other.follower.sync()
  expect((await other.service.getContract(created.contractId)).status).toBe('confirmed')
  return created.contractId
}

describe('a contract another builder made, in the browser', () => {
  test.each<Route>(['sandbox', 'Blockfrost', 'Kupo + Ogmios'])(
    'through %s: the Buyer finds it by her role token and deposits; the other builder sees it',
    async (route) => {
      const browser = chromium()
      const w = await world(route)
      const server = await startUiHost(w.chain).catch(async (e: unknown) => {
        await w.close()
        throw e
      })
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' })
      context.setDefaultTimeout(STEP_TIMEOUT_MS)
      const page = await context.newPage()
      const shot = screenshots(page, SCREENSHOT_DIR, `other-builder-${route.replace(/\W+/g, '-').toLowerCase()}`)
      const pageErrors: string[] = []
      page.on('pageerror', (e) => pageErrors.push(e.message))
      page.on('console', (m) => {
        if (m.type() === 'error') pageErrors.push(m.text())
      })
      const byId = (id: string) => page.getByTestId(id)
      try {
        const contractId = await otherCreatesEscrow(w.other)
        const alice = sandboxWallet('alice')

        await page.goto(await server.nextLink())
        await restoreOnFirstRun(page, { name: 'Alice', mnemonic: alice.mnemonic, password: PASSWORD })

        // Desk never built this contract: it is listed because the index found it and Alice holds its Buyer token.
        await byId('nav-contracts').click()
        await byId('contracts-view').waitFor()
        await waitForText(byId('contract-awaiting'), /Deposit 100 ada as Buyer before /, CONFIRM_TIMEOUT_MS)
        expect(await byId('contract-row').count()).toBe(1)
        await waitForText(byId('contract-row'), 'made-elsewhere')
        await shot('listed')

        await byId('contract-row').getByRole('link').click()
        await byId('contract-detail').waitFor()
        await waitForText(byId('contract-id'), contractId)
        await waitForText(byId('deposit-action'), /Buyer.* deposits .*100 ada/)
        await byId('deposit-apply').click()
        await page.getByRole('heading', { level: 1, name: 'Review: Act in a contract' }).waitFor()
        await waitForText(byId('review-summary'), /In the contract, .*deposits 100 ada/)
        await shot('review-deposit')
        if (await byId('warnings-ack').isVisible()) await byId('warnings-ack').check()
        if (await byId('sign-password').isVisible()) await byId('sign-password').fill(PASSWORD)
        await byId('sign-submit').click()
        await byId('tx-confirmed').waitFor({ timeout: CONFIRM_TIMEOUT_MS })
        await byId('open-contract').click()
        await byId('contract-detail').waitFor()
        await waitForText(byId('contract-state'), /Seller’s account\s*100 ada/)
        await shot('deposited')

        // The other builder learns the deposit from the ledger, as the transaction Desk's page just signed.
        const recorded = (await w.other.follower.sync()).recorded
        expect(recorded).toHaveLength(1)
        const deposit = w.other.service.getTransaction(contractId, recorded[0]!)
        expect((await deposit).status).toBe('confirmed')
        expect((await deposit).inputs).toHaveLength(1)
        expect((await w.other.service.getContract(contractId)).current).toEqual(
          (await server.host.service.getContract(contractId)).current
        )

        // Any contract can also be opened by its id.
        await byId('nav-contracts').click()
        await byId('open-id').fill(contractId)
        await byId('open-id-go').click()
        await waitForText(byId('contract-id'), contractId)
        expect(pageErrors).toEqual([])
      } catch (e) {
        await shot('FAILED').catch(() => undefined)
        throw e
      } finally {
        await context.close()
        await server.stop()
        await w.close()
      }
    },
    180_000
  )
})
