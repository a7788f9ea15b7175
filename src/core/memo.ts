/**
 * `parse` remembered by its text: at most `limit` results, all forgotten at once when full, each frozen since
 * every caller shares it. Failures are not remembered.
 */
export function memoByText<T extends object>(limit: number, parse: (text: string) => T): (text: string) => Readonly<T> {
  const known = new Map<string, Readonly<T>>()
  return (text) => {
    const found = known.get(text)
    if (found !== undefined) return found
    const parsed = Object.freeze(parse(text))
    if (known.size >= limit) known.clear()
    known.set(text, parsed)
    return parsed
  }
}
