/**
 * `MarloweTxBuilder`: builds exactly what Marlowe Runtime builds — create, apply-inputs and withdraw
 * transactions — against any `ChainProvider`, with inputs reserved so concurrent builds never share one.
 */
import { deploymentOf } from '../../chain/deployments'
import type { NetworkName } from '../../chain/provider'
import { buildApplyInputs } from './apply'
import { buildBurn } from './burn'
import type { BuildContext } from './context'
import { buildCreate } from './create'
import { ReferenceScripts } from './scripts'
import type {
  ApplyBuild,
  ApplyRequest,
  BuilderOptions,
  BurnBuild,
  BurnRequest,
  CreateBuild,
  CreateRequest,
  WalletRequest,
  WithdrawBuild,
  WithdrawRequest
} from './types'
import { buildWithdraw } from './withdraw'

const DEFAULT_TTL_MS = 30 * 60 * 1000

/** Spreads concurrent builds over a wallet's coins; no one gains by predicting it, so Math.random serves. */
const pickAtRandom = (count: number): number => Math.floor(Math.random() * count)

/** 3k/f slots: how far ahead a node can convert times (k = 2160 on mainnet and preprod, 432 on preview). */
const SAFE_ZONE_SLOTS: Readonly<Record<NetworkName, bigint>> = {
  mainnet: 129_600n,
  preprod: 129_600n,
  preview: 25_920n,
  sandbox: 129_600n
}

export class MarloweTxBuilder {
  private readonly refScripts: ReferenceScripts

  constructor(private readonly options: BuilderOptions) {
    this.refScripts = new ReferenceScripts(options.provider)
  }

  /** Builds the creation tx (POST /contracts). */
  async create(wallet: WalletRequest, request: CreateRequest): Promise<CreateBuild> {
    return buildCreate(await this.context(), wallet, request)
  }

  /** Builds an apply-inputs tx (POST /contracts/{id}/transactions). */
  async applyInputs(wallet: WalletRequest, request: ApplyRequest): Promise<ApplyBuild> {
    return buildApplyInputs(await this.context(), wallet, request)
  }

  /** Builds a withdrawal tx (POST /withdrawals). */
  async withdraw(wallet: WalletRequest, request: WithdrawRequest): Promise<WithdrawBuild> {
    return buildWithdraw(await this.context(), wallet, request)
  }

  /** Builds a role-token burn (POST /role-tokens/burnTxs). */
  async burn(wallet: WalletRequest, request: BurnRequest): Promise<BurnBuild> {
    return buildBurn(await this.context(), wallet, request)
  }

  /** Frees a build's inputs: on submit, or when its unsigned tx is abandoned. */
  release(reservationKey: string): Promise<void> {
    return this.options.reservations.release(reservationKey)
  }

  private async context(): Promise<BuildContext> {
    const o = this.options
    const provider = o.provider
    const pp = await provider.protocolParameters()
    return {
      provider,
      mainnet: provider.networkId === 1,
      pp,
      scripts: o.scripts ?? [deploymentOf(provider)],
      refScripts: this.refScripts,
      balance: {
        provider,
        pp,
        reservations: o.reservations,
        now: o.now ?? Date.now,
        ttlMs: o.reservationTtlMs ?? DEFAULT_TTL_MS,
        pickAmongEqual: o.pickAmongEqual ?? pickAtRandom
      },
      safeZoneSlots: o.safeZoneSlots ?? SAFE_ZONE_SLOTS[provider.network]
    }
  }
}
