/**
 * Crash-safe file replacement: write a temporary file beside the target, fsync it, rename it over the
 * target, fsync the directory. A crash at any point leaves either the old file or the new one, never a mix;
 * what it can leave behind is a stray temporary file, which `removeStrayTempFiles` cleans up.
 */
import { randomBytes } from 'node:crypto'
import { open, readdir, rename, unlink } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'

/** `.<target>.<16 hex>.tmp`: hidden, and never mistaken for the target's own kind of file. */
const TEMP_NAME = /^\..+\.[0-9a-f]{16}\.tmp$/

function tempPathFor(target: string): string {
  return join(dirname(target), `.${basename(target)}.${randomBytes(8).toString('hex')}.tmp`)
}

/** Step one: the new content, durable in a temporary file. Returns that file's path. */
export async function writeTempFile(target: string, data: string): Promise<string> {
  const temp = tempPathFor(target)
  const handle = await open(temp, 'wx', 0o600)
  try {
    await handle.writeFile(data, 'utf8')
    await handle.sync()
  } catch (e) {
    await handle.close()
    await unlink(temp).catch(() => undefined)
    throw e
  }
  await handle.close()
  return temp
}

/** Step two: the temporary file takes the target's place, and the rename itself is made durable. */
export async function commitTempFile(temp: string, target: string): Promise<void> {
  await rename(temp, target)
  await syncDirectory(dirname(target))
}

export async function writeFileAtomic(target: string, data: string): Promise<void> {
  const temp = await writeTempFile(target, data)
  try {
    await commitTempFile(temp, target)
  } catch (e) {
    await unlink(temp).catch(() => undefined)
    throw e
  }
}

/** Removes a file and makes its removal durable. */
export async function removeFileDurably(target: string): Promise<void> {
  await unlink(target)
  await syncDirectory(dirname(target))
}

/** Deletes temporary files that interrupted writes left in `dir`; returns their names. */
export async function removeStrayTempFiles(dir: string): Promise<string[]> {
  const stray = (await readdir(dir)).filter((name) => TEMP_NAME.test(name))
  for (const name of stray) await unlink(join(dir, name))
  return stray
}

async function syncDirectory(dir: string): Promise<void> {
  // Windows cannot open a directory for fsync; NTFS journals the rename itself.
  if (process.platform === 'win32') return
  const handle = await open(dir, 'r')
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}
