/**
 * One transaction against the open ledger, in rippled's order: local checks (signature),
 * preflight (the transaction alone), preclaim (sequence, LastLedgerSequence, fee, signing key,
 * then the type's own checks), apply. A tec result keeps only the fee and the sequence
 * (rippled `Transactor::reset`); tem/tef/tel/ter results leave the ledger untouched.
 */
import type { ChainSettings, RuleContext, TransactionRule } from './rules/context';
import { nativeBalance } from './rules/context';
import { accountSetRule } from './rules/accountSet';
import { offerCancelRule } from './rules/offerCancel';
import { offerCreateRule } from './rules/offerCreate';
import { paymentRule } from './rules/payment';
import { signerEntriesOf, signerListSetRule } from './rules/signerListSet';
import { trustSetRule } from './rules/trustSet';
import { isLegalAmount, parseAmount } from './amounts';
import type { MetadataWriter } from './metadata';
import { AccountRootFlag, UNIVERSAL_FLAGS } from './protocol';
import type { EngineResult, ResultCatalog, ResultToken } from './results';
import { Sandbox, type OpenLedgerState } from './state';
import { flagsOf } from './trustLines';
import type { JsonObject } from './types';

const RULES: Record<string, TransactionRule> = {
  Payment: paymentRule,
  TrustSet: trustSetRule,
  AccountSet: accountSetRule,
  SignerListSet: signerListSetRule,
  OfferCreate: offerCreateRule,
  OfferCancel: offerCancelRule,
};

export interface Candidate {
  txJson: JsonObject;
  txHash: string;
}

export interface ApplyOutcome {
  result: EngineResult;
  /** True when the transaction is now part of the open ledger (tes and tec). */
  applied: boolean;
  /** Metadata as serialized (present when applied). */
  meta?: JsonObject;
  /** Native drops taken as the fee (present when applied); they leave the total supply. */
  feeCharged?: bigint;
}

export interface ApplyTarget {
  state: OpenLedgerState;
  ledgerIndex: number;
  /** Close time of the open ledger's parent (rippled `parentCloseTime`), against which expirations are judged. */
  parentCloseTime: number;
  /** Position the transaction takes in the open ledger if applied. */
  transactionIndex: number;
  /** True when the exact transaction is already in the open ledger. */
  alreadyApplied: (txHash: string) => boolean;
  /**
   * rippled simulate (tapDRY_RUN): an unsigned transaction (no SigningPubKey, no Signers) is not
   * asked who signed it; a signed one is checked as ever.
   */
  dryRun?: boolean;
}

export class TransactionProcessor {
  constructor(
    private readonly settings: ChainSettings,
    private readonly results: ResultCatalog,
    private readonly metadata: MetadataWriter,
  ) {}

  /** preflight: checks that need only the transaction (rippled `preflight1` + the type's). */
  preflight(tx: JsonObject): ResultToken {
    const rule = RULES[String(tx.TransactionType)];
    if (rule === undefined) return 'temUNKNOWN';
    const { keys } = this.settings;
    if (!keys.isValidAddress(tx.Account) || tx.Account === this.settings.zeroAccount) return 'temBAD_SRC_ACCOUNT';
    const fee = parseAmount(tx.Fee);
    if (fee === undefined || !fee.native || fee.drops < 0n || !isLegalAmount(fee)) return 'temBAD_FEE';
    if (typeof tx.Sequence !== 'number') return 'temMALFORMED';
    if (tx.TicketSequence !== undefined && tx.Sequence !== 0) return 'temSEQ_AND_TICKET';
    const flags = Number(tx.Flags ?? 0) >>> 0;
    if ((flags & ~(UNIVERSAL_FLAGS | rule.allowedFlags)) !== 0) return 'temINVALID_FLAG';
    return rule.preflight(tx, this.settings);
  }

  apply(candidate: Candidate, target: ApplyTarget): ApplyOutcome {
    const preflight = this.preflight(candidate.txJson);
    if (preflight !== 'tesSUCCESS') return this.notApplied(preflight);
    const tx = candidate.txJson;
    const rule = RULES[String(tx.TransactionType)]!;
    const context = this.contextFor(candidate, target, new Sandbox(target.state));
    const preclaim = this.preclaim(context, target) ?? rule.preclaim(context);
    if (preclaim !== 'tesSUCCESS') {
      const result = this.results.get(preclaim);
      // Only a tec found in preclaim is claimed; everything else leaves no trace.
      if (result.code < 100) return this.notApplied(preclaim);
      return this.claim(candidate, target, result);
    }

    const feeCharged = this.chargeFeeAndSequence(context);
    const token = rule.apply(context);
    const result = this.results.get(token);
    if (result.code === 0) return this.commit(context, target, result, feeCharged);
    if (result.code >= 100) return this.claim(candidate, target, result);
    return this.notApplied(token);
  }

  /** rippled `checkSeqProxy`, `checkPriorTxAndLastLedger`, `checkFee`, `checkSign`. */
  private preclaim(context: RuleContext, target: ApplyTarget): ResultToken | undefined {
    const { tx, sandbox, settings, account } = context;
    const root = sandbox.read(settings.keys.account(account));
    if (root === undefined) return 'terNO_ACCOUNT';
    const accountSequence = Number(root.Sequence);
    const sequence = tx.Sequence as number;
    if (tx.TicketSequence !== undefined && sequence === 0) {
      // No ticket can exist: TicketCreate is not supported, so a used-up number never comes back.
      return accountSequence <= Number(tx.TicketSequence) ? 'terPRE_TICKET' : 'tefNO_TICKET';
    }
    if (sequence > accountSequence) return 'terPRE_SEQ';
    if (sequence < accountSequence) return 'tefPAST_SEQ';
    if (tx.AccountTxnID !== undefined && root.AccountTxnID !== tx.AccountTxnID) return 'tefWRONG_PRIOR';
    if (typeof tx.LastLedgerSequence === 'number' && target.ledgerIndex > tx.LastLedgerSequence) return 'tefMAX_LEDGER';
    if (target.alreadyApplied(context.txHash)) return 'tefALREADY';

    const fee = BigInt(tx.Fee as string);
    const signers = Array.isArray(tx.Signers) ? (tx.Signers as JsonObject[]) : undefined;
    // The open ledger does not escalate fees: the reference fee is the minimum, once more per multi-signer.
    if (fee < settings.fees.baseFee * BigInt(1 + (signers?.length ?? 0))) return 'telINSUF_FEE_P';
    if (fee > 0n && nativeBalance(root) < fee) return 'terINSUF_FEE_B';

    if (signers !== undefined) return this.multiSignProblem(context, signers, target.dryRun === true);
    if (target.dryRun && (tx.SigningPubKey === undefined || tx.SigningPubKey === '')) return undefined;
    const signer = settings.profile.keys.deriveAddress(tx.SigningPubKey as string);
    if (signer === account) {
      if ((flagsOf(root) & AccountRootFlag.disableMaster) !== 0) return 'tefMASTER_DISABLED';
    } else if (root.RegularKey !== undefined) {
      if (signer !== root.RegularKey) return 'tefBAD_AUTH';
    } else {
      return 'tefBAD_AUTH_MASTER';
    }
    return undefined;
  }

  /**
   * rippled `Transactor::checkMultiSign`: every signer is on the account's signer list and signed
   * with its own master key (enabled; an account not in the ledger counts as such) or its regular
   * key, and their weights reach the list's quorum. The signatures themselves are local checks.
   */
  private multiSignProblem(context: RuleContext, signers: JsonObject[], dryRun: boolean): ResultToken | undefined {
    const { sandbox, settings, account } = context;
    const list = sandbox.read(settings.keys.signers(account));
    if (list === undefined) return 'tefNOT_MULTI_SIGNING';
    const weights = new Map((signerEntriesOf(list.SignerEntries) ?? []).map((entry) => [entry.account, entry.weight]));
    let weight = 0;
    for (const wrapped of signers) {
      const signer = wrapped.Signer as JsonObject;
      const signerAccount = signer.Account as string;
      const listed = weights.get(signerAccount);
      if (listed === undefined) return 'tefBAD_SIGNATURE';
      // A dry run's signer that names no key is not asked which key it holds (rippled simulate).
      if (dryRun && (signer.SigningPubKey === undefined || signer.SigningPubKey === '')) {
        weight += listed;
        continue;
      }
      let keyAccount: string;
      try {
        keyAccount = settings.profile.keys.deriveAddress(signer.SigningPubKey as string);
      } catch {
        return 'tefBAD_SIGNATURE';
      }
      const signerRoot = sandbox.read(settings.keys.account(signerAccount));
      if (keyAccount === signerAccount) {
        if (signerRoot !== undefined && (flagsOf(signerRoot) & AccountRootFlag.disableMaster) !== 0) return 'tefMASTER_DISABLED';
      } else {
        if (signerRoot === undefined) return 'tefBAD_SIGNATURE';
        if (signerRoot.RegularKey === undefined) return 'tefBAD_SIGNATURE';
        if (signerRoot.RegularKey !== keyAccount) return 'tefBAD_SIGNATURE';
      }
      weight += listed;
    }
    return weight < Number(list.SignerQuorum) ? 'tefBAD_QUORUM' : undefined;
  }

  private contextFor(candidate: Candidate, target: ApplyTarget, sandbox: Sandbox): RuleContext {
    return {
      settings: this.settings,
      tx: candidate.txJson,
      txHash: candidate.txHash,
      account: candidate.txJson.Account as string,
      ledgerIndex: target.ledgerIndex,
      parentCloseTime: target.parentCloseTime,
      sandbox,
      scope: { sandbox, keys: this.settings.keys, trustLineType: this.settings.trustLineType, noAccount: this.settings.noAccount },
      priorBalance: 0n,
      sourceBalance: 0n,
    };
  }

  /** rippled `Transactor::apply`: consume the sequence, charge the fee, track AccountTxnID. */
  private chargeFeeAndSequence(context: RuleContext): bigint {
    const { sandbox, settings, tx, account } = context;
    const index = settings.keys.account(account);
    const root = sandbox.peek(index)!;
    const fee = BigInt(tx.Fee as string);
    context.priorBalance = nativeBalance(root);
    // A fee larger than the balance takes what there is (rippled `reset`); preclaim prevents it here.
    const charged = fee > context.priorBalance ? context.priorBalance : fee;
    context.sourceBalance = context.priorBalance - charged;
    root.Balance = context.sourceBalance.toString();
    if (tx.TicketSequence === undefined) root.Sequence = Number(root.Sequence) + 1;
    if (root.AccountTxnID !== undefined) root.AccountTxnID = context.txHash;
    sandbox.update(index, root);
    return charged;
  }

  /** A tec result: a fresh sandbox where only the fee and the sequence change. */
  private claim(candidate: Candidate, target: ApplyTarget, result: EngineResult): ApplyOutcome {
    const context = this.contextFor(candidate, target, new Sandbox(target.state));
    const feeCharged = this.chargeFeeAndSequence(context);
    return this.commit(context, target, result, feeCharged);
  }

  private commit(context: RuleContext, target: ApplyTarget, result: EngineResult, feeCharged: bigint): ApplyOutcome {
    const committed = this.metadata.commit(
      context.sandbox,
      {
        txHash: context.txHash,
        ledgerIndex: target.ledgerIndex,
        transactionIndex: target.transactionIndex,
        resultToken: result.token,
        deliveredAmount: result.code === 0 ? context.deliveredAmount : undefined,
      },
      (address) => this.settings.keys.account(address),
    );
    return { result, applied: true, meta: committed.meta, feeCharged };
  }

  private notApplied(token: ResultToken): ApplyOutcome {
    return { result: this.results.get(token), applied: false };
  }
}
