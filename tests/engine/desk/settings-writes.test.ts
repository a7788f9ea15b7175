/** The settings file is written whole even when the disk takes a few bytes per write. */
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { DEFAULT_SETTINGS, loadSettings, saveSettings } from '../../../src/engine/desk/settings-file'
import { withShortWrites } from '../../support/short-writes'

test('saved whole through 16-byte writes, and read back as saved', async () => {
  const path = join(mkdtempSync(join(tmpdir(), 'marlowe-desk-settings-')), 'settings.json')
  const settings = {
    ...DEFAULT_SETTINGS,
    network: 'preprod' as const,
    node: { blockfrost: { projectId: 'preprodAbcdefghijklmnopqrstuvwxyz012345' } },
    autoLockMinutes: 42
  }
  await withShortWrites(16, () => saveSettings(path, settings))
  expect(readFileSync(path, 'utf8').length).toBeGreaterThan(64)
  expect(loadSettings(path)).toEqual({ settings })
})
