/** The Haskell conformance vectors the benchmarks run on: MARLOWE_VECTORS, else ../shared beside the repo (npm runs scripts from the repo root). */
import { resolve } from 'node:path'

export const vectorsDir = process.env['MARLOWE_VECTORS'] ?? resolve(process.cwd(), '../shared/vectors/marlowe')
