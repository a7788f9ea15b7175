/**
 * The create transaction (runtime-api.md §9.2): the Marlowe output at the semantics validator (optionally
 * staked), its datum by hash with the datum in the witness set, the initial state with the creator's deposit,
 * role tokens minted by the one-shot policy (or taken from an existing one), open roles with their thread
 * token, metadata (tags under 1564, role NFTs under 721), and Runtime's safety checks.
 */
import type { Utxo } from '../../chain/provider'
import { encodeMarloweData } from '../../core/marlowe/plutus/marlowe-data'
import type { MarloweData, Token } from '../../core/marlowe/types'
import { EngineError } from '../errors'
import { simulateOffThread } from '../worker'
import { balanceAndBuild, builtTxFields } from './balance'
import { badRequest, engineFailure, evaluatingOffThread, insufficientMinAdaDeposit } from './build-errors'
import type { BuildContext } from './context'
import { checkTransactionCosts, isCostNotChecked, prepareCostCheck, withCostErrors } from './cost-check'
import { creatorDeposit, initialState } from './initial-state'
import {
  MARLOWE_LABEL,
  NFT_LABEL,
  marloweTagsMetadatum,
  nftMetadatum,
  transactionMetadataFromJson,
  type Metadatum
} from './metadata'
import { minAdaUpperBound } from './min-utxo'
import { planMint } from './mint'
import type { Planned, TxPlan } from './plan'
import { distributionOutputs, setupRoles, type RolesSetup } from './roles'
import { checkContract, type SafetyError } from './safety'
import { scriptAddress } from './scripts'
import { parseStakeAddress } from './stake'
import type { CreateBuild, CreateRequest, InitialAccount, WalletRequest } from './types'
import { sumValues, tokenValue } from './values'
import { checkAddress, loadWallet, type Wallet } from './wallet'

interface CreateInfo {
  readonly datum: MarloweData
  readonly datumBytes: Uint8Array
  readonly deposit: bigint
  readonly safetyErrors: readonly SafetyError[]
}

function checkAccounts(accounts: readonly InitialAccount[], mainnet: boolean): void {
  for (const a of accounts) {
    if (a.amount <= 0n) throw badRequest('Invalid initial accounts: every balance must be positive')
    if (a.party.type === 'Address') checkAddress(a.party.address, mainnet, 'initial accounts')
  }
}

function safetyAnalysisFailed(safetyErrors: readonly SafetyError[]): EngineError {
  return new EngineError('BadRequest', 'SafetyAnalysisFailed', 'The contract failed the safety analysis', {
    safetyErrors
  })
}

function metadataFor(request: CreateRequest, policyId: string, roles: RolesSetup): Map<bigint, Metadatum> {
  const metadata = transactionMetadataFromJson(request.metadata ?? {})
  const nft = roles.mint === undefined ? undefined : nftMetadatum(policyId, roles.metadata)
  if (nft !== undefined) metadata.set(NFT_LABEL, nft)
  const tags = marloweTagsMetadatum(request.tags ?? {})
  if (tags !== undefined) metadata.set(MARLOWE_LABEL, tags)
  return metadata
}

/** The initial datum and deposit, with Runtime's min-UTxO check (it depends on the thread token's policy). */
function initialDatum(
  ctx: BuildContext,
  wallet: Wallet,
  request: CreateRequest,
  rolesCurrency: string,
  threadToken?: Token
): { datum: MarloweData; deposit: bigint } {
  const { pp } = ctx
  const accounts = request.accounts ?? []
  const requested = request.minUTxODeposit ?? 0n
  const dummy = initialState(
    wallet.changeAddress,
    accounts,
    threadToken,
    creatorDeposit(pp, accounts, threadToken, requested)
  )
  const bound = minAdaUpperBound(pp, dummy, request.contract)
  if (bound === undefined) {
    throw engineFailure('Internal', 'ProtocolParamNoUTxOCostPerByte', 'The min-UTxO bound could not be computed')
  }
  const minAda = request.minUTxODeposit ?? bound
  if (minAda < bound) throw insufficientMinAdaDeposit(bound, minAda)
  const deposit = creatorDeposit(pp, accounts, threadToken, minAda)
  const state = initialState(wallet.changeAddress, accounts, threadToken, deposit)
  return { datum: { params: { rolesCurrency }, state, contract: request.contract }, deposit }
}

export async function buildCreate(
  ctx: BuildContext,
  walletRequest: WalletRequest,
  request: CreateRequest
): Promise<CreateBuild> {
  const { mainnet } = ctx
  const wallet = await loadWallet(ctx.provider, walletRequest)
  const current = ctx.scripts[0]
  const stake = request.stakeAddress === undefined ? undefined : parseStakeAddress(request.stakeAddress, mainnet)
  const marloweAddress = scriptAddress(mainnet, current.semantics.hash, stake)
  const openRoleAddress = scriptAddress(mainnet, current.openRole.hash)
  const accounts = request.accounts ?? []
  checkAccounts(accounts, mainnet)
  if (request.minUTxODeposit !== undefined && request.minUTxODeposit < 0n) {
    throw badRequest('Invalid minUTxODeposit: it must not be negative')
  }
  const roles = setupRoles(request.roles, request.threadTokenName ?? '', mainnet)
  const continuations = new Set(request.continuations?.keys() ?? [])

  // The plan runs again when a concurrent build takes its inputs: the costs are evaluated once per roles currency.
  const costChecks = new Map<string, Promise<SafetyError[]>>()

  const plan = async (available: readonly Utxo[]): Promise<Planned<CreateInfo>> => {
    const minted = roles.mint === undefined ? undefined : planMint(ctx, roles.mint, available)
    const rolesCurrency = minted?.mint.policyId ?? roles.policyId ?? ''
    const threadToken =
      roles.threadTokenName === undefined
        ? undefined
        : { currencySymbol: rolesCurrency, tokenName: roles.threadTokenName }
    const { datum, deposit } = initialDatum(ctx, wallet, request, rolesCurrency, threadToken)
    const { state, contract } = datum
    const cached = costChecks.get(rolesCurrency)
    const preparation = await prepareCostCheck(ctx, current, marloweAddress, rolesCurrency, wallet.changeAddress)
    // The cost check's transactions are built with the simulation, in its task, unless this plan's were already.
    const costSetup = cached === undefined && 'setup' in preparation ? { costs: preparation.setup } : {}
    // A contract the engine cannot evaluate on some path could never be acted on through it there: refused.
    const { simulation, candidates } = await evaluatingOffThread(() =>
      simulateOffThread({ pp: ctx.pp, datum, marloweAddress, ...costSetup })
    )
    const found = [
      ...checkContract({ mainnet, rolesCurrency, state, contract, roles: roles.check, continuations }),
      ...simulation.errors
    ]
    // Runtime refuses any safety error, fatal or not, once the creator funds initial accounts; such a create is
    // refused before its costs are evaluated.
    const funded = accounts.length > 0
    if (funded && found.length > 0) throw safetyAnalysisFailed(found)
    let costs = cached
    if (costs === undefined) {
      costs = checkTransactionCosts(ctx, preparation, simulation.costliest, candidates)
      costChecks.set(rolesCurrency, costs)
    }
    const safetyErrors = withCostErrors(found, await costs)
    // A cost not checked (stand-in scripts) is no finding of Runtime's: it does not refuse the create.
    if (funded && !safetyErrors.every(isCostNotChecked)) throw safetyAnalysisFailed(safetyErrors)
    const datumBytes = encodeMarloweData(datum)
    const assets = sumValues(state.accounts.map(([k, amount]) => tokenValue(k.token, amount)))
    const txPlan: TxPlan = {
      scriptSpends: [],
      walletSpends: minted === undefined ? [] : [minted.seed],
      outputs: [
        { address: marloweAddress, value: assets, datum: datumBytes },
        ...distributionOutputs(ctx.pp, roles, rolesCurrency, openRoleAddress)
      ],
      ...(minted === undefined ? {} : { mints: [minted.mint] }),
      requiredSigners: [],
      metadata: metadataFor(request, rolesCurrency, roles)
    }
    return { plan: txPlan, info: { datum, datumBytes, deposit, safetyErrors } }
  }

  const built = await balanceAndBuild(ctx.balance, wallet, plan)
  const { datum, datumBytes, deposit, safetyErrors } = built.info
  return {
    ...builtTxFields(built),
    contractId: { txId: built.txId, index: 0 },
    datum,
    datumBytes,
    rolesCurrency: datum.params.rolesCurrency,
    marloweAddress,
    payoutAddress: scriptAddress(mainnet, current.payout.hash),
    assets: built.plan.outputs[0]!.value,
    minUTxODeposit: deposit,
    safetyErrors
  }
}
