/**
 * `npm run bench`: every benchmark, each printed with its ratio against a named peer measured in the same run.
 * Each group runs in a fresh Node process (this script again, naming the group): one group's heap and compiled
 * code must not weigh on the next (the review ran ≈15 % slower after the Marlowe core group had decoded 1 MB of
 * other datums), and a group's peer always shares its process. `npm run bench -- review` runs one group.
 */
import { spawnSync } from 'node:child_process'
import { benchMarloweCore } from './marlowe-core.bench'
import { benchBuild } from './build.bench'
import { benchChainIndex } from './chain-index.bench'
import { benchEventLoop } from './event-loop.bench'
import { benchQrTransfer } from './qr-transfer.bench'
import { benchReview } from './review.bench'
import { benchReviewFuzz } from './review-fuzz.bench'
import { benchScale } from './scale.bench'
import { benchSandbox } from './sandbox.bench'
import { benchSandboxScale } from './sandbox-scale.bench'
import { benchReplicas } from './replicas.bench'
import { benchServer } from './server.bench'

const GROUPS: Readonly<Record<string, () => void | Promise<void>>> = {
  'marlowe-core': benchMarloweCore,
  review: benchReview,
  'review-fuzz': benchReviewFuzz,
  sandbox: benchSandbox,
  build: benchBuild,
  server: benchServer,
  replicas: benchReplicas,
  'event-loop': benchEventLoop,
  'chain-index': benchChainIndex,
  scale: benchScale,
  'sandbox-scale': benchSandboxScale,
  'qr-transfer': benchQrTransfer
}

async function main(group: string | undefined): Promise<void> {
  if (group !== undefined) {
    const run = GROUPS[group]
    if (run === undefined) throw new Error(`no benchmark group ${group} (groups: ${Object.keys(GROUPS).join(', ')})`)
    await run()
    return
  }
  console.log(`# Marlowe Desk benchmarks (node ${process.version}, ${new Date().toISOString()})`)
  for (const name of Object.keys(GROUPS)) {
    const child = spawnSync(process.execPath, [...process.execArgv, __filename, name], { stdio: 'inherit' })
    if (child.status !== 0) throw new Error(`benchmark group ${name} failed (exit ${child.status ?? child.signal})`)
  }
}

void main(process.argv[2]).catch((e: unknown) => {
  console.error(e)
  process.exitCode = 1
})
