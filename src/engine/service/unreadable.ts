/**
 * Stored rows that do not read back — a damaged file, a row an older version wrote (a contract deeper than the
 * readers take), a datum from the chain that no decoder accepts — are reported, never crashed on: the resource
 * answers a NotFound that says why, and a list that needs the damaged part leaves the row out (a contract whose
 * record reads but whose datum does not keeps its place in the lists of headers), so one bad row never breaks a
 * list.
 */
import { BytesError } from '../../core/bytes'
import { CborError } from '../../core/cardano/cbor'
import { WitnessError } from '../../core/cardano/witnesses'
import { JsonSyntaxError } from '../../core/json/lossless'
import { MarloweJsonError } from '../../core/marlowe/json'
import { PlutusDataError } from '../../core/marlowe/plutus/data'
import { PlutusDecodeError } from '../../core/marlowe/plutus/marlowe-data'
import { EngineError } from '../errors'

/** Whether `e` says that stored data does not decode (rather than a bug, or a failure of something else). */
export function isDecodeFailure(e: unknown): e is Error {
  return (
    e instanceof JsonSyntaxError ||
    e instanceof MarloweJsonError ||
    e instanceof BytesError ||
    e instanceof PlutusDataError ||
    e instanceof PlutusDecodeError ||
    e instanceof CborError ||
    e instanceof WitnessError ||
    (e instanceof EngineError && e.code === 'CorruptStore')
  )
}

export type StoredResource = 'contract' | 'transaction' | 'withdrawal' | 'payout'

const UNREADABLE: Readonly<Record<StoredResource, string>> = {
  contract: 'ContractUnreadable',
  transaction: 'TransactionUnreadable',
  withdrawal: 'WithdrawalUnreadable',
  payout: 'PayoutUnreadable'
}
const UNREADABLE_CODES: ReadonlySet<string> = new Set(Object.values(UNREADABLE))

/**
 * `read()`, with a failure to decode what is stored for `resource` `id` reported as that resource unreadable:
 * NotFound, as the lists that need what is damaged leave it out too; the message and `details.reason` say what
 * is wrong with it.
 */
export async function readStored<T>(resource: StoredResource, id: string, read: () => T | Promise<T>): Promise<T> {
  try {
    return await read()
  } catch (e) {
    if (!isDecodeFailure(e)) throw e
    throw new EngineError(
      'NotFound',
      UNREADABLE[resource],
      `${resource} ${id} is stored but cannot be read back (${e.message})`,
      { [`${resource}Id`]: id, reason: e.message }
    )
  }
}

/** What `read` gives for each row that reads back, in order; rows that do not (see `readStored`) are left out. */
export async function readableRows<R, T>(rows: readonly R[], read: (row: R) => T | Promise<T>): Promise<T[]> {
  const out: T[] = []
  for (const row of rows) {
    try {
      out.push(await read(row))
    } catch (e) {
      if (!(e instanceof EngineError && UNREADABLE_CODES.has(e.code))) throw e
    }
  }
  return out
}
