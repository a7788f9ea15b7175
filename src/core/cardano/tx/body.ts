/** The transaction body map (Conway CDDL keys 0–22; key 6 is Babbage's update proposal). */
import { readCertificate } from './certificate'
import { readProposal, readVotingProcedures, readWithdrawals } from './governance'
import { readOutput } from './output'
import { HASH28, HASH32, type TxReader } from './reader'
import type {
  Certificate,
  DecodedBody,
  DecodedOutput,
  PolicyAssets,
  Proposal,
  TxIn,
  VoterVotes,
  Withdrawal
} from './types'
import { readMint } from './value'

interface MutableBody {
  inputs?: TxIn[]
  outputs?: DecodedOutput[]
  fee?: bigint
  ttl?: bigint
  certificates: Certificate[]
  withdrawals: Withdrawal[]
  hasUpdate: boolean
  auxDataHash?: string
  validityStart?: bigint
  mint: PolicyAssets[]
  scriptDataHash?: string
  collateral: TxIn[]
  requiredSigners: string[]
  networkId?: number
  collateralReturn?: DecodedOutput
  totalCollateral?: bigint
  referenceInputs: TxIn[]
  votingProcedures: VoterVotes[]
  proposals: Proposal[]
  currentTreasuryValue?: bigint
  donation?: bigint
  unknownKeys: bigint[]
}

export function readBody(r: TxReader): DecodedBody {
  const start = r.pos
  const body: MutableBody = {
    certificates: [],
    withdrawals: [],
    hasUpdate: false,
    mint: [],
    collateral: [],
    requiredSigners: [],
    referenceInputs: [],
    votingProcedures: [],
    proposals: [],
    unknownKeys: []
  }
  r.mapEntries('transaction body', (key) => {
    if (key.kind !== 'int' || key.value < 0n) r.fail('transaction body keys must be unsigned integers', key.start)
    readField(r, key.value, body)
  })
  const { inputs, outputs, fee } = body
  if (inputs === undefined) return r.fail('the transaction body has no inputs (key 0)', start)
  if (outputs === undefined) return r.fail('the transaction body has no outputs (key 1)', start)
  if (fee === undefined) return r.fail('the transaction body has no fee (key 2)', start)
  return { ...body, inputs, outputs, fee }
}

function readField(r: TxReader, key: bigint, body: MutableBody): void {
  switch (key) {
    case 0n:
      body.inputs = readInputs(r, 'input')
      break
    case 1n: {
      const outputs: DecodedOutput[] = []
      r.arrayItems('outputs', (i) => outputs.push(readOutput(r, `output ${i}`)))
      body.outputs = outputs
      break
    }
    case 2n:
      body.fee = r.uint('fee')
      break
    case 3n:
      body.ttl = r.uint('ttl')
      break
    case 4n:
      body.certificates = []
      r.set('certificates', (i) => body.certificates.push(readCertificate(r, `certificate ${i}`)))
      break
    case 5n:
      body.withdrawals = readWithdrawals(r, 'withdrawals')
      break
    case 6n:
      body.hasUpdate = true
      r.skip()
      break
    case 7n:
      body.auxDataHash = r.hash('auxiliary data hash', HASH32)
      break
    case 8n:
      body.validityStart = r.uint('validity interval start')
      break
    case 9n:
      body.mint = readMint(r)
      break
    case 11n:
      body.scriptDataHash = r.hash('script data hash', HASH32)
      break
    case 13n:
      body.collateral = readInputs(r, 'collateral input')
      break
    case 14n:
      body.requiredSigners = []
      r.set('required signers', () => body.requiredSigners.push(r.hash('required signer', HASH28)))
      break
    case 15n:
      body.networkId = r.smallUint('network id', 1)
      break
    case 16n:
      body.collateralReturn = readOutput(r, 'collateral return')
      break
    case 17n:
      body.totalCollateral = r.uint('total collateral')
      break
    case 18n:
      body.referenceInputs = readInputs(r, 'reference input')
      break
    case 19n:
      body.votingProcedures = readVotingProcedures(r)
      break
    case 20n:
      body.proposals = []
      r.set('proposal procedures', (i) => body.proposals.push(readProposal(r, `proposal ${i}`)))
      break
    case 21n:
      body.currentTreasuryValue = r.uint('current treasury value')
      break
    case 22n:
      body.donation = r.uint('donation')
      break
    default:
      body.unknownKeys.push(key)
      r.skip()
  }
}

function readInputs(r: TxReader, what: string): TxIn[] {
  const inputs: TxIn[] = []
  r.set(`${what}s`, (i) => inputs.push(r.txIn(`${what} ${i}`)))
  return inputs
}
