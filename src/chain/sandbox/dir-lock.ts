/**
 * One process at a time per sandbox directory. Each process holds the whole ledger in memory and rewrites
 * the state file after every change, so two processes on one directory would silently undo each other's
 * transactions. The lock file holds the owner's pid; a lock whose process is gone is taken over.
 */
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { ChainError } from '../provider'

const LOCK_NAME = 'sandbox.lock'

/** Whether process `pid` runs (EPERM: it does, as another user's). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  }
}

function ownerOf(path: string): number | undefined {
  try {
    const pid = Number(readFileSync(path, 'utf8').trim())
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined
  } catch {
    return undefined
  }
}

export class DirLock {
  private constructor(private readonly path: string) {}

  /** Takes the directory's lock, or throws a ChainError naming the process that has it. */
  static acquire(dir: string): DirLock {
    const path = join(dir, LOCK_NAME)
    for (let attempt = 0; attempt < 2; attempt += 1) {
      try {
        const fd = openSync(path, 'wx', 0o600)
        writeSync(fd, `${process.pid}\n`)
        closeSync(fd)
        return new DirLock(path)
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') {
          throw new ChainError('Unavailable', `cannot lock the sandbox in ${dir}: ${(e as Error).message}`)
        }
        const owner = ownerOf(path)
        if (owner !== undefined && owner !== process.pid && isAlive(owner)) {
          throw new ChainError(
            'Unavailable',
            `the sandbox in ${dir} is in use by process ${owner} (a running "marlowe-desk serve" or the app?): stop it first; "tx build", "tx bundle" and "tx submit" go through a running serve by themselves`,
            { pid: owner }
          )
        }
        // Left behind by a process that is gone (or unreadable): take it over.
        try {
          unlinkSync(path)
        } catch {
          // Another process removed it first; the next attempt decides.
        }
      }
    }
    throw new ChainError('Unavailable', `cannot lock the sandbox in ${dir}: another process keeps taking it`)
  }

  release(): void {
    try {
      if (ownerOf(this.path) === process.pid) unlinkSync(this.path)
    } catch {
      // Already gone.
    }
  }
}
