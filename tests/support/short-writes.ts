/**
 * A disk that takes at most `chunk` bytes per write call, as a nearly full or slow device may: node:fs's
 * writeSync (the function every synchronous write goes through) is wrapped for the duration of `run`.
 */
import { createRequire, syncBuiltinESMExports } from 'node:module'

type WriteSync = (fd: number, buffer: string | NodeJS.ArrayBufferView, ...rest: unknown[]) => number

export async function withShortWrites<T>(chunk: number, run: () => T | Promise<T>): Promise<T> {
  const fs = createRequire(__filename)('node:fs') as { writeSync: WriteSync }
  const original = fs.writeSync
  fs.writeSync = (fd, buffer, ...rest) => {
    if (typeof buffer === 'string') return original(fd, buffer.slice(0, chunk))
    const [offset = 0, length = buffer.byteLength - Number(offset)] = rest as [number?, number?]
    return original(fd, buffer, offset, Math.min(Number(length), chunk))
  }
  syncBuiltinESMExports()
  try {
    return await run()
  } finally {
    fs.writeSync = original
    syncBuiltinESMExports()
  }
}
