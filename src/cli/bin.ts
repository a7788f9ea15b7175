/** The CLI bundle's entry: the command line on this process's arguments and standard streams. */
import type { Output } from './command'
import { main } from './main'

// A reader that stops early (`| head`) closes the pipe: that is not an error worth a stack trace.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0)
  throw e
})
const io: Output = { out: (t) => process.stdout.write(`${t}\n`), err: (t) => process.stderr.write(`${t}\n`) }
void main(process.argv.slice(2), io).then((code) => {
  process.exitCode = code
})
