/**
 * Passwords and recovery phrases: from a file (`--password-file`, for scripts) or typed on a terminal
 * without echo. Never from a command-line argument, which other users of the machine can read.
 */
import { CliError } from './errors'
import { readTextFile } from './files'

/** Reads a secret typed on the terminal, echoing nothing. */
function promptHidden(question: string): Promise<string> {
  const input = process.stdin
  if (!input.isTTY) {
    return Promise.reject(
      new CliError(`${question.trim()} needs a terminal to type it; use --password-file for scripts`)
    )
  }
  // Echo goes off before the prompt shows, so nothing typed after seeing it can be echoed.
  input.setRawMode(true)
  input.resume()
  input.setEncoding('utf8')
  process.stderr.write(question)
  return new Promise((resolve, reject) => {
    let typed = ''
    const done = (result: () => void): void => {
      input.setRawMode(false)
      input.pause()
      input.removeListener('data', onData)
      process.stderr.write('\n')
      result()
    }
    const onData = (chunk: string): void => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n') return done(() => resolve(typed))
        if (ch === '\u0003') return done(() => reject(new CliError('cancelled')))
        if (ch === '\u007f' || ch === '\b') typed = typed.slice(0, -1)
        else typed += ch
      }
    }
    input.on('data', onData)
  })
}

/** The first line of a secret file, without its line ending. */
function firstLine(path: string): string {
  const text = readTextFile(path)
  return text.split(/\r?\n/, 1)[0] ?? ''
}

export async function password(file: string | undefined, question = 'Password: '): Promise<string> {
  return file === undefined ? promptHidden(question) : firstLine(file)
}

/** A new password: typed twice on a terminal, or read from a file. */
export async function newPassword(file: string | undefined): Promise<string> {
  if (file !== undefined) return firstLine(file)
  const first = await promptHidden('New password: ')
  const again = await promptHidden('Repeat the password: ')
  if (first !== again) throw new CliError('the two passwords differ')
  return first
}

export async function mnemonic(file: string | undefined): Promise<string> {
  if (file !== undefined) return readTextFile(file).trim()
  return promptHidden('Recovery phrase (words separated by spaces): ')
}
