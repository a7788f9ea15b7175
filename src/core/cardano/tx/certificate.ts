/** Certificates of every era up to Conway (CDDL kinds 0–18), with the fields a reviewer needs. */
import type { Credential } from '../address'
import { HASH28, HASH32, type TxReader } from './reader'
import type { Certificate, CertificateKind, DRep, PoolRegistration } from './types'

/** By CDDL number: the kind and the array length it is written with. */
const KINDS: ReadonlyArray<readonly [CertificateKind, number]> = [
  ['stake-registration', 2],
  ['stake-deregistration', 2],
  ['stake-delegation', 3],
  ['pool-registration', 10],
  ['pool-retirement', 3],
  ['genesis-key-delegation', 4],
  ['move-instantaneous-rewards', 2],
  ['registration', 3],
  ['unregistration', 3],
  ['vote-delegation', 3],
  ['stake-vote-delegation', 4],
  ['stake-registration-delegation', 4],
  ['vote-registration-delegation', 4],
  ['stake-vote-registration-delegation', 5],
  ['committee-hot-key-authorization', 3],
  ['committee-cold-key-resignation', 3],
  ['drep-registration', 4],
  ['drep-unregistration', 3],
  ['drep-update', 3]
]
const TAG_UNIT_INTERVAL = 30

export function readCertificate(r: TxReader, what: string): Certificate {
  const start = r.pos
  const count = r.arrayHeader(what)
  const code = r.smallUint(`${what} kind`, KINDS.length - 1)
  const [kind, length] = KINDS[code]!
  if (count !== undefined && count !== length) {
    r.fail(`${what}: a ${kind} certificate has ${length} items, got ${count}`, start)
  }
  const cert = readFields(r, code, kind, what)
  r.closeArray(count, what)
  return cert
}

function readFields(r: TxReader, code: number, kind: CertificateKind, what: string): Certificate {
  const credential = (): Credential => r.credential(`${what} credential`)
  const pool = (): string => r.hash(`${what} pool id`, HASH28)
  const coin = (): bigint => r.uint(`${what} amount`)
  const drep = (): DRep => readDRep(r, `${what} DRep`)
  const anchor = (): Certificate['anchor'] => r.nullable(() => r.anchor(`${what} anchor`))
  const base = { kind, code }
  switch (code) {
    case 0:
    case 1:
      return { ...base, credential: credential() }
    case 2:
      return { ...base, credential: credential(), poolId: pool() }
    case 3:
      return readPoolRegistration(r, base, what)
    case 4:
      return { ...base, poolId: pool(), epoch: r.uint(`${what} epoch`) }
    case 5:
      r.hash(`${what} genesis hash`, HASH28)
      r.hash(`${what} delegate hash`, HASH28)
      r.hash(`${what} VRF key hash`, HASH32)
      return base
    case 6:
      r.skip()
      return base
    case 7:
      return { ...base, credential: credential(), deposit: coin() }
    case 8:
      return { ...base, credential: credential(), refund: coin() }
    case 9:
      return { ...base, credential: credential(), drep: drep() }
    case 10:
      return { ...base, credential: credential(), poolId: pool(), drep: drep() }
    case 11:
      return { ...base, credential: credential(), poolId: pool(), deposit: coin() }
    case 12:
      return { ...base, credential: credential(), drep: drep(), deposit: coin() }
    case 13:
      return { ...base, credential: credential(), poolId: pool(), drep: drep(), deposit: coin() }
    case 14:
      return { ...base, credential: credential(), hotCredential: r.credential(`${what} hot credential`) }
    case 15:
      return withAnchor({ ...base, credential: credential() }, anchor())
    case 16:
      return withAnchor({ ...base, credential: credential(), deposit: coin() }, anchor())
    case 17:
      return { ...base, credential: credential(), refund: coin() }
    default:
      return withAnchor({ ...base, credential: credential() }, anchor())
  }
}

function withAnchor(cert: Certificate, anchor: Certificate['anchor']): Certificate {
  return anchor === undefined ? cert : { ...cert, anchor }
}

function readDRep(r: TxReader, what: string): DRep {
  const start = r.pos
  const count = r.arrayHeader(what)
  const code = r.smallUint(`${what} kind`, 3)
  const expected = code < 2 ? 2 : 1
  if (count !== undefined && count !== expected) r.fail(`${what}: expected ${expected} items, got ${count}`, start)
  const drep: DRep =
    code === 0
      ? { type: 'key', hash: r.hash(what, HASH28) }
      : code === 1
        ? { type: 'script', hash: r.hash(what, HASH28) }
        : { type: code === 2 ? 'abstain' : 'no-confidence' }
  r.closeArray(count, what)
  return drep
}

function readPoolRegistration(r: TxReader, base: Pick<Certificate, 'kind' | 'code'>, what: string): Certificate {
  const poolId = r.hash(`${what} operator`, HASH28)
  const vrfKeyHash = r.hash(`${what} VRF key hash`, HASH32)
  const pledge = r.uint(`${what} pledge`)
  const cost = r.uint(`${what} cost`)
  const marginStart = r.pos
  if (r.tag(`${what} margin`) !== TAG_UNIT_INTERVAL) r.fail(`${what}: the margin must be tag 30`, marginStart)
  const marginCount = r.fixedArray(`${what} margin`, 2)
  const margin = { numerator: r.uint(`${what} margin`), denominator: r.uint(`${what} margin`) }
  r.closeArray(marginCount, `${what} margin`)
  const rewardAccount = r.rewardAccount(`${what} reward account`)
  const owners: string[] = []
  r.set(`${what} owners`, () => owners.push(r.hash(`${what} owner`, HASH28)))
  r.arrayItems(`${what} relays`, () => r.skip())
  if (!r.takeNull()) r.skip()
  const pool: PoolRegistration = { vrfKeyHash, pledge, cost, margin, rewardAccount, owners }
  return { ...base, poolId, pool }
}
