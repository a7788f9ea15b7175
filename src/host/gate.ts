/**
 * Calls run side by side ("shared"); switching the engine underneath them ("exclusive") waits until the calls
 * in flight have finished and holds new ones back until it is done — so no call sees half a switch, and no
 * service is closed under a call still using it.
 */
export class Gate {
  private active = 0
  private drained: Array<() => void> = []
  private switching: Promise<void> | undefined

  async shared<T>(work: () => Promise<T>): Promise<T> {
    while (this.switching !== undefined) await this.switching
    this.active += 1
    try {
      return await work()
    } finally {
      this.active -= 1
      if (this.active === 0) for (const wake of this.drained.splice(0)) wake()
    }
  }

  async exclusive<T>(work: () => Promise<T>): Promise<T> {
    while (this.switching !== undefined) await this.switching
    let release = (): void => undefined
    this.switching = new Promise<void>((resolve) => (release = resolve))
    try {
      if (this.active > 0) await new Promise<void>((resolve) => this.drained.push(resolve))
      return await work()
    } finally {
      this.switching = undefined
      release()
    }
  }
}
