/** A tiny benchmark harness: runs a function until a time budget is spent and reports operations per second. */
import { performance } from 'node:perf_hooks'

export interface Measurement {
  readonly opsPerSecond: number
  readonly iterations: number
}

/** `fn` performs `opsPerCall` operations; warm up first so the JIT has settled. */
export function measure(fn: () => void, opsPerCall = 1, budgetMs = 1500): Measurement {
  const warmUntil = performance.now() + budgetMs / 5
  while (performance.now() < warmUntil) fn()
  let iterations = 0
  const start = performance.now()
  let elapsed = 0
  while (elapsed < budgetMs) {
    fn()
    iterations += 1
    elapsed = performance.now() - start
  }
  return { opsPerSecond: (iterations * opsPerCall * 1000) / elapsed, iterations }
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

export function printRows(title: string, rows: readonly Row[]): void {
  console.log(`\n## ${title}\n`)
  console.log('| benchmark | ours | peer | peer value | ratio (ours / peer) |')
  console.log('|---|---:|---|---:|---:|')
  for (const r of rows) {
    console.log(
      `| ${r.what} | ${fmt(r.ours)} ${r.unit} | ${r.peerName} | ${fmt(r.peer)} ${r.unit} | **${(r.ours / r.peer).toFixed(1)}×** |`
    )
  }
}
