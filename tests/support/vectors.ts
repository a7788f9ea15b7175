/** Where the Haskell conformance vectors live: MARLOWE_VECTORS, else ../shared/vectors/marlowe beside the repo. */
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'

export const vectorsDir = process.env['MARLOWE_VECTORS'] ?? resolve(__dirname, '../../../shared/vectors/marlowe')
export const haveVectors = existsSync(vectorsDir)
export const missingVectorsMessage = `Marlowe conformance vectors not found at ${vectorsDir}: set MARLOWE_VECTORS or place shared/ beside the repo`

if (!haveVectors) console.warn(`SKIPPED: ${missingVectorsMessage}`)
