/** A tiny benchmark harness: runs a function until a time budget is spent and reports operations per second. */
import { availableParallelism, loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'

export interface Measurement {
  readonly opsPerSecond: number
  readonly iterations: number
}

/** `fn` performs `opsPerCall` operations; warm up first so the JIT has settled. */
export function measure(fn: () => void, opsPerCall = 1, budgetMs = 1500): Measurement {
  measureWindow(fn, budgetMs / 5)
  const { opsPerSecond, iterations } = measureWindow(fn, budgetMs)
  return { opsPerSecond: opsPerSecond * opsPerCall, iterations }
}

/**
 * Measures several functions in alternating rounds, each getting a window of `windowMs` per round, and reports
 * each one's median window: load that comes and goes falls on all of them alike, and one disturbed window
 * does not decide a ratio.
 */
export function measureAlternating<K extends string>(
  fns: Readonly<Record<K, () => void>>,
  rounds = 7,
  windowMs = 300
): Record<K, Measurement> {
  const names = Object.keys(fns) as K[]
  for (const name of names) measureWindow(fns[name], windowMs)
  const windows = new Map<K, Measurement[]>(names.map((name) => [name, []]))
  for (let round = 0; round < rounds; round += 1) {
    for (const name of names) windows.get(name)!.push(measureWindow(fns[name], windowMs))
  }
  const result = {} as Record<K, Measurement>
  for (const name of names) {
    const sorted = windows.get(name)!.sort((a, b) => a.opsPerSecond - b.opsPerSecond)
    result[name] = sorted[Math.floor(sorted.length / 2)]!
  }
  return result
}

function measureWindow(fn: () => void, windowMs: number): Measurement {
  let iterations = 0
  const start = performance.now()
  let elapsed = 0
  while (elapsed < windowMs) {
    fn()
    iterations += 1
    elapsed = performance.now() - start
  }
  return { opsPerSecond: (iterations * 1000) / elapsed, iterations }
}

export interface Row {
  readonly what: string
  readonly unit: string
  readonly ours: number
  readonly peerName: string
  readonly peer: number
}

function fmt(n: number): string {
  return n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(2)
}

/** One decimal from 1 up; below it two significant digits, so that 60 times faster is not printed as 0.0. */
function ratio(r: number): string {
  return r >= 1 ? r.toFixed(1) : r.toPrecision(2)
}

/**
 * The table of a group, then `checked`: what the run verified of the answers it timed (a check that fails stops
 * the run before anything is printed, so a printed line is a check that passed).
 */
export function printRows(title: string, rows: readonly Row[], checked: readonly string[] = []): void {
  console.log(`\n## ${title}\n`)
  console.log('| benchmark | ours | peer | peer value | ratio (ours / peer) |')
  console.log('|---|---:|---|---:|---:|')
  for (const r of rows) {
    console.log(
      `| ${r.what} | ${fmt(r.ours)} ${r.unit} | ${r.peerName} | ${fmt(r.peer)} ${r.unit} | **${ratio(r.ours / r.peer)}×** |`
    )
  }
  if (checked.length > 0) console.log(`\nChecked:\n${checked.map((line) => `- ${line}`).join('\n')}`)
}

/** The load average and the cores, printed beside a group's figures: on a loaded machine a wall time is mostly waiting. */
export function machineLoad(): string {
  return `load average ${loadavg()[0]!.toFixed(1)}, ${availableParallelism()} cores`
}
