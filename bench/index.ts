/** `npm run bench`: every benchmark, each printed with its ratio against a named peer measured in the same run. */
import { benchMarloweCore } from './marlowe-core.bench'
import { benchBuild } from './build.bench'
import { benchReview } from './review.bench'
import { benchReviewFuzz } from './review-fuzz.bench'
import { benchSandbox } from './sandbox.bench'
import { benchServer } from './server.bench'

async function main(): Promise<void> {
  console.log(`# Marlowe Desk benchmarks (node ${process.version}, ${new Date().toISOString()})`)
  benchMarloweCore()
  await benchReview()
  await benchReviewFuzz()
  await benchSandbox()
  await benchBuild()
  await benchServer()
}

void main().catch((e: unknown) => {
  console.error(e)
  process.exitCode = 1
})
