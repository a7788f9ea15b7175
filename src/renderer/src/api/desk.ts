/** The typed API client, provided once to the app and injected by the stores. */
import { inject, type InjectionKey } from 'vue'
import { createDeskClient, type DeskClient, type DeskTransport } from '../../../api/contract'
import { decodeWire, encodeWire } from '../../../api/wire'

export const deskKey: InjectionKey<DeskClient> = Symbol('desk')

export function createDesk(transport: DeskTransport): DeskClient {
  return createDeskClient(transport, { encode: encodeWire, decode: decodeWire })
}

export function useDesk(): DeskClient {
  const desk = inject(deskKey)
  if (desk === undefined) throw new Error('useDesk: no Desk client was provided to the app')
  return desk
}
