/** Balances for component tests. */
import type { WalletBalance } from '../../../src/api/contract'

/** An empty wallet's pending parts: nothing held, nothing available. */
export const NOTHING_HELD: Pick<WalletBalance, 'available' | 'held'> = {
  available: { lovelace: 0n, assets: [] },
  held: { unsigned: { count: 0, lovelace: 0n, assets: [] }, submitted: { count: 0, lovelace: 0n, assets: [] } }
}
