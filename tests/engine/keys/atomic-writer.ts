/**
 * A child process for the kill test: replaces one file atomically, over and over, with numbered contents big
 * enough that a torn write would show, and says each number once its write has returned.
 */
import { writeFileAtomic } from '../../../src/engine/keys/atomic-file'

async function main(target: string | undefined): Promise<void> {
  if (target === undefined) throw new Error('usage: atomic-writer <file>')
  const filler = 'x'.repeat(200_000)
  for (let n = 1; ; n += 1) {
    await writeFileAtomic(target, JSON.stringify({ n, filler }))
    process.stdout.write(`${n}\n`)
  }
}

void main(process.argv[2])
