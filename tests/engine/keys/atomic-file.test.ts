import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  commitTempFile,
  removeFileDurably,
  removeStrayTempFiles,
  writeFileAtomic,
  writeTempFile
} from '../../../src/engine/keys/atomic-file'
import { freshDir } from './support'

describe('atomic file replacement', () => {
  it('writes a new file, readable by its owner only, leaving nothing else behind', async () => {
    const dir = freshDir()
    const target = join(dir, 'a.json')
    await writeFileAtomic(target, 'one')
    expect(readFileSync(target, 'utf8')).toBe('one')
    expect(readdirSync(dir)).toEqual(['a.json'])
    if (process.platform !== 'win32') expect(statSync(target).mode & 0o777).toBe(0o600)
  })

  it('replaces an existing file', async () => {
    const dir = freshDir()
    const target = join(dir, 'a.json')
    await writeFileAtomic(target, 'one')
    await writeFileAtomic(target, 'two')
    expect(readFileSync(target, 'utf8')).toBe('two')
    expect(readdirSync(dir)).toEqual(['a.json'])
  })

  it('keeps the old file when a write stops between the temporary file and the rename', async () => {
    const dir = freshDir()
    const target = join(dir, 'a.json')
    await writeFileAtomic(target, 'old')
    const temp = await writeTempFile(target, 'new')
    expect(readFileSync(target, 'utf8')).toBe('old')
    expect(readFileSync(temp, 'utf8')).toBe('new')
    expect(await removeStrayTempFiles(dir)).toEqual([temp.slice(dir.length + 1)])
    expect(readdirSync(dir)).toEqual(['a.json'])
  })

  it('finishes a write with the commit step', async () => {
    const dir = freshDir()
    const target = join(dir, 'a.json')
    const temp = await writeTempFile(target, 'new')
    expect(temp).toMatch(/[/\\]\.a\.json\.[0-9a-f]{16}\.tmp$/)
    await commitTempFile(temp, target)
    expect(readdirSync(dir)).toEqual(['a.json'])
    expect(readFileSync(target, 'utf8')).toBe('new')
  })

  it('cleans up only its own temporary files', async () => {
    const dir = freshDir()
    for (const name of ['a.json', 'notes.tmp', '.a.json.tmp', '.a.json.0123456789abcdef.tmp']) {
      writeFileSync(join(dir, name), 'x')
    }
    expect(await removeStrayTempFiles(dir)).toEqual(['.a.json.0123456789abcdef.tmp'])
    expect(readdirSync(dir).sort()).toEqual(['.a.json.tmp', 'a.json', 'notes.tmp'])
  })

  it('removes a file', async () => {
    const dir = freshDir()
    const target = join(dir, 'a.json')
    await writeFileAtomic(target, 'one')
    await removeFileDurably(target)
    expect(readdirSync(dir)).toEqual([])
  })
})
