/**
 * The README's offline story, run word for word through the built CLI: the block after `<!-- offline-story -->`
 * is read from README.md and each line done as written — `serve &` started in the background (on a free port
 * instead of 3780, the one change), files written by `cat > … <<'EOF'`, each `npx marlowe-desk …` run in a
 * fresh MARLOWE_DESK_HOME, prompts answered on a terminal as a person types them, and the steps marked as on the
 * air-gapped machine run with every socket and DNS lookup made to fail. It ends where the README says it does:
 * serve has followed the contract to confirmation.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { sandboxWallet } from '../../src/chain/sandbox/wallets'
import { isJsonObject, parseJson, type JsonObject, type JsonValue } from '../../src/core/json/lossless'
import { runCli, runInTerminal, type CliResult } from './run-cli'
import { startServe, type ServeProcess } from './serve-process'

const README = resolve(__dirname, '../../README.md')
const PASSWORD = 'correct horse battery staple'

type Step =
  | { readonly kind: 'serve'; readonly args: string[] }
  | { readonly kind: 'cli'; readonly args: string[]; readonly offline: boolean }
  | { readonly kind: 'file'; readonly path: string; readonly text: string }

/** The story's lines as steps; a `# …` line saying "air-gapped" makes the steps after it offline until the next. */
function storySteps(): Step[] {
  const text = readFileSync(README, 'utf8')
  const marker = text.indexOf('<!-- offline-story -->')
  if (marker < 0) throw new Error('README.md has no <!-- offline-story --> block')
  const open = text.indexOf('```sh\n', marker) + '```sh\n'.length
  const lines = text.slice(open, text.indexOf('\n```', open)).split('\n')
  const steps: Step[] = []
  let offline = false
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!
    if (line.startsWith('#')) {
      offline = /air-gapped/.test(line)
      continue
    }
    const heredoc = /^cat > (\S+) <<'EOF'$/.exec(line)
    if (heredoc !== null) {
      const end = lines.indexOf('EOF', i)
      steps.push({ kind: 'file', path: heredoc[1]!, text: `${lines.slice(i + 1, end).join('\n')}\n` })
      i = end
      continue
    }
    const command = /^npx marlowe-desk (.+?)(?:\s+#.*)?$/.exec(line)
    if (command === null) throw new Error(`the story has a line this test cannot follow: ${line}`)
    const args = command[1]!.split(/\s+/)
    if (args[args.length - 1] === '&') steps.push({ kind: 'serve', args: args.slice(0, -1) })
    else steps.push({ kind: 'cli', args, offline })
  }
  return steps
}

/** What a person types at each prompt of the story's commands. */
const ANSWERS: Readonly<Record<string, ReadonlyArray<readonly [string, string]>>> = {
  'keys restore': [
    ['Recovery phrase', `${sandboxWallet('alice').mnemonic}\r`],
    ['New password:', `${PASSWORD}\r`],
    ['Repeat the password:', `${PASSWORD}\r`]
  ],
  'tx sign': [['Password:', `${PASSWORD}\r`]]
}

let serve: ServeProcess | undefined
const scratch: string[] = []
afterAll(async () => {
  if (serve !== undefined && serve.child.exitCode === null) {
    serve.child.kill('SIGTERM')
    await serve.exited()
  }
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true })
})

describe("the README's offline story", () => {
  test('every line as written: built online through serve, reviewed and signed offline, confirmed in serve', async () => {
    const steps = storySteps()
    expect(steps.map((s) => (s.kind === 'file' ? 'file' : s.args.slice(0, 2).join(' ')))).toEqual([
      'serve',
      'keys restore',
      'file',
      'contract check',
      'tx build',
      'tx bundle',
      'tx review',
      'tx sign',
      'tx assemble',
      'tx submit'
    ])
    const home = mkdtempSync(join(tmpdir(), 'marlowe-desk-story-home-'))
    const cwd = mkdtempSync(join(tmpdir(), 'marlowe-desk-story-'))
    scratch.push(home, cwd)
    const env = { MARLOWE_DESK_HOME: home }
    const outputs = new Map<string, CliResult>()

    for (const step of steps) {
      if (step.kind === 'file') {
        writeFileSync(join(cwd, step.path), step.text)
        continue
      }
      if (step.kind === 'serve') {
        expect(step.args).toEqual(['serve'])
        serve = await startServe(home, [], { asHome: true })
        continue
      }
      const name = step.args.slice(0, 2).join(' ')
      const answers = ANSWERS[name]
      let result: CliResult
      if (answers === undefined) {
        result = runCli(step.args, { cwd, env, offline: step.offline })
      } else {
        const { text, code } = await runInTerminal(step.args, answers, { cwd, env, offline: step.offline })
        // Typed secrets never show on the terminal.
        expect(text).not.toContain(PASSWORD)
        result = { code, stdout: text, stderr: '' }
      }
      expect(result.code, `${step.args.join(' ')}\n${result.stdout}\n${result.stderr}`).toBe(0)
      outputs.set(name, result)
    }

    // The steps said what they did, and how they reached the service.
    const built = outputs.get('tx build')!.stdout
    expect(built).toMatch(
      /^wrote tx\.json: the unsigned contract [0-9a-f]{64}#\d+ \(built by the marlowe-desk serve on port \d+\)$/m
    )
    const contractId = /the unsigned contract ([0-9a-f]{64}#\d+)/.exec(built)![1]!
    const txId = contractId.slice(0, 64)
    expect(outputs.get('tx bundle')!.stdout).toContain(`wrote bundle.json: ${txId}`)
    expect(outputs.get('tx review')!.stdout).toContain(`Transaction ${txId}`)
    expect(outputs.get('tx sign')!.stdout).toContain(`signed ${txId} with 1 key(s)`)
    expect(outputs.get('tx submit')!.stdout).toBe(`submitted ${txId}\n`)

    // serve follows the build it made to confirmation: the story ends with the contract confirmed there.
    const s = serve!
    const get = async (path: string): Promise<JsonObject> => {
      const answer = await fetch(`${s.base}${path}`, { headers: { authorization: `Bearer ${s.token}` } })
      const body = parseJson(await answer.text())
      if (!isJsonObject(body)) throw new Error(`GET ${path} answered ${answer.status}`)
      return body
    }
    const statusOf = async (): Promise<JsonValue | undefined> => {
      const resource = (await get(`/contracts/${encodeURIComponent(contractId)}`)).resource
      return isJsonObject(resource) ? resource.status : undefined
    }
    let status = await statusOf()
    for (let tries = 0; tries < 300 && status !== 'confirmed'; tries += 1) {
      await new Promise((wake) => setTimeout(wake, 100))
      status = await statusOf()
    }
    expect(status).toBe('confirmed')
    const tagged = (await get('/contracts?tag=story')).results
    expect(
      Array.isArray(tagged)
        ? tagged.map((r) => (isJsonObject(r) && isJsonObject(r.resource) ? r.resource.contractId : undefined))
        : []
    ).toEqual([contractId])
  }, 180_000)
})
