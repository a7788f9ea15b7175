/**
 * Main's engine (the desk host under the app's data directory), without Electron: Settings work through it,
 * and closing it — what main does on quit — stops the local API and lets go of every file, so the next start
 * opens the same directory again.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import type { DeskResult, SettingsState } from '../../src/api/contract'
import { decodeWire, encodeWire } from '../../src/api/wire'
import { handleDeskCall } from '../../src/engine/desk'
import { DEFAULT_SETTINGS } from '../../src/engine/desk/settings-file'
import { openDeskEngine } from '../../src/main/engine'
import { freePort } from '../host/host-support'

describe('openDeskEngine', () => {
  test('close stops the local API and frees the data directory for the next start', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'marlowe-desk-main-'))
    const port = await freePort()
    const engine = await openDeskEngine(dir, '1.2.3')
    const request = { ...DEFAULT_SETTINGS, localApi: { enabled: true, port } }
    const answer = decodeWire(
      await handleDeskCall(engine.desk, 'settings.update', encodeWire(request))
    ) as DeskResult<SettingsState>
    if (!answer.ok) throw new Error(answer.error.message)
    const state = answer.value
    expect(state.localApi.listening).toBe(true)
    const url = `http://127.0.0.1:${port}/healthcheck`
    expect((await fetch(url)).status).toBe(401)

    await engine.close()
    await expect(fetch(url)).rejects.toThrow()

    // The sandbox's directory lock and the SQLite file were released: the app starts again on the same data.
    const again = await openDeskEngine(dir, '1.2.3')
    expect((await fetch(url, { headers: { authorization: `Bearer ${state.localApi.token}` } })).status).toBe(200)
    await again.close()
  })
})
