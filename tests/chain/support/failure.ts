/** The ChainError a promise rejects with (failing the test if it resolves or throws anything else). */
import { expect } from 'vitest'
import { ChainError } from '../../../src/chain/provider'

export async function chainFailure(p: Promise<unknown>): Promise<ChainError> {
  const e: unknown = await p.then(
    () => undefined,
    (err: unknown) => err
  )
  expect(e).toBeInstanceOf(ChainError)
  return e as ChainError
}
