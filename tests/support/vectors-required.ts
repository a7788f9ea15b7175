/**
 * Vitest global setup: where the conformance vectors must be there (CI sets MARLOWE_REQUIRE_VECTORS=1, see
 * .ci/run), their absence fails the whole run at once instead of skipping the tests that read them. Elsewhere a
 * plain `npm test` still skips those tests, and says so (./vectors.ts).
 */
import { haveVectors, missingVectorsMessage } from './vectors'

export const REQUIRE_VECTORS = 'MARLOWE_REQUIRE_VECTORS'

/** Throws when the vectors are required and missing. */
export function checkVectors(env: Readonly<Record<string, string | undefined>>, present: boolean): void {
  if (env[REQUIRE_VECTORS] === '1' && !present) {
    throw new Error(`${missingVectorsMessage} (required here: ${REQUIRE_VECTORS}=1)`)
  }
}

export default function setup(): void {
  checkVectors(process.env, haveVectors)
}
