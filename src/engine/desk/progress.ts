/**
 * What the long calls are doing now, for `app.progress`: neither IPC nor HTTP pushes to the renderer, so it
 * polls. A stage is one of the fixed sentences below (never a value from a request), so a report cannot leak a
 * password, a phrase or a key; an activity disappears when its call settles, however it ends.
 */
import type { DeskCall, ProgressReport } from '../../api/contract'

export type Stage =
  | 'Reading the wallet'
  | "Reading the transaction's inputs"
  | 'Building the transaction'
  | 'Reviewing the transaction'
  | 'Unlocking the wallet'
  | 'Signing'
  | 'Submitting to the node'
  | 'Writing the bundle'
  | 'Asking the faucet'
  | 'Connecting to the node'
  | 'Applying the settings'
  | 'Saving the settings'
  | 'Waiting for other work to finish'
  | 'Switching networks'
  | 'Starting the local API'
  | 'Reading the account key from the device'
  | 'Waiting for the confirmation on the device'
  | "Checking the Keystone's signature"

/** Moves an activity to its next stage. */
export type StageFn = (stage: Stage) => void

interface Activity {
  readonly id: string
  readonly call: DeskCall
  readonly startedAt: bigint
  readonly steps: number | undefined
  stage: Stage
  step: number
}

export class ActivityTracker {
  private readonly running = new Map<string, Activity>()
  private counter = 0

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * Runs `work` as an activity of `call`, starting at `first` (step 1 of `steps`, when the count is known);
   * `work` announces each further stage before it awaits it.
   */
  async run<T>(
    call: DeskCall,
    first: Stage,
    steps: number | undefined,
    work: (stage: StageFn) => Promise<T>
  ): Promise<T> {
    this.counter += 1
    const activity: Activity = {
      id: `a${this.counter}`,
      call,
      startedAt: BigInt(this.now()),
      steps,
      stage: first,
      step: 1
    }
    this.running.set(activity.id, activity)
    const stage: StageFn = (next) => {
      activity.stage = next
      activity.step += 1
    }
    try {
      return await work(stage)
    } finally {
      this.running.delete(activity.id)
    }
  }

  /** The activities in flight, oldest first, as plain copies. */
  list(): ProgressReport[] {
    return [...this.running.values()].map(({ id, call, startedAt, stage, step, steps }): ProgressReport => ({
      id,
      call,
      stage,
      startedAt,
      // A stage beyond the announced count (an optional one taken) still reads sensibly: "4 of 4", not "5 of 4".
      step: steps === undefined ? step : Math.min(step, steps),
      ...(steps === undefined ? {} : { steps })
    }))
  }
}
