/** File access for commands, with errors a user can act on. */
import { readFileSync, writeFileSync } from 'node:fs'
import { CliError } from './errors'

const MAX_FILE_BYTES = 64 * 1024 * 1024

export function readTextFile(path: string): string {
  try {
    const bytes = readFileSync(path)
    if (bytes.length > MAX_FILE_BYTES) throw new CliError(`${path}: file is larger than ${MAX_FILE_BYTES} bytes`)
    return bytes.toString('utf8')
  } catch (e) {
    if (e instanceof CliError) throw e
    const code = (e as NodeJS.ErrnoException).code
    if (code === 'ENOENT') throw new CliError(`${path}: no such file`)
    if (code === 'EISDIR') throw new CliError(`${path}: is a directory, not a file`)
    if (code === 'EACCES') throw new CliError(`${path}: permission denied`)
    throw new CliError(`${path}: cannot read (${code ?? String(e)})`)
  }
}

/** Writes a new file; never overwrites one (a signed tx must not silently replace another). */
export function writeNew(path: string, text: string): void {
  try {
    writeFileSync(path, text, { flag: 'wx', mode: 0o644 })
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    throw new CliError(
      code === 'EEXIST'
        ? `${path}: already exists; choose another --out`
        : `${path}: cannot write (${code ?? String(e)})`
    )
  }
}
