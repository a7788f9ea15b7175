import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, describe, expect, it } from 'vitest'
import { removeStrayTempFiles } from '../../../src/engine/keys/atomic-file'

const dir = mkdtempSync(join(tmpdir(), 'desk-atomic-kill-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/**
 * Starts the writer, lets it write for a while, SIGKILLs it `delayMs` later wherever it is, and returns the last
 * number it said: every write up to that one returned.
 */
async function killWhileWriting(target: string, delayMs: number): Promise<number> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'atomic-writer.ts'), target], {
    stdio: ['ignore', 'pipe', 'inherit']
  })
  let said = 0
  child.stdout.setEncoding('utf8')
  child.stdout.on('data', (chunk: string) => {
    for (const line of chunk.trim().split('\n')) said = Math.max(said, Number(line))
  })
  const closed = new Promise((resolve) => child.on('close', resolve))
  const started = new Promise<void>((resolve) => child.stdout.once('data', () => resolve()))
  await Promise.race([started, closed])
  if (child.exitCode !== null) throw new Error('the writer stopped by itself')
  await sleep(delayMs)
  child.kill('SIGKILL')
  await closed
  return said
}

describe('atomic file replacement under SIGKILL', () => {
  it('leaves the whole last file or the whole next one, wherever the writer is killed', async () => {
    const target = join(dir, 'wallet.json')
    let midWrite = 0
    for (let round = 0; round < 12; round += 1) {
      const said = await killWhileWriting(target, 5 + ((round * 7) % 23))
      const content = JSON.parse(readFileSync(target, 'utf8')) as { n: number; filler: string }
      expect(content.filler).toHaveLength(200_000)
      // Every write it said returned has landed; the one it was in when killed may have landed too.
      expect([said, said + 1]).toContain(content.n)
      const stray = await removeStrayTempFiles(dir)
      if (stray.length > 0 || content.n === said + 1) midWrite += 1
      expect(readdirSync(dir)).toEqual(['wallet.json'])
    }
    // Killed while writing in at least one round: the temporary file was left, or the rename was not said.
    expect(midWrite).toBeGreaterThan(0)
  }, 120_000)
})
