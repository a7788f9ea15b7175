/**
 * Shared pieces of the keystore tests: published vectors, a manual clock and scheduler, fresh directories,
 * cheap scrypt parameters, and helpers that catch the engine's errors.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect } from 'vitest'
import { EngineError } from '../../../src/engine/errors'
import { Keystore, type Clock, type KeystoreOptions, type Schedule, type ScryptParams } from '../../../src/engine/keys'

/** The lowest N the keystore accepts: keeps each test's scrypt to a few milliseconds. */
export const FAST_SCRYPT: ScryptParams = { N: 1024, r: 8, p: 1 }
export const PASSWORD = 'correct horse battery'

/**
 * Emurgo/cardano-serialization-lib rust/src/tests/address.rs (bip32_12_*, bip32_15_*, bip32_24_*): the
 * 12-word phrase is the one behind CIP-19's test vectors (its payment key is CIP-19's addr_vk1w0l2…).
 */
export const CSL_VECTORS = [
  {
    words: 12,
    mnemonic: 'test walk nut penalty hip pave soap entry language right filter choice',
    base: {
      mainnet:
        'addr1qx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer3jcu5d8ps7zex2k2xt3uqxgjqnnj83ws8lhrn648jjxtwqfjkjv7',
      testnet:
        'addr_test1qz2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer3jcu5d8ps7zex2k2xt3uqxgjqnnj83ws8lhrn648jjxtwq2ytjqp'
    },
    enterprise: {
      mainnet: 'addr1vx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzers66hrl8',
      testnet: 'addr_test1vz2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzerspjrlsz'
    },
    reward: {
      mainnet: 'stake1uyevw2xnsc0pvn9t9r9c7qryfqfeerchgrlm3ea2nefr9hqxdekzz',
      testnet: 'stake_test1uqevw2xnsc0pvn9t9r9c7qryfqfeerchgrlm3ea2nefr9hqp8n5xl'
    }
  },
  {
    words: 15,
    mnemonic: 'art forum devote street sure rather head chuckle guard poverty release quote oak craft enemy',
    base: {
      mainnet:
        'addr1q9u5vlrf4xkxv2qpwngf6cjhtw542ayty80v8dyr49rf5ewvxwdrt70qlcpeeagscasafhffqsxy36t90ldv06wqrk2qld6xc3',
      testnet:
        'addr_test1qpu5vlrf4xkxv2qpwngf6cjhtw542ayty80v8dyr49rf5ewvxwdrt70qlcpeeagscasafhffqsxy36t90ldv06wqrk2qum8x5w'
    },
    enterprise: {
      mainnet: 'addr1v9u5vlrf4xkxv2qpwngf6cjhtw542ayty80v8dyr49rf5eg0kvk0f',
      testnet: 'addr_test1vpu5vlrf4xkxv2qpwngf6cjhtw542ayty80v8dyr49rf5eg57c2qv'
    }
  },
  {
    words: 24,
    // CSL gives this phrase as its entropy, 4e828f9a67ddcff0e6391ad4f26ddb7579f59ba14b6dd4baf63dcfdb9d2420da.
    mnemonic:
      'excess behave track soul table wear ocean cash stay nature item turtle palm soccer lunch horror start stumble month panic right must lock dress',
    base: {
      mainnet:
        'addr1qyy6nhfyks7wdu3dudslys37v252w2nwhv0fw2nfawemmn8k8ttq8f3gag0h89aepvx3xf69g0l9pf80tqv7cve0l33sdn8p3d',
      testnet:
        'addr_test1qqy6nhfyks7wdu3dudslys37v252w2nwhv0fw2nfawemmn8k8ttq8f3gag0h89aepvx3xf69g0l9pf80tqv7cve0l33sw96paj'
    },
    enterprise: {
      mainnet: 'addr1vyy6nhfyks7wdu3dudslys37v252w2nwhv0fw2nfawemmnqs6l44z',
      testnet: 'addr_test1vqy6nhfyks7wdu3dudslys37v252w2nwhv0fw2nfawemmnqtjtf68'
    }
  }
] as const

/** CIP-19's payment verification key and its hash: m/1852'/1815'/0'/0/0 of the 12-word phrase above. */
export const CIP19 = {
  paymentKey: 'addr_vk1w0l2sr2zgfm26ztc6nl9xy8ghsk5sh6ldwemlpmp9xylzy4dtf7st80zhd',
  paymentKeyHash: '9493315cd92eb5d8c4304e67b7e16ae36d61d34502694657811a2c8e'
}

/** IntersectMBO/cardano-addresses README: the `cardano-address` walk-through, for one 15-word phrase. */
export const CARDANO_ADDRESSES = {
  mnemonic:
    'exercise club noble adult miracle awkward problem olympic puppy private goddess piano fatal fashion vacuum',
  accountXsk:
    'acct_xsk15ztha8ws7qjze5vmdkwqh0ddzvtlgstkg79swazhc5lxns2849plr3msjx082mcmd9hc24ujczk2cjnjwrcz4tjaucw9jqf8h5yc7d84rac0zdckkuhazpam0kleg4sq52ph3e0wn98a64hr8g5cpmh9zqpwtrhy',
  /** `cardano-address key walletid` of the account key. */
  walletId: '15fd6c2130b0758ec7995bf9771d2a6602417c39',
  paymentXvk:
    'addr_xvk1grvg8qzmkmw2n0dm4pd0h3j4dv6yglyammyp733eyj629dc3z28v6wk22nfmru6xz0vl2s3y5xndyd57fu70hrt84c6zkvlwx6fdl7ct9j7yc',
  paymentKeyHash: '54947bcf6b760319bcec250ec225fd1ce63baface47e34b44b73e4f9',
  stakeXvk:
    'stake_xvk1658atzttunamzn80204khrg0qfdk5nvmrutlmmpg7xlsyaggwa7h9z4smmeqsvs67qhyqmc2lqa0vy36rf2la74ym8a5p93zp4qtpuq6ky3ve',
  stakeKeyHash: 'f6d2f2ef387333e15aea9333e9d908e57a2b513ec6d762884f70ae2a',
  enterpriseTestnet: 'addr_test1vp2fg770ddmqxxduasjsas39l5wwvwa04nj8ud95fde7f7guscp6v',
  baseTestnet:
    'addr_test1qp2fg770ddmqxxduasjsas39l5wwvwa04nj8ud95fde7f70k6tew7wrnx0s4465nx05ajz890g44z0kx6a3gsnms4c4qq8ve0n',
  rewardTestnet: 'stake_test1urmd9uh08pen8c26a2fn86weprjh52638mrdwc5gfac2u2s25zpat'
}

/** A clock and scheduler the test moves by hand. */
export class ManualTime {
  private current = Date.UTC(2026, 10, 22, 12, 0, 0)
  private tasks: { at: number; run: () => void; cancelled: boolean }[] = []

  readonly clock: Clock = { now: () => this.current }

  readonly schedule: Schedule = (run, delayMs) => {
    const task = { at: this.current + delayMs, run, cancelled: false }
    this.tasks.push(task)
    return () => {
      task.cancelled = true
    }
  }

  /** Moves time on, running the tasks that fall due, in time order. */
  advance(ms: number): void {
    const end = this.current + ms
    for (;;) {
      this.tasks = this.tasks.filter((task) => !task.cancelled)
      const due = this.tasks.filter((task) => task.at <= end).sort((a, b) => a.at - b.at)[0]
      if (due === undefined) break
      this.tasks.splice(this.tasks.indexOf(due), 1)
      this.current = Math.max(this.current, due.at)
      due.run()
    }
    this.current = end
  }

  /** Moves the clock without running any timer, as a machine waking from sleep sees it. */
  jump(ms: number): void {
    this.current += ms
  }

  get pendingTasks(): number {
    return this.tasks.filter((task) => !task.cancelled).length
  }
}

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A fresh directory, removed after the test. */
export function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'marlowe-desk-keys-'))
  dirs.push(dir)
  return dir
}

export function openKeystore(
  dir: string = freshDir(),
  options: Partial<Omit<KeystoreOptions, 'dir'>> = {}
): Promise<Keystore> {
  return Keystore.open({ dir, scrypt: FAST_SCRYPT, ...options })
}

/** Every file in `dir` with its bytes, to show an operation left them alone. */
export function snapshot(dir: string): Record<string, string> {
  return Object.fromEntries(readdirSync(dir).map((name) => [name, readFileSync(join(dir, name)).toString('hex')]))
}

export async function rejection(promise: Promise<unknown>): Promise<EngineError> {
  try {
    await promise
  } catch (error) {
    expect(error).toBeInstanceOf(EngineError)
    return error as EngineError
  }
  throw new Error('expected the promise to reject')
}

export function thrown(run: () => unknown): EngineError {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(EngineError)
    return error as EngineError
  }
  throw new Error('expected an error')
}
