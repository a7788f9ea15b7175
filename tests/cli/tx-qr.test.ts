/**
 * `tx qr-show` / `tx qr-read` through the built CLI (issue 16 §2, the terminal's side): a sandbox deposit's review
 * bundle and its witness shown as UR frames and read back from a recording — identical bytes, in any order, with
 * frames missed; a damaged frame and another sequence's frame refused by line with nothing written; and the
 * animated QR codes the terminal shows decode (jsQR, from the terminal's own text) to those same frames.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import jsQR from 'jsqr'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { encodeQrSequence } from '../../src/engine/qr-transfer'
import { depositFiles, type DepositFiles } from '../engine/desk/deposit-files'
import { deskHarness, PASSWORD, restoreSandboxWallet, type DeskHarness } from '../engine/desk/support'
import { runCli, runInTerminal, type CliResult } from './run-cli'

const dir = mkdtempSync(join(tmpdir(), 'marlowe-desk-qr-'))
const path = (name: string): string => join(dir, name)
let online: DeskHarness
let files: DepositFiles
let witnessText: string
let bundleFrames: string[]

const show = (...args: string[]): CliResult => runCli(['tx', 'qr-show', ...args], { offline: true })
const read = (frames: readonly string[], out: string): CliResult => {
  writeFileSync(path(`${out}.frames`), `${frames.join('\n')}\n`)
  return runCli(['tx', 'qr-read', path(`${out}.frames`), '--out', path(out)], { offline: true })
}

beforeAll(async () => {
  online = await deskHarness()
  const alice = await restoreSandboxWallet(online, 'alice')
  files = await depositFiles(online, alice)
  await online.ok('tx.import', { text: files.bundleText })
  witnessText = (await online.ok('tx.signOffline', { text: files.bundleText, walletId: alice.id, password: PASSWORD }))
    .text
  writeFileSync(path('deposit.bundle.json'), files.bundleText)
  writeFileSync(path('deposit.witness'), witnessText)
  const shown = show(path('deposit.bundle.json'), '--ur')
  expect(shown.code, shown.stderr).toBe(0)
  bundleFrames = shown.stdout.trim().split('\n')
}, 180_000)
afterAll(() => online.close())

describe('tx qr-show --ur, then tx qr-read', () => {
  test('a review bundle: the recorded frames read back to identical bytes', () => {
    expect(bundleFrames.length).toBeGreaterThan(2)
    for (const frame of bundleFrames) expect(frame).toMatch(/^UR:MARLOWE-DESK-BUNDLE\/\d+-\d+\/[A-Z]+$/)
    const r = read(bundleFrames, 'whole.json')
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toContain(`the review bundle of transaction ${files.txId}`)
    expect(readFileSync(path('whole.json'), 'utf8')).toBe(files.bundleText)
  })

  test('shuffled, with frames missed: the fountain codes recover the same bytes', () => {
    const kept = bundleFrames.filter((_, i) => i % 4 !== 1)
    const shuffled = kept.map((f, i) => ({ f, key: (i * 7) % kept.length })).sort((a, b) => a.key - b.key)
    expect(kept.length).toBeLessThan(bundleFrames.length)
    const r = read(
      shuffled.map((s) => s.f),
      'shuffled.json'
    )
    expect(r.code, r.stderr).toBe(0)
    expect(readFileSync(path('shuffled.json'), 'utf8')).toBe(files.bundleText)
  })

  test('a witness, checked against the transaction it signs, travels as one frame', () => {
    const shown = show(path('deposit.witness'), '--tx', path('deposit.bundle.json'), '--ur')
    expect(shown.code, shown.stderr).toBe(0)
    const frames = shown.stdout.trim().split('\n')
    expect(frames).toHaveLength(1)
    expect(frames[0]).toMatch(/^UR:MARLOWE-DESK-WITNESS\//)
    const r = read(frames, 'back.witness')
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toContain(`the witness of transaction ${files.txId}`)
    expect(readFileSync(path('back.witness'), 'utf8')).toBe(witnessText)
  })

  test('a tampered frame is refused by its line, with a non-zero exit and nothing written', () => {
    const frames = [...bundleFrames]
    const target = frames[2]!
    const at = target.length - 20
    frames[2] = `${target.slice(0, at)}${target[at] === 'A' ? 'B' : 'A'}${target.slice(at + 1)}`
    const r = read(frames, 'tampered.json')
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/tampered\.json\.frames, line 3: This frame is damaged .*\(QrFrameDamaged\)/)
    expect(existsSync(path('tampered.json'))).toBe(false)
  })

  test("another sequence's frame is refused by its line, with a non-zero exit and nothing written", () => {
    const other = encodeQrSequence({ kind: 'bundle', txId: files.txId, text: `${files.bundleText}\n` }).parts
    const r = read([bundleFrames[0]!, bundleFrames[1]!, other[0]!, ...bundleFrames.slice(2)], 'foreign.json')
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(
      /foreign\.json\.frames, line 3: This frame belongs to another QR sequence.*\(QrOtherSequence\)/
    )
    expect(existsSync(path('foreign.json'))).toBe(false)
  })

  test('too few frames: says how far it got, and writes nothing', () => {
    const r = read(bundleFrames.slice(0, 2), 'short.json')
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/the 2 frame\(s\) recorded are not enough to rebuild the review bundle/)
    expect(existsSync(path('short.json'))).toBe(false)
  })

  test('a witness without --tx, and a line that is no frame, are refused', () => {
    const bare = show(path('deposit.witness'), '--ur')
    expect(bare.code).toBe(2)
    expect(bare.stderr).toContain('give --tx with the transaction it signs')
    const notAFrame = read(['hello'], 'hello.json')
    expect(notAFrame.code).toBe(1)
    expect(notAFrame.stderr).toMatch(/line 1: This QR code is not a UR frame/)
  })
})

/** The QR codes of a terminal frame (qrcode's half-block rendering) as an image jsQR reads, with a wide margin. */
function decodeTerminalFrame(text: string): string | undefined {
  const lines = text.replace(/\x1b\[[0-9;]*m/g, '').split('\n')
  const rows = lines.filter((l) => /^[ ▀▄█]+$/.test(l) && /[▄█]/.test(l))
  const modules: boolean[][] = rows.flatMap((l) => {
    const chars = [...l]
    return [chars.map((c) => c === '▀' || c === '█'), chars.map((c) => c === '▄' || c === '█')]
  })
  const margin = 4
  const scale = 4
  const side = Math.max(...modules.map((r) => r.length)) + 2 * margin
  const height = modules.length + 2 * margin
  const pixels = new Uint8ClampedArray(side * scale * height * scale * 4).fill(255)
  modules.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (!dark) return
      for (let dy = 0; dy < scale; dy++)
        for (let dx = 0; dx < scale; dx++) {
          const i = (((y + margin) * scale + dy) * side * scale + (x + margin) * scale + dx) * 4
          pixels.fill(0, i, i + 3)
        }
    })
  )
  return jsQR(pixels, side * scale, height * scale)?.data
}

describe('tx qr-show on a terminal', () => {
  test('shows each frame in place, as QR codes that decode to the recorded frames', async () => {
    const shown = await runInTerminal(['tx', 'qr-show', path('deposit.bundle.json'), '--loops', '1'], [], {
      offline: true
    })
    expect(shown.code).toBe(0)
    const screens = shown.text.split('\x1b[H\x1b[2J').slice(1)
    expect(screens).toHaveLength(bundleFrames.length)
    expect(screens[0]).toContain(`review bundle of ${files.txId}: frame 1 of ${bundleFrames.length}`)
    expect(screens.map(decodeTerminalFrame)).toEqual(bundleFrames)
  })

  test('without a terminal and without --ur, says what to give', () => {
    const r = show(path('deposit.bundle.json'))
    expect(r.code).toBe(2)
    expect(r.stderr).toContain("the output is not a terminal: give --ur to write the frames' text, one per line")
  })
})
