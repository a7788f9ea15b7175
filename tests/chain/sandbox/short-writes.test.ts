/** The sandbox ledger's file is written whole even when the disk takes a few bytes per write. */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { STATE_FILE_NAME } from '../../../src/chain/sandbox'
import { sandboxWallet } from '../../../src/chain/sandbox'
import { withShortWrites } from '../../support/short-writes'
import { sandboxes, scratchDirs } from '../support/lifecycle'
import { ManualClock } from '../support/sandbox'

const scratchDir = scratchDirs()
const fresh = sandboxes()

describe('sandbox state file', () => {
  test('saved whole through 512-byte writes, and read back', async () => {
    const dir = scratchDir()
    const clock = new ManualClock()
    await withShortWrites(512, async () => {
      const sandbox = fresh(clock, { dataDir: dir })
      await sandbox.fund(sandboxWallet('bob').address, 7_000_000n)
      await sandbox.close()
    })
    const text = readFileSync(join(dir, STATE_FILE_NAME), 'utf8')
    expect(text.length).toBeGreaterThan(4096)
    expect(text.trimEnd().endsWith('}')).toBe(true)
    const again = fresh(clock, { dataDir: dir })
    expect((await again.utxosAt([sandboxWallet('bob').address])).map((u) => u.value.lovelace)).toContain(7_000_000n)
  })
})
