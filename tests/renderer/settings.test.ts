// @vitest-environment happy-dom
/**
 * The Settings screen: the saved settings shown; network and node edited and tested (result or a readable
 * failure); checked before sending; saved as one `DeskSettings`, the status read again after a network change;
 * the local API's address and token shown while it runs; what `serve --ui` fixes is shown and disabled.
 */
import { flushPromises, type VueWrapper } from '@vue/test-utils'
import { describe, expect, test, vi } from 'vitest'
import { DeskError, type DeskSettings, type SettingsState } from '../../src/api/contract'
import App from '../../src/renderer/src/App.vue'
import { useWalletsStore } from '../../src/renderer/src/stores/wallets'
import { FakeDesk, mountWithDesk, type FakeHandlers } from './support/desk'
import { status, WALLET } from './support/desk-answers'

const DEFAULTS: DeskSettings = {
  network: 'sandbox',
  node: {},
  autoLockMinutes: 5,
  localApi: { enabled: false, port: 3780 }
}
const TOKEN = 'tok3n-for-the-local-api-0123456789ab'

function stateOf(settings: DeskSettings, extra: Partial<SettingsState> = {}): SettingsState {
  return { settings, localApi: { listening: false, token: TOKEN }, ...extra }
}

async function openSettings(handlers: FakeHandlers = {}, initial: SettingsState = stateOf(DEFAULTS)) {
  let network: DeskSettings['network'] = initial.settings.network
  const desk = new FakeDesk({
    'app.status': () => status(1_700_000_000_000n, network),
    'wallets.list': () => [WALLET],
    'settings.get': () => initial,
    'settings.update': (settings) => {
      network = settings.network
      return stateOf(settings)
    },
    ...handlers
  })
  const mounted = await mountWithDesk(App, desk, { path: '/settings' })
  return { desk, wrapper: mounted.wrapper }
}

const find = (wrapper: VueWrapper, id: string) => wrapper.find(`[data-testid="${id}"]`)

describe('settings', () => {
  test('a preview node is tested without saving anything, and the report is shown', async () => {
    const { desk, wrapper } = await openSettings({
      'settings.testConnection': ({ network }) => ({
        network,
        checks: ['Ogmios at ws://node:1337 answers and serves preview.']
      })
    })
    expect((find(wrapper, 'network-sandbox').element as HTMLInputElement).checked).toBe(true)
    expect(find(wrapper, 'test-connection').exists()).toBe(false)
    await find(wrapper, 'network-preview').setValue(true)
    await find(wrapper, 'field-ogmios').setValue('ws://node:1337')
    await find(wrapper, 'test-connection').trigger('click')
    await flushPromises()
    expect(desk.requests('settings.testConnection')).toEqual([
      { network: 'preview', node: { ogmios: 'ws://node:1337' } }
    ])
    expect(find(wrapper, 'connection-report').text()).toBe('Ogmios at ws://node:1337 answers and serves preview.')
    expect(desk.requests('settings.update')).toEqual([])
  })

  test('a failed test reads as a sentence; a missing URL is caught before asking', async () => {
    const { desk, wrapper } = await openSettings({
      'settings.testConnection': () => {
        throw new DeskError('NodeUnavailable', 'The node cannot be reached; try again later: connection refused.')
      }
    })
    await find(wrapper, 'network-preprod').setValue(true)
    await find(wrapper, 'test-connection').trigger('click')
    await flushPromises()
    expect(wrapper.text()).toContain('Enter Ogmios’ address')
    expect(desk.requests('settings.testConnection')).toEqual([])

    await find(wrapper, 'field-ogmios').setValue('ws://127.0.0.1:9')
    await find(wrapper, 'test-connection').trigger('click')
    await flushPromises()
    expect(find(wrapper, 'error').text()).toContain('The node cannot be reached; try again later: connection refused.')
  })

  test('saving sends the whole settings and reads the status of the new network', async () => {
    const { desk, wrapper } = await openSettings()
    await find(wrapper, 'network-preview').setValue(true)
    await find(wrapper, 'node-blockfrost').setValue(true)
    await find(wrapper, 'field-blockfrost-id').setValue(' previewAbc123 ')
    await find(wrapper, 'field-submit-api').setValue('http://127.0.0.1:8090')
    await find(wrapper, 'field-auto-lock').setValue('15')
    await find(wrapper, 'local-api-enabled').setValue(true)
    await find(wrapper, 'field-api-port').setValue('4000')
    const statusCalls = desk.requests('app.status').length
    await find(wrapper, 'settings-form').trigger('submit')
    await flushPromises()
    expect(desk.requests('settings.update')).toEqual([
      {
        network: 'preview',
        node: { blockfrost: { projectId: 'previewAbc123' }, submitApi: 'http://127.0.0.1:8090' },
        autoLockMinutes: 15,
        localApi: { enabled: true, port: 4000 }
      }
    ])
    expect(desk.requests('app.status').length).toBe(statusCalls + 1)
    expect(find(wrapper, 'settings-network').text()).toBe('preview')
    expect(find(wrapper, 'settings-saved').exists()).toBe(true)
  })

  test('Ogmios with Kupo is saved together; a Kupo address that is not http is explained and not sent', async () => {
    const { desk, wrapper } = await openSettings()
    await find(wrapper, 'network-preprod').setValue(true)
    await find(wrapper, 'field-ogmios').setValue('ws://node:1337')
    await find(wrapper, 'field-kupo').setValue('ws://node:1442')
    await find(wrapper, 'settings-form').trigger('submit')
    await flushPromises()
    expect(wrapper.text()).toContain('Enter Kupo’s address')
    expect(desk.requests('settings.update')).toEqual([])

    await find(wrapper, 'field-kupo').setValue(' http://node:1442 ')
    await find(wrapper, 'settings-form').trigger('submit')
    await flushPromises()
    expect(desk.requests('settings.update')).toEqual([
      {
        network: 'preprod',
        node: { ogmios: 'ws://node:1337', kupo: 'http://node:1442' },
        autoLockMinutes: 5,
        localApi: { enabled: false, port: 3780 }
      }
    ])
  })

  test('the sandbox’s validators folder is saved with the settings; a relative path is explained', async () => {
    const { desk, wrapper } = await openSettings()
    await find(wrapper, 'field-sandbox-validators').setValue('validators')
    await find(wrapper, 'settings-form').trigger('submit')
    await flushPromises()
    expect(wrapper.text()).toContain('Enter the folder’s whole path')
    expect(desk.requests('settings.update')).toEqual([])
    await find(wrapper, 'field-sandbox-validators').setValue(' /home/me/validators ')
    await find(wrapper, 'settings-form').trigger('submit')
    await flushPromises()
    expect(desk.requests('settings.update')).toEqual([{ ...DEFAULTS, sandboxValidators: '/home/me/validators' }])
  })

  test('new auto-lock minutes lock every wallet in the engine: the wallets are read again', async () => {
    let saved = false
    const { desk, wrapper } = await openSettings({
      'wallets.list': () => [saved ? { ...WALLET, locked: true } : { ...WALLET, locked: false, locksAt: 1n << 60n }],
      'settings.update': (settings) => {
        saved = true
        return stateOf(settings)
      }
    })
    expect(useWalletsStore().selected?.locked).toBe(false)
    const listed = desk.requests('wallets.list').length
    await find(wrapper, 'field-auto-lock').setValue('15')
    await find(wrapper, 'settings-form').trigger('submit')
    await flushPromises()
    expect(desk.requests('wallets.list').length).toBe(listed + 1)
    expect(useWalletsStore().selected?.locked).toBe(true)
  })

  test('bad minutes and ports are explained and not sent', async () => {
    const { desk, wrapper } = await openSettings()
    await find(wrapper, 'field-auto-lock').setValue('0')
    await find(wrapper, 'field-api-port').setValue('80')
    await find(wrapper, 'settings-form').trigger('submit')
    await flushPromises()
    expect(wrapper.text()).toContain('Enter a whole number of minutes from 1 to 1440.')
    expect(wrapper.text()).toContain('Enter a port from 1024 to 65535.')
    expect(find(wrapper, 'field-auto-lock').attributes('aria-invalid')).toBe('true')
    expect(desk.requests('settings.update')).toEqual([])
  })

  test('a refused save shows the engine’s sentence', async () => {
    const { wrapper } = await openSettings({
      'settings.update': () => {
        throw new DeskError('NodeUnavailable', 'The node cannot be reached; try again later: no answer.')
      }
    })
    await find(wrapper, 'field-auto-lock').setValue('10')
    await find(wrapper, 'settings-form').trigger('submit')
    await flushPromises()
    expect(find(wrapper, 'error').text()).toContain('The node cannot be reached')
    expect(find(wrapper, 'settings-saved').exists()).toBe(false)
  })

  test('the running local API shows its address and token; a problem and a warning are shown', async () => {
    const running = stateOf(
      { ...DEFAULTS, localApi: { enabled: true, port: 3780 } },
      {
        localApi: { listening: true, url: 'http://127.0.0.1:3780/', token: TOKEN },
        warning: 'The settings file x is not valid JSON, so the defaults are in use.'
      }
    )
    const { wrapper } = await openSettings({}, running)
    expect(find(wrapper, 'local-api-running').text()).toContain('http://127.0.0.1:3780/')
    expect(find(wrapper, 'local-api-port').text()).toBe('3780')
    // Hidden until asked for, copied whole either way.
    expect(find(wrapper, 'local-api-running').text()).not.toContain(TOKEN)
    expect(find(wrapper, 'local-api-token').text()).toBe('•'.repeat(12))
    expect(find(wrapper, 'local-api-token-url').text()).toBe(`http://127.0.0.1:3780/t/${'•'.repeat(12)}/`)
    const writeText = vi.fn(async (_text: string) => {})
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true })
    await wrapper
      .findAll('button')
      .find((b) => b.text() === 'Copy token')!
      .trigger('click')
    await flushPromises()
    expect(writeText).toHaveBeenLastCalledWith(TOKEN)
    await find(wrapper, 'local-api-reveal').trigger('click')
    expect(find(wrapper, 'local-api-reveal').attributes('aria-pressed')).toBe('true')
    expect(find(wrapper, 'local-api-token').text()).toBe(TOKEN)
    expect(find(wrapper, 'local-api-running').text()).toContain(`http://127.0.0.1:3780/t/${TOKEN}/`)
    await find(wrapper, 'local-api-reveal').trigger('click')
    expect(find(wrapper, 'local-api-running').text()).not.toContain(TOKEN)
    expect(find(wrapper, 'settings-warning').text()).toContain('the defaults are in use')

    const taken = await openSettings(
      {},
      stateOf(running.settings, {
        localApi: { listening: false, token: TOKEN, problem: 'Port 3780 is already in use.' }
      })
    )
    expect(find(taken.wrapper, 'local-api-problem').text()).toBe('Port 3780 is already in use.')
    expect(find(taken.wrapper, 'local-api-token').exists()).toBe(false)
  })

  test('what serve --ui fixes is explained and cannot be edited', async () => {
    const fixed = stateOf(
      { ...DEFAULTS, network: 'preprod', node: { ogmios: 'ws://node:1337' }, localApi: { enabled: true, port: 3780 } },
      {
        networkFixed: 'Started with --network preprod.',
        localApiFixed: 'This server is the local API.',
        localApi: { listening: true, url: 'http://127.0.0.1:41234/', token: TOKEN }
      }
    )
    const { wrapper } = await openSettings({}, fixed)
    // The port serve was started on, not the one in the settings file.
    expect(find(wrapper, 'local-api-port').text()).toBe('41234')
    expect(find(wrapper, 'field-api-port').exists()).toBe(false)
    expect(find(wrapper, 'network-fixed').text()).toBe('Started with --network preprod.')
    expect(find(wrapper, 'local-api-fixed').text()).toBe('This server is the local API.')
    expect((find(wrapper, 'field-ogmios').element as HTMLInputElement).disabled).toBe(true)
    // Neither switched nor moved here: serve's own flags decide, and it is serving.
    expect(find(wrapper, 'local-api-enabled').exists()).toBe(false)
    expect((find(wrapper, 'field-auto-lock').element as HTMLInputElement).disabled).toBe(false)
  })
})
