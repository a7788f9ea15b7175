/** Coins and multi-asset maps: output values (`coin / [coin, multiasset<uint>]`) and mint (signed quantities). */
import { bytesToHex } from '../../bytes'
import { HASH28, type TxReader } from './reader'
import type { AssetQuantity, DecodedValue, PolicyAssets } from './types'

const MAX_ASSET_NAME_BYTES = 32
const INT64_MIN = -(1n << 63n)
const INT64_MAX = (1n << 63n) - 1n

export function readValue(r: TxReader, what: string): DecodedValue {
  if (r.peekMajor() === 0) return { coin: r.uint(what), multiAsset: [] }
  const count = r.fixedArray(what, 2)
  const coin = r.uint(`${what} coin`)
  const multiAsset = readMultiAsset(r, `${what} assets`, false)
  r.closeArray(count, what)
  return { coin, multiAsset }
}

/** Mint quantities are int64 and may be negative (burns). */
export function readMint(r: TxReader): PolicyAssets[] {
  return readMultiAsset(r, 'mint', true)
}

function readMultiAsset(r: TxReader, what: string, signed: boolean): PolicyAssets[] {
  const policies: PolicyAssets[] = []
  r.mapEntries(what, (key) => {
    if (key.kind !== 'bytes' || key.value.length !== HASH28) {
      r.fail(`${what}: a policy id must be a ${HASH28}-byte string`, key.start)
    }
    const assets: AssetQuantity[] = []
    r.mapEntries(`${what} of one policy`, (name) => {
      if (name.kind !== 'bytes' || name.value.length > MAX_ASSET_NAME_BYTES) {
        r.fail(`${what}: an asset name must be a byte string of at most ${MAX_ASSET_NAME_BYTES} bytes`, name.start)
      }
      const start = r.pos
      const quantity = signed ? r.int(`${what} quantity`) : r.uint(`${what} quantity`)
      if (signed && (quantity < INT64_MIN || quantity > INT64_MAX)) r.fail(`${what}: quantity is outside int64`, start)
      assets.push({ assetName: bytesToHex(name.value), quantity })
    })
    policies.push({ policyId: bytesToHex(key.value), assets })
  })
  return policies
}
