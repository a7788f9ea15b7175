/** Long identifiers (hashes, addresses, contract ids) shortened for lists; the full text stays in a title. */
export function shorten(text: string, head = 12, tail = 6): string {
  return text.length <= head + tail + 1 ? text : `${text.slice(0, head)}…${text.slice(-tail)}`
}

/** "1 input", "3 inputs". */
export function plural(count: number | bigint, noun: string, nouns = `${noun}s`): string {
  return `${count} ${BigInt(count) === 1n ? noun : nouns}`
}
