/**
 * `marlowe-desk validators fetch` (from the embedded sandbox, and from a real network's references through a
 * local Blockfrost), and `serve --validators DIR` running the sandbox on the validators of a directory.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { marloweDeployment } from '../../src/chain/deployments'
import { readValidatorDir } from '../../src/chain/marlowe-scripts'
import { STAND_IN_VALIDATORS } from '../../src/chain/sandbox'
import { PLUTUS_HASH, PLUTUS_SERVED, SCRIPT_ADDR, txOutput } from '../chain/blockfrost/fixtures'
import { BlockfrostPeer } from '../chain/blockfrost/peer'
import { testValidators, writeTestValidatorDir } from '../chain/support/validators'
import { cliPath, runCli, type CliResult } from './run-cli'
import { startServe } from './serve-process'

const scratch = (): string => mkdtempSync(join(tmpdir(), 'marlowe-desk-validators-cli-'))

/** Runs the CLI without blocking this process, so the local Blockfrost in it can answer. */
function runCliAsync(args: readonly string[]): Promise<CliResult> {
  const child = spawn(process.execPath, [cliPath(), ...args], {
    env: { ...process.env, NODE_PATH: resolve(__dirname, '../../node_modules') },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (b: Buffer) => (stdout += b.toString('utf8')))
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString('utf8')))
  return new Promise((done) => child.once('close', (code) => done({ code, stdout, stderr })))
}

let peer: BlockfrostPeer | undefined
afterEach(async () => {
  await peer?.close()
  peer = undefined
})

describe('marlowe-desk validators fetch', () => {
  it('writes the sandbox’s reference scripts as TextEnvelopes, hashes checked', () => {
    const out = join(scratch(), 'validators')
    const r = runCli(['validators', 'fetch', '--data', scratch(), '--out', out])
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    const standIn = marloweDeployment('sandbox')
    expect(r.stdout).toContain(`semantics  ${standIn.semantics.hash}  ${join(out, 'semantics.plutus')}`)
    expect(r.stdout).toContain(`open-role  ${standIn.openRole.hash}  ${join(out, 'open-role.plutus')}`)
    expect(readValidatorDir(out)).toEqual(STAND_IN_VALIDATORS)
  })

  it('refuses a script whose hash is not the deployment’s, and a reference the chain does not hold', async () => {
    peer = await BlockfrostPeer.start()
    const preprod = marloweDeployment('preprod')
    const scriptsTx = preprod.semantics.reference.txId
    const args = ['validators', 'fetch', '--network', 'preprod', '--blockfrost', peer.projectId]
    const run = (): Promise<CliResult> =>
      runCliAsync([...args, '--blockfrost-url', peer!.url, '--out', join(scratch(), 'v')])

    const missing = await run()
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain(
      `validators fetch: the semantics validator at ${scriptsTx}#1 on preprod: no such unspent output`
    )

    // Another Plutus V2 script where the semantics validator should be.
    peer.state.scripts.set(PLUTUS_HASH, { type: 'plutusV2', cbor: PLUTUS_SERVED })
    peer.state.txUtxos.set(scriptsTx, {
      hash: scriptsTx,
      inputs: [],
      outputs: [txOutput(SCRIPT_ADDR, 1, { reference_script_hash: PLUTUS_HASH })]
    })
    const wrong = await run()
    expect(wrong.code).toBe(1)
    expect(wrong.stderr).toContain(
      `validators fetch: the semantics validator at ${scriptsTx}#1 on preprod: the script's hash is ${PLUTUS_HASH}, ` +
        `the deployment's is ${preprod.semantics.hash}`
    )
  })

  it('--validators is for the sandbox only', () => {
    const r = runCli(['validators', 'fetch', '--network', 'preprod', '--blockfrost', 'x', '--validators', scratch()])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('--validators runs validators on the sandbox')
  })
})

describe('marlowe-desk serve --validators', () => {
  it('deploys the directory’s validators on the sandbox and says so', async () => {
    const given = testValidators('serve')
    const serve = await startServe(scratch(), ['--validators', writeTestValidatorDir(given)])
    try {
      expect(serve.stdout()).toContain(
        `sandbox Marlowe scripts: given validators (semantics ${given.semantics.hash}, payout ${given.payout.hash}, ` +
          `open-role ${given.openRole.hash})`
      )
    } finally {
      serve.child.kill('SIGTERM')
      await serve.exited()
    }
  })

  it('refuses a directory without the validators', () => {
    const dir = scratch()
    const r = runCli(['serve', '--port', '0', '--data', scratch(), '--validators', dir])
    expect(r.code).toBe(1)
    expect(r.stderr).toContain(`serve: --validators: the semantics validator file ${join(dir, 'semantics.plutus')}`)
  })
})
