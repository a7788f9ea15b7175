import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { isoUtc, MAX_DATE_MS } from '../../src/core/time'

describe('isoUtc', () => {
  test('is Date.toISOString wherever a Date reaches, edges and leap days included', () => {
    const edges = [0n, 1n, -1n, 86_399_999n, -86_400_000n, 951_782_400_000n, 253_402_300_799_999n, 253_402_300_800_000n]
    for (const ms of [...edges, -62_167_219_200_000n, -62_167_219_200_001n, MAX_DATE_MS, -MAX_DATE_MS]) {
      expect(isoUtc(ms), String(ms)).toBe(new Date(Number(ms)).toISOString())
    }
    fc.assert(
      fc.property(fc.bigInt(-MAX_DATE_MS, MAX_DATE_MS), (ms) => isoUtc(ms) === new Date(Number(ms)).toISOString()),
      { numRuns: 2000 }
    )
  })

  test('past a Date’s range it still reads as a time (the year grows), never throws', () => {
    expect(isoUtc(MAX_DATE_MS + 1n)).toBe('+275760-09-13T00:00:00.001Z')
    // Checked against Python's calendar (400-year cycles of 146,097 days, then datetime).
    expect(isoUtc(2n ** 64n)).toBe('+584556019-04-03T14:25:51.616Z')
    expect(isoUtc(-(2n ** 70n))).toMatch(/^-\d{11}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
  })
})
