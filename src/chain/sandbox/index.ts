/**
 * # The sandbox chain
 *
 * A local Conway ledger in the app's own process, for trying Marlowe contracts without a node or real funds:
 * `SandboxProvider` (network `'sandbox'`, network id 0) implements `ChainProvider` with the ledger rules of
 * @blaze-cardano/emulator 0.4.5 — signatures, inputs, fees, min-ADA, value conservation, collateral, validity
 * intervals and budgets, in its words (`rules.ts`) — applied to our own decoding of each transaction, and real
 * Plutus V1/V2/V3 evaluation by aiken's `uplc` (wasm). No transaction, output or datum is decoded through Blaze,
 * whose Plutus Data decoding takes seconds on a Marlowe datum; UTxOs are indexed by address and by reference.
 *
 * ## The Marlowe scripts here are stand-ins, unless it is given the validators
 * The real Marlowe validators are not available to this app, so the sandbox deploys **stand-in Plutus V2
 * scripts that always succeed**, one per role (semantics, payout, open-role; `stand-ins.ts`), as reference
 * scripts at genesis. On the sandbox, **Marlowe's rules are enforced by our engine before it builds a
 * transaction; the ledger enforces everything else.** A transaction that the real validator would reject can land
 * here. Role tokens are minted by the engine's own one-shot policy, as on every network, and evaluated for real.
 * Given a directory of validators (`SandboxOptions.validators`), the sandbox deploys those at the same reference
 * outputs instead, runs them for real, and its `deployment` names their hashes.
 *
 * ## Genesis (the same in every sandbox on the same Marlowe scripts)
 * | wallet | address (network 0) | genesis UTxOs |
 * |---|---|---|
 * | alice, bob, carol, dave | `SANDBOX_WALLETS[i].address` | 5,000 + 3,000 + 1,995 + 5 ada (the last is collateral-sized) |
 * | faucet | `SANDBOX_FAUCET.address` | 100,000,000 ada |
 * Mnemonics and keys are public test values (`wallets.ts`). Protocol parameters are the emulator's
 * mainnet-like defaults plus the Conway reference-script fee (`params.ts`).
 *
 * ## Ledger rules added to the emulator's
 * - one queue, and each accepted transaction is confirmed at once, so no two transactions can spend one UTxO;
 * - before the emulator's rules (`checks.ts`): network id of body and addresses, auxiliary data hash, script data
 *   hash, a redeemer for every Plutus-locked input and Plutus mint (also through reference scripts), no
 *   redeemer pointing at nothing, no Plutus V1/V2 input without a datum;
 * - an unsigned transaction is rejected with the ledger's words (the emulator crashed on it);
 * - a reference script is native or Plutus by its language (the emulator swapped them), and mint redeemers count
 *   policies in the ledger's sorted order;
 * - the Plutus evaluator's wasm is replaced every 200 evaluations, so its leak stays bounded (`evaluator.ts`).
 * Every refusal is a `ChainError('Rejected', reason)`; evaluation failures are `EvaluationFailed`.
 *
 * ## Time
 * Slot 0 starts at `zeroTime` (a new sandbox's creation time), one slot per second. The clock follows the wall
 * clock and can be moved ahead with `advanceTo(posixMs)` / `advanceSlots(n)`; it never goes back. Blocks are
 * made per transaction at the current slot, so several blocks can share a slot.
 *
 * ## Persistence
 * With a `dataDir`, every confirmed transaction and every jump of the clock is on disk before it is reported, and
 * the ledger is restored on `open`; an unusable state is refused, never overwritten. A small ledger is one state
 * file rewritten whole (`state-file.ts` describes it); a large one (past `logFromBytes`, 4 MiB) is a snapshot in
 * that file and a log of the changes since (`ledger-store.ts`, `ledger-log.ts`), so that saving costs the change
 * and loading the ledger's UTxOs, not its history: the log is compacted into a new one once it is mostly history.
 * Not saved: stake accounts, pools and governance state, which Marlowe does not use (transactions with
 * certificates, withdrawals, votes or proposals are refused).
 */
export { SandboxProvider, type SandboxOptions } from './sandbox-provider'
export {
  SANDBOX_WALLETS,
  SANDBOX_FAUCET,
  sandboxWallet,
  signWithSandboxWallets,
  type SandboxWallet,
  type SandboxWalletName
} from './wallets'
export { STAND_IN_VALIDATORS } from './stand-ins'
export { SANDBOX_REFERENCE_SCRIPTS, type ReferenceScriptOutput, sandboxDeployment } from './reference-scripts'
export {
  GENESIS_ID,
  GENESIS_OUTPUTS,
  sandboxGenesis,
  type SandboxGenesis,
  WALLET_GENESIS_LOVELACE,
  FAUCET_GENESIS_LOVELACE,
  type GenesisOutput
} from './genesis'
export { STATE_FILE_NAME } from './state-file'
export { type PlutusEvaluator, RecyclingEvaluator, type PlutusOutcome, type PlutusRequest } from './evaluator'
export { isAlive } from './dir-lock'
