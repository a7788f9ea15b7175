/** `npm run bench`: every benchmark, each printed with its ratio against a named peer measured in the same run. */
import { benchMarloweCore } from './marlowe-core.bench'

console.log(`# Marlowe Desk benchmarks (node ${process.version}, ${new Date().toISOString()})`)
benchMarloweCore()
