/**
 * The directories Marlowe Desk keeps its files in (its data directory, `keys/`, `sandbox/`) are their owner's
 * alone. A missing one is made with mode 0700. An existing one is checked before use:
 *
 * - owned by another user, or writable by everyone: refused. Someone else may already have put files there (a
 *   wallet file of their own key, whose addresses would then be shown as the user's; a settings file naming
 *   their node; a symbolic link where the database goes), and changing the mode would not undo that: the user
 *   must look first. No usual umask makes a directory writable by everyone.
 * - writable by a group other than the user's own: refused, for the same reason.
 * - readable by others, or writable by the user's own group: made 0700. Nobody else could have written there
 *   (a umask of 002 gives directories to the user's own group, the default where each user has a group of
 *   their own, so older versions and other tools left such directories behind), and reading ends now.
 *
 * POSIX only: Windows has no such modes, and a profile directory is its user's already.
 */
import { chmodSync, mkdirSync, statSync } from 'node:fs'
import { EngineError } from './errors'

export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  if (process.platform === 'win32') return
  const stat = statSync(dir)
  const uid = process.getuid?.()
  const gid = process.getgid?.()
  if (uid !== undefined && stat.uid !== uid) throw unsafe(dir, `it belongs to another user (uid ${stat.uid})`)
  if ((stat.mode & 0o002) !== 0) throw unsafe(dir, 'every user of this computer can write to it')
  if ((stat.mode & 0o020) !== 0 && stat.gid !== gid) {
    throw unsafe(dir, `the users of group ${stat.gid} can write to it`)
  }
  if ((stat.mode & 0o077) !== 0) chmodSync(dir, 0o700)
}

function unsafe(dir: string, why: string): EngineError {
  return new EngineError(
    'Forbidden',
    'UnsafeDirectory',
    `Marlowe Desk does not use ${dir}: ${why}, so its files may not be yours. Check what is in it, then make it yours alone (chmod 700 and chown to you) or choose another directory`,
    { dir }
  )
}
