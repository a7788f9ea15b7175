/** A long-running CLI (serve, sandbox share) is up once it prints "listening <port>". */
import type { ChildProcess } from 'node:child_process'

/** Waits for a started CLI's "listening <port>" line; its port, and what it printed so far. */
export async function untilListening(
  child: ChildProcess,
  what: string
): Promise<{ port: number; stdout: () => string; stderr: () => string }> {
  let out = ''
  let err = ''
  child.stderr?.on('data', (b: Buffer) => (err += b.toString('utf8')))
  child.stdout?.on('data', (b: Buffer) => (out += b.toString('utf8')))
  const port = await new Promise<number>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`${what} did not start in 30 s:\n${out}\n${err}`)), 30_000)
    const check = (): void => {
      const m = /^listening (\d+)$/m.exec(out)
      if (m === null) return
      clearTimeout(timer)
      child.stdout?.off('data', check)
      done(Number(m[1]))
    }
    child.stdout?.on('data', check)
    child.once('exit', (code) => {
      clearTimeout(timer)
      fail(new Error(`${what} exited with ${code}:\n${out}\n${err}`))
    })
  })
  return { port, stdout: () => out, stderr: () => err }
}
