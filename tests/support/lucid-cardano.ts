/**
 * What `@marlowe.io/runtime-core` 0.4.0-beta uses of `lucid-cardano`, which it imports without declaring it
 * (so npm never installs it): `C.Address.from_bech32`, its bech32 address check (AddressBech32Guard). The
 * check is the same here, done by CSL: parse the address, throw when it is not one. vitest.config.mts points
 * the import here.
 */
import { CSL } from '../../src/csl'

export const C = {
  Address: {
    from_bech32(text: string): void {
      CSL.Address.from_bech32(text).free()
    }
  }
}
