/**
 * Ogmios v6 answers for the local peer, checked against `@cardano-ogmios/schema` at compile time through
 * `Lossless<T>` (the schema with every number a bigint, as the lossless JSON codec reads and writes them).
 * Values are mainnet-like: Conway protocol parameters, mainnet's era history and start time.
 */
import type {
  BlockPraos,
  EraSummary,
  GenesisShelley,
  ProtocolParameters,
  Utxo as OgmiosUtxo
} from '@cardano-ogmios/schema'
import type { JsonObject, JsonValue } from '../../../src/core/json/lossless'

/** A schema type as lossless JSON: numbers are bigints. */
export type Lossless<T> = T extends number
  ? bigint
  : T extends bigint | string | boolean | null
    ? T
    : T extends readonly (infer U)[]
      ? Lossless<U>[]
      : T extends object
        ? { [K in keyof T]: Lossless<T[K]> }
        : T

/** The largest token quantity the ledger allows (2^64 − 1): a double cannot hold it. */
export const MAX_QUANTITY = 18446744073709551615n

export const MAINNET_START = '2017-09-23T21:44:51Z'
export const MAINNET_START_MS = 1_506_203_091_000n

export const PARAMS = {
  minFeeCoefficient: 44n,
  minFeeConstant: { ada: { lovelace: 155381n } },
  minFeeReferenceScripts: { range: 25600n, base: 15n, multiplier: 12n },
  minUtxoDepositCoefficient: 4310n,
  minUtxoDepositConstant: { ada: { lovelace: 0n } },
  maxBlockBodySize: { bytes: 90112n },
  maxBlockHeaderSize: { bytes: 1100n },
  maxTransactionSize: { bytes: 16384n },
  maxValueSize: { bytes: 5000n },
  stakeCredentialDeposit: { ada: { lovelace: 2000000n } },
  stakePoolDeposit: { ada: { lovelace: 500000000n } },
  stakePoolRetirementEpochBound: 18n,
  stakePoolPledgeInfluence: '3/10',
  minStakePoolCost: { ada: { lovelace: 170000000n } },
  desiredNumberOfStakePools: 500n,
  monetaryExpansion: '3/1000',
  treasuryExpansion: '1/5',
  collateralPercentage: 150n,
  maxCollateralInputs: 3n,
  plutusCostModels: {
    'plutus:v1': [100788n, 420n, 1n, 1n, 1000n, 173n, 0n, 1n],
    'plutus:v2': [100788n, 420n, 1n, 1n, 1000n, 173n, 0n, 1n, 1000n, 59957n],
    // Cost model entries are Int64; the largest ones exceed 2^53.
    'plutus:v3': [100788n, 420n, 9223372036854775807n, -1n]
  },
  scriptExecutionPrices: { memory: '577/10000', cpu: '721/10000000' },
  maxExecutionUnitsPerTransaction: { memory: 14000000n, cpu: 10000000000n },
  maxExecutionUnitsPerBlock: { memory: 62000000n, cpu: 20000000000n },
  maxReferenceScriptsSize: { bytes: 204800n },
  version: { major: 10n, minor: 0n }
} satisfies Lossless<ProtocolParameters>

const bound = (seconds: bigint, slot: bigint, epoch: bigint) => ({ time: { seconds }, slot, epoch })
const shelleyLike = { epochLength: 432000n, slotLength: { milliseconds: 1000n }, safeZone: 129600n }

/** Mainnet's eras, Byron to Conway; Conway's `end` is the node's safe horizon. */
export const ERA_SUMMARIES = [
  {
    start: bound(0n, 0n, 0n),
    end: bound(89856000n, 4492800n, 208n),
    parameters: { epochLength: 21600n, slotLength: { milliseconds: 20000n }, safeZone: 4320n }
  },
  { start: bound(89856000n, 4492800n, 208n), end: bound(101952000n, 16588800n, 236n), parameters: shelleyLike },
  { start: bound(101952000n, 16588800n, 236n), end: bound(108432000n, 23068800n, 251n), parameters: shelleyLike },
  { start: bound(108432000n, 23068800n, 251n), end: bound(125280000n, 39916800n, 290n), parameters: shelleyLike },
  { start: bound(125280000n, 39916800n, 290n), end: bound(157680000n, 72316800n, 365n), parameters: shelleyLike },
  { start: bound(157680000n, 72316800n, 365n), end: bound(219024000n, 133660800n, 507n), parameters: shelleyLike },
  { start: bound(219024000n, 133660800n, 507n), end: bound(219888000n, 134524800n, 509n), parameters: shelleyLike }
] satisfies Lossless<EraSummary>[]

export function genesis(networkMagic: bigint, network: 'mainnet' | 'testnet'): JsonObject {
  return {
    era: 'shelley',
    startTime: MAINNET_START,
    networkMagic,
    network,
    activeSlotsCoefficient: '1/20',
    securityParameter: 2160n,
    epochLength: 432000n,
    slotsPerKesPeriod: 129600n,
    maxKesEvolutions: 62n,
    slotLength: { milliseconds: 1000n },
    updateQuorum: 5n,
    maxLovelaceSupply: 45000000000000000n,
    initialParameters: PARAMS,
    initialDelegates: [],
    initialFunds: {},
    initialStakePools: { stakePools: {}, delegators: {} }
  } satisfies Lossless<GenesisShelley>
}

export const ADDRESS_A = 'addr_test1vz9y7chy58vnas9rh38966c74rt7vl2pu26ud3997rft48clq3cx3'
export const ADDRESS_B = 'addr_test1wqmhxfddsjj4hgpg9kzymledtu833sel6j3g5z5aw0r0vrg03kpfs'

export const POLICY = 'a0028f350aaabe0545fdcb56b039bfb08e4bb4d8c4d7c3c7d481c235'
export const KEY_HASH = '8a4f62e4a1d93ec0a3bc4e5d6b1ea8d7e67d41e2b5c6c4a5f0d2ba9f'
export const PLUTUS_V2_CBOR = '4e4d01000033222220051200120011'
export const INLINE_DATUM = 'd8799f4100ff'
export const DATUM_HASH = '923918e403bf43c34b4ef6b48eb2ee04babed17320d8d1b9ff9ad086e86f44ec'
export const TX_1 = '1111111111111111111111111111111111111111111111111111111111111111'
export const TX_2 = '2222222222222222222222222222222222222222222222222222222222222222'

/** Three outputs at two addresses: plain ada; tokens, inline datum and a Plutus script; a datum hash and a native script. */
export const UTXOS = [
  { transaction: { id: TX_1 }, index: 0n, address: ADDRESS_A, value: { ada: { lovelace: 5000000n } } },
  {
    transaction: { id: TX_1 },
    index: 1n,
    address: ADDRESS_B,
    value: { ada: { lovelace: 45000000000000000n }, [POLICY]: { '': 1n, '4d61726c6f7765': MAX_QUANTITY } },
    datum: INLINE_DATUM,
    script: { language: 'plutus:v2', cbor: PLUTUS_V2_CBOR }
  },
  {
    transaction: { id: TX_2 },
    index: 7n,
    address: ADDRESS_A,
    value: { ada: { lovelace: 1500000n } },
    datumHash: DATUM_HASH,
    script: {
      language: 'native',
      json: {
        clause: 'all',
        from: [
          { clause: 'signature', from: KEY_HASH },
          { clause: 'after', slot: 100n },
          { clause: 'before', slot: 5000000000n }
        ]
      }
    }
  }
] satisfies Lossless<OgmiosUtxo>

export type PeerUtxo = JsonObject

export function utxoFixtures(): PeerUtxo[] {
  return UTXOS.map((u) => structuredClone(u) as JsonObject)
}

/** A real transaction in a peer's block: its id, bytes (hex) and the outputs it spends. */
export interface BlockTx {
  readonly id: string
  readonly cbor: string
  readonly inputs: readonly { readonly txId: string; readonly index: number }[]
}

/**
 * A Conway block in Ogmios' chain-sync shape: holding `txs` (with their bytes when `includeCbor`, as Ogmios run
 * with --include-transaction-cbor), or else stand-in transactions with the ids `txIds`.
 */
export function blockJson(
  block: {
    readonly slot: bigint
    readonly height: bigint
    readonly id: string
    readonly ancestor: string
    readonly txIds: readonly string[]
    readonly txs?: readonly BlockTx[]
  },
  includeCbor = true
): JsonValue {
  const key = '00'.repeat(32)
  const transactions =
    block.txs === undefined
      ? block.txIds.map((id) => ({
          id,
          spends: 'inputs' as const,
          inputs: [{ transaction: { id: TX_1 }, index: 0n }],
          outputs: [{ address: ADDRESS_A, value: { ada: { lovelace: 1000000n } } }],
          signatories: []
        }))
      : block.txs.map((tx) => ({
          id: tx.id,
          spends: 'inputs' as const,
          inputs: tx.inputs.map((i) => ({ transaction: { id: i.txId }, index: BigInt(i.index) })),
          outputs: [],
          signatories: [],
          ...(includeCbor ? { cbor: tx.cbor } : {})
        }))
  return {
    type: 'praos',
    era: 'conway',
    id: block.id,
    ancestor: block.ancestor,
    height: block.height,
    slot: block.slot,
    size: { bytes: 1024n },
    transactions,
    protocol: { version: { major: 10n, minor: 0n } },
    issuer: {
      verificationKey: key,
      vrfVerificationKey: key,
      operationalCertificate: { count: 0n, kes: { period: 0n, verificationKey: key } },
      leaderValue: {}
    }
  } satisfies Lossless<BlockPraos>
}
