/**
 * Component-test support: a fake transport that answers through the real wire codec (as both real transports
 * do) and records the calls, and a mount helper that installs Pinia, the router and the Desk client.
 */
import { flushPromises, mount, type ComponentMountingOptions, type VueWrapper } from '@vue/test-utils'
import { createPinia, type Pinia } from 'pinia'
import { createMemoryHistory, type Router } from 'vue-router'
import type { Component } from 'vue'
import {
  DeskError,
  type DeskCall,
  type DeskClient,
  type DeskRequest,
  type DeskResponse,
  type DeskResult,
  type DeskTransport
} from '../../../src/api/contract'
import { decodeWire, encodeWire } from '../../../src/api/wire'
import { createDesk, deskKey } from '../../../src/renderer/src/api/desk'
import { createDeskRouter } from '../../../src/renderer/src/router'

export type FakeHandlers = {
  [C in DeskCall]?: (request: DeskRequest<C>) => DeskResponse<C> | Promise<DeskResponse<C>>
}

export class FakeDesk implements DeskTransport {
  readonly calls: Array<{ readonly name: DeskCall; readonly request: unknown }> = []

  constructor(private readonly handlers: FakeHandlers) {}

  async call(name: DeskCall, requestWire: string): Promise<string> {
    const request = decodeWire(requestWire)
    this.calls.push({ name, request })
    const handler = this.handlers[name] as ((request: unknown) => unknown) | undefined
    let result: DeskResult<unknown>
    try {
      if (handler === undefined) throw new DeskError('unexpected-call', `The test did not expect ${name}.`)
      result = { ok: true, value: await handler(request) }
    } catch (e) {
      if (!(e instanceof DeskError)) throw e
      result = { ok: false, error: { code: e.code, message: e.message, ...(e.details ? { details: e.details } : {}) } }
    }
    return encodeWire(result)
  }

  /** The requests of one call, as the handler received them. */
  requests<C extends DeskCall>(name: C): DeskRequest<C>[] {
    return this.calls.filter((c) => c.name === name).map((c) => c.request as DeskRequest<C>)
  }
}

export interface Mounted {
  readonly wrapper: VueWrapper
  readonly pinia: Pinia
  readonly router: Router
  readonly client: DeskClient
}

/** Mounts a component as the app would: with Pinia, the app's routes (in memory) and the Desk client. */
export async function mountWithDesk(
  component: Component,
  desk: FakeDesk,
  options: { props?: Record<string, unknown>; path?: string; attachTo?: HTMLElement } = {}
): Promise<Mounted> {
  const pinia = createPinia()
  const router = createDeskRouter(createMemoryHistory())
  await router.push(options.path ?? '/wallet')
  await router.isReady()
  const client = createDesk(desk)
  const mountOptions: ComponentMountingOptions<Component> = {
    props: options.props ?? {},
    global: { plugins: [pinia, router], provide: { [deskKey as symbol]: client } },
    ...(options.attachTo === undefined ? {} : { attachTo: options.attachTo })
  }
  const wrapper = mount(component, mountOptions)
  await flushPromises()
  return { wrapper, pinia, router, client }
}
