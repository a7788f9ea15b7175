/** The shape of the desk: one async function per call of the API contract. */
import type { DeskCall, DeskRequest, DeskResponse } from '../../api/contract'

export type DeskHandlers = {
  readonly [C in DeskCall]: (request: DeskRequest<C>) => Promise<DeskResponse<C>>
}

/** The handlers of some calls, for the modules that each implement one group. */
export type HandlersOf<C extends DeskCall> = Pick<DeskHandlers, C>

/** The calls about the desk's own settings: answered by whatever hosts the engine (see src/host/host.ts). */
export type SettingsCall = 'settings.get' | 'settings.update' | 'settings.testConnection'
