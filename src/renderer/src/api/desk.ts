/** The typed API client, provided once to the app and injected by the stores. */
import { inject, type InjectionKey, type Ref } from 'vue'
import { createDeskClient, type DeskClient, type DeskTransport } from '../../../api/contract'
import { decodeWire, encodeWire } from '../../../api/wire'
import { countPending } from './pending'

export const deskKey: InjectionKey<DeskClient> = Symbol('desk')

/** Each client's count of pending calls; kept beside the client so the client stays exactly the contract's. */
const pendingOf = new WeakMap<DeskClient, Readonly<Ref<number>>>()

export function createDesk(transport: DeskTransport): DeskClient {
  const counted = countPending(transport)
  const client = createDeskClient(counted.transport, { encode: encodeWire, decode: decodeWire })
  pendingOf.set(client, counted.pending)
  return client
}

export function useDesk(): DeskClient {
  const desk = inject(deskKey)
  if (desk === undefined) throw new Error('useDesk: no Desk client was provided to the app')
  return desk
}

/** How many calls of `client` are pending (undefined for a client not made by `createDesk`). */
export function pendingCalls(client: DeskClient): Readonly<Ref<number>> | undefined {
  return pendingOf.get(client)
}
