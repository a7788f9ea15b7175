// @vitest-environment happy-dom
/**
 * A party or account at one of the user's wallets reads as that wallet, the way the review names it ("your wallet
 * “Sam”"), in the contract's tree, its accounts, its history and the act forms; other addresses stay shortened.
 */
import { flushPromises } from '@vue/test-utils'
import { describe, expect, test } from 'vitest'
import type { ContractTx, WalletSummary } from '../../src/api/contract'
import { onDeposit, when } from '../../src/core/marlowe/examples/dsl'
import { ADA, CLOSE, type Contract, type Input, type Party, type State } from '../../src/core/marlowe/types'
import {
  accountText,
  inputText,
  ownWalletText,
  partyText,
  paymentText,
  valueText
} from '../../src/renderer/src/model/marlowe-text'
import { useWalletsStore } from '../../src/renderer/src/stores/wallets'
import ContractNode from '../../src/renderer/src/components/contracts/ContractNode.vue'
import ContractDetailView from '../../src/renderer/src/views/ContractDetailView.vue'
import { FakeDesk, mountWithDesk } from './support/desk'
import { CONTRACT_ID, WALLET, contractDetail, nextSteps, status } from './support/desk-answers'

const NOW = 1_900_000_000_000n
const DEADLINE = NOW + 3_600_000n
const SAM: WalletSummary = { ...WALLET, id: '5a'.repeat(20), name: 'Sam' }
const BOB: WalletSummary = {
  ...WALLET,
  id: 'b0'.repeat(20),
  name: 'Bob',
  address: 'addr_test1vz2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzerspjrlsz'
}
const STRANGER = 'addr_test1vrssw4edcts00kk6lp7p5n64666m23tpprqaarmdwkaq69gfvqnpz'
const sam: Party = { type: 'Address', address: SAM.address }
const bob: Party = { type: 'Address', address: BOB.address }
const stranger: Party = { type: 'Address', address: STRANGER }
const buyer: Party = { type: 'Role', role: 'Buyer' }
const OWN = new Map([
  [SAM.address, 'Sam'],
  [BOB.address, 'Bob']
])

describe('marlowe text with the user’s wallets', () => {
  test('an own address is the wallet, another address is shortened, a role is its name', () => {
    expect(partyText(sam, OWN)).toBe('your wallet “Sam”')
    expect(partyText(sam, OWN)).toBe(ownWalletText('Sam'))
    expect(accountText(bob, OWN)).toBe('the account of your wallet “Bob”')
    expect(accountText(stranger, OWN)).toBe('addr_test1vrss…fvqnpz’s account')
    expect(accountText(buyer, OWN)).toBe('Buyer’s account')
    // Without the wallets (as before), addresses are shortened.
    expect(accountText(sam)).toBe('addr_test1vqg3…xrcya6’s account')
    expect(valueText({ type: 'AvailableMoney', account: sam, token: ADA }, ADA, OWN)).toBe(
      'ada in the account of your wallet “Sam”'
    )
    expect(
      inputText({ content: { type: 'IDeposit', account: sam, party: bob, token: ADA, amount: 5_000_000n } }, OWN)
    ).toBe('your wallet “Bob” deposits 5 ada into the account of your wallet “Sam”')
    expect(paymentText({ from: sam, to: { type: 'Party', party: stranger }, token: ADA, amount: 1n }, OWN)).toBe(
      '0.000001 ada from the account of your wallet “Sam” to addr_test1vrss…fvqnpz'
    )
  })
})

describe('plain words for what a contract does (issue 17, item 7)', () => {
  test('a notification names no subject twice, and a When with no action is a wait, not "one of 0 actions"', async () => {
    expect(`In the contract, ${inputText({ content: { type: 'INotify' } })}`).toBe(
      'In the contract, a notification is sent'
    )
    const waiting: Contract = { type: 'When', cases: [], timeout: DEADLINE, timeoutContinuation: CLOSE }
    const { wrapper } = await mountWithDesk(ContractNode, new FakeDesk({}), { props: { contract: waiting } })
    const line = wrapper.get('summary').text()
    expect(line).toMatch(/^Wait until \w{3} \d{1,2}, \d{4}, .+; nothing can be done before$/)
    expect(wrapper.text()).not.toMatch(/one of 0|actions happens/)
  })
})

describe('the contract screen names the user’s wallets', () => {
  /** Bob deposits 5 ada into Sam's account, or the buyer into the stranger's; Sam's account holds the min ada. */
  const CONTRACT: Contract = when(
    [onDeposit(sam, bob, ADA, 5_000_000n, CLOSE), onDeposit(stranger, buyer, ADA, 1_000_000n, CLOSE)],
    DEADLINE
  )
  const STATE: State = {
    accounts: [
      [{ account: sam, token: ADA }, 2_000_000n],
      [{ account: stranger, token: ADA }, 3_000_000n]
    ],
    choices: [],
    boundValues: [],
    minTime: NOW - 60_000n
  }

  test('accounts, tree, history and the deposit form', async () => {
    const detail = contractDetail(CONTRACT, STATE, DEADLINE)
    const deposit: Input = {
      content: { type: 'IDeposit', account: sam, party: sam, token: ADA, amount: 2_000_000n }
    }
    const history = {
      ...detail,
      transactions: [
        {
          transactionId: 'ab'.repeat(32),
          tags: {},
          metadata: {},
          status: 'confirmed',
          block: { slot: 1300n, blockNo: 60n, blockHash: 'cd'.repeat(32) },
          inputUtxo: CONTRACT_ID,
          inputs: [deposit],
          payouts: [],
          invalidBefore: 1_893_456_000_000n,
          invalidHereafter: 1_893_459_599_999n
        } satisfies ContractTx
      ]
    }
    const desk = new FakeDesk({
      'app.status': () => status(NOW),
      'wallets.list': () => [BOB, SAM],
      'contracts.get': () => history,
      'contracts.next': () => nextSteps(CONTRACT, STATE, NOW, [bob]),
      'payouts.list': () => []
    })
    const { wrapper, pinia } = await mountWithDesk(ContractDetailView, desk, {
      props: { contractId: CONTRACT_ID },
      path: `/contracts/${encodeURIComponent(CONTRACT_ID)}`
    })
    await useWalletsStore(pinia).load()
    await flushPromises()

    const accounts = wrapper.findAll('[data-testid=contract-account]').map((r) => r.text())
    expect(accounts).toEqual(['the account of your wallet “Sam”2 ada', 'addr_test1vrss…fvqnpz’s account3 ada'])

    const tree = wrapper.get('[data-testid=contract-tree]').text()
    expect(tree).toContain('your wallet “Bob” deposits 5 ada into the account of your wallet “Sam”')
    expect(tree).toContain('Buyer deposits 1 ada into addr_test1vrss…fvqnpz’s account')
    expect(tree).not.toContain(SAM.address.slice(0, 14))

    expect(wrapper.get('[data-testid=deposit-action]').text()).toContain(
      'your wallet “Bob” deposits 5 ada into the account of your wallet “Sam”.'
    )
    expect(wrapper.get('[data-testid=history-item]').text()).toContain(
      'your wallet “Sam” deposits 2 ada into the account of your wallet “Sam”'
    )
  })
})
