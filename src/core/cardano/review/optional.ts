/**
 * `{ [key]: value }`, or `{}` when `value` is undefined: how the model spreads optional fields, since
 * `exactOptionalPropertyTypes` forbids writing an absent field as `undefined`.
 */
export function opt<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V }
}
