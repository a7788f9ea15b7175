/**
 * Component-test support: a fake transport whose answers go through the engine's own edge — `handleDeskCall`,
 * the one both real transports call — so every request is checked against the engine's request schemas and
 * every answer against its response schemas, on the real wire codec. A request the engine would refuse, or an
 * answer it could never give, fails the test that made it. Calls are recorded; a mount helper installs Pinia,
 * the router and the Desk client.
 */
import { flushPromises, mount, type ComponentMountingOptions, type VueWrapper } from '@vue/test-utils'
import { createPinia, type Pinia } from 'pinia'
import { afterEach, beforeAll, expect } from 'vitest'
import { createMemoryHistory, type Router } from 'vue-router'
import type { Component } from 'vue'
import {
  DESK_CALLS,
  DeskError,
  type DeskCall,
  type DeskClient,
  type DeskRequest,
  type DeskResponse,
  type DeskResult,
  type DeskTransport
} from '../../../src/api/contract'
import { decodeWire } from '../../../src/api/wire'
import { createDesk, deskKey } from '../../../src/renderer/src/api/desk'
import { createDeskRouter } from '../../../src/renderer/src/router'

type Handler = (request: unknown) => Promise<unknown>

/** The engine's edge, typed by the little used here. */
interface EngineEdge {
  handleDeskCall(
    desk: Readonly<Record<DeskCall, Handler>>,
    name: unknown,
    requestWire: unknown,
    options: { logError(call: string, error: unknown): void }
  ): Promise<string>
}
interface EngineErrors {
  EngineError: new (
    kind: 'BadRequest',
    code: string,
    message: string,
    details?: Readonly<Record<string, unknown>>
  ) => Error
}

// Computed, so that the type checker of this (browser) project does not follow them into Node code.
const modules = { dispatch: '../../../src/engine/desk/dispatch', errors: '../../../src/engine/errors' }
let engine: Promise<EngineEdge & EngineErrors> | undefined
function engineEdge(): Promise<EngineEdge & EngineErrors> {
  engine ??= Promise.all([
    import(/* @vite-ignore */ modules.dispatch) as Promise<EngineEdge>,
    import(/* @vite-ignore */ modules.errors) as Promise<EngineErrors>
  ]).then(([dispatch, errors]) => ({ handleDeskCall: dispatch.handleDeskCall, EngineError: errors.EngineError }))
  return engine
}

export type FakeHandlers = {
  [C in DeskCall]?: (request: DeskRequest<C>) => DeskResponse<C> | Promise<DeskResponse<C>>
}

// Loaded before the tests: the screens' tests wait on promises, not on a module loading in the meantime.
beforeAll(async () => {
  await engineEdge()
}, 120_000)

/** What the engine's edge found wrong with the fakes of the running test; each fails it. */
const faults: string[] = []
afterEach(() => {
  const found = faults.splice(0)
  expect(found, 'the fake desk was sent or answered what the engine never would').toEqual([])
})

export class FakeDesk implements DeskTransport {
  readonly calls: Array<{ readonly name: DeskCall; readonly request: unknown }> = []

  constructor(private readonly handlers: FakeHandlers) {}

  async call(name: DeskCall, requestWire: string): Promise<string> {
    const { handleDeskCall, EngineError } = await engineEdge()
    const desk = {} as Record<DeskCall, Handler>
    for (const call of DESK_CALLS) {
      desk[call] = async (request) => {
        this.calls.push({ name: call, request })
        const handler = this.handlers[call] as ((request: unknown) => unknown) | undefined
        if (handler === undefined)
          throw new EngineError('BadRequest', 'unexpected-call', `The test did not expect ${call}.`)
        try {
          return await handler(request)
        } catch (e) {
          // The fakes refuse as the renderer sees a refusal; the engine raises the same as its one error type.
          if (e instanceof DeskError) throw new EngineError('BadRequest', e.code, e.message, e.details ?? {})
          throw e
        }
      }
    }
    const answer = await handleDeskCall(desk, name, requestWire, {
      logError: (call, error) => faults.push(`${call}: ${error instanceof Error ? error.message : String(error)}`)
    })
    const result = decodeWire(answer) as DeskResult<unknown>
    if (!result.ok && result.error.code === 'InvalidRequest') faults.push(`${name}: ${result.error.message}`)
    return answer
  }

  /** The requests of one call, as the engine's handler would receive them (validated, ids in lower case). */
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
