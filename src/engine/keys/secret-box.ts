/**
 * Secrets at rest. scrypt stretches the password (its parameters are stored beside the ciphertext, so new
 * files can use stronger ones while old files still open) into two keys: one encrypts with AES-256-GCM,
 * the SHA-256 of the other is kept as a password check. The check tells a wrong password apart from a
 * modified file, which GCM alone cannot; it helps a guesser no more than the GCM tag does (one scrypt per
 * guess either way). `binding` is GCM's associated data: it ties the ciphertext to the wallet it belongs to.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto'

export interface ScryptParams {
  readonly N: number
  readonly r: number
  readonly p: number
}

/**
 * 128 MiB and about 0.7 s on a 2-core machine: the floor of current guidance for an interactive unlock (N=2^17,
 * r=8, p=1). Files keep the parameters they were written with; the keystore moves older ones up on unlock.
 */
export const DEFAULT_SCRYPT: ScryptParams = { N: 2 ** 17, r: 8, p: 1 }

export interface SealedSecret {
  readonly scrypt: ScryptParams
  readonly salt: Uint8Array
  readonly nonce: Uint8Array
  readonly passwordCheck: Uint8Array
  readonly ciphertext: Uint8Array
  readonly tag: Uint8Array
}

export type UnsealResult =
  | { readonly ok: true; readonly plaintext: Uint8Array }
  | { readonly ok: false; readonly reason: 'wrong-password' | 'not-authentic' }

export const SALT_BYTES = 32
export const NONCE_BYTES = 12
export const CHECK_BYTES = 32
export const TAG_BYTES = 16
const KEY_BYTES = 32
/** Parameters come from files, which may be modified: bound the memory and time one unlock may take. */
const MAX_SCRYPT_MEMORY = 256 * 1024 * 1024

/** Why parameters are unacceptable, or undefined when they are fine. */
export function scryptParamsProblem({ N, r, p }: ScryptParams): string | undefined {
  if (!Number.isSafeInteger(N) || N < 2 ** 10 || N > 2 ** 20 || (N & (N - 1)) !== 0) {
    return `scrypt N must be a power of two from 2^10 to 2^20, got ${N}`
  }
  if (!Number.isSafeInteger(r) || r < 1 || r > 32) return `scrypt r must be from 1 to 32, got ${r}`
  if (!Number.isSafeInteger(p) || p < 1 || p > 16) return `scrypt p must be from 1 to 16, got ${p}`
  if (scryptMemory({ N, r, p }) > MAX_SCRYPT_MEMORY) return `scrypt N·r needs more than 256 MiB (N=${N}, r=${r})`
  return undefined
}

/** Whether `b` costs a guesser at least as much memory and time per guess as `a`, and more of one of them. */
export function weakerThan(a: ScryptParams, b: ScryptParams): boolean {
  const memory = (x: ScryptParams): number => x.N * x.r
  const time = (x: ScryptParams): number => x.N * x.r * x.p
  return memory(a) <= memory(b) && time(a) <= time(b) && (memory(a) < memory(b) || time(a) < time(b))
}

export async function seal(
  plaintext: Uint8Array,
  password: string,
  params: ScryptParams,
  binding: Uint8Array
): Promise<SealedSecret> {
  const problem = scryptParamsProblem(params)
  if (problem !== undefined) throw new RangeError(problem)
  const salt = randomBytes(SALT_BYTES)
  const nonce = randomBytes(NONCE_BYTES)
  const derived = await stretch(password, salt, params)
  try {
    const cipher = createCipheriv('aes-256-gcm', derived.subarray(0, KEY_BYTES), nonce, { authTagLength: TAG_BYTES })
    cipher.setAAD(binding)
    const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()])
    return { scrypt: params, salt, nonce, passwordCheck: checkOf(derived), ciphertext, tag: cipher.getAuthTag() }
  } finally {
    derived.fill(0)
  }
}

/** The plaintext (which the caller zeroes after use), or why it could not be had. */
export async function unseal(sealed: SealedSecret, password: string, binding: Uint8Array): Promise<UnsealResult> {
  const derived = await stretch(password, sealed.salt, sealed.scrypt)
  try {
    const check = checkOf(derived)
    if (check.length !== sealed.passwordCheck.length || !timingSafeEqual(check, sealed.passwordCheck)) {
      return { ok: false, reason: 'wrong-password' }
    }
    const decipher = createDecipheriv('aes-256-gcm', derived.subarray(0, KEY_BYTES), sealed.nonce, {
      authTagLength: TAG_BYTES
    })
    decipher.setAAD(binding)
    decipher.setAuthTag(sealed.tag)
    // GCM is a stream mode: update() yields all of the plaintext, final() only checks the tag.
    const plaintext = decipher.update(sealed.ciphertext)
    try {
      decipher.final()
    } catch {
      plaintext.fill(0)
      return { ok: false, reason: 'not-authentic' }
    }
    return { ok: true, plaintext }
  } finally {
    derived.fill(0)
  }
}

function checkOf(derived: Buffer): Buffer {
  return createHash('sha256').update(derived.subarray(KEY_BYTES)).digest()
}

function scryptMemory({ N, r, p }: ScryptParams): number {
  return 128 * r * (N + p + 2)
}

/**
 * Tail of the process's scrypt runs: one at a time. Each runs on a thread of libuv's small pool (4 by default),
 * which file access and DNS lookups share; a burst of unlocks taking them all would stall every other call
 * until it drained. Queued runs wait here, in memory, not in the pool.
 */
let stretching: Promise<unknown> = Promise.resolve()

function stretch(password: string, salt: Uint8Array, params: ScryptParams): Promise<Buffer> {
  const run = stretching.then(() => scryptOnce(password, salt, params))
  stretching = run.catch(() => undefined)
  return run
}

function scryptOnce(password: string, salt: Uint8Array, params: ScryptParams): Promise<Buffer> {
  // NFKC, so a password typed with composed or decomposed accents unlocks the same file.
  const secret = Buffer.from(password.normalize('NFKC'), 'utf8')
  const options = { N: params.N, r: params.r, p: params.p, maxmem: 2 * scryptMemory(params) }
  return new Promise((resolve, reject) => {
    scrypt(secret, salt, 2 * KEY_BYTES, options, (error, key) => {
      secret.fill(0)
      if (error === null) resolve(key)
      else reject(error)
    })
  })
}
