/**
 * The mainnet-shaped history (LEDGER_NODE_DEVNET_HISTORY=LEDGERSxTXS:mainnet[:SEED]): before the
 * devnet serves, gateways issuing several currencies, holders with trust lines to them, and ledgers
 * of varied sizes holding the mix of mainnet-shape.ts: native and issued payments (rippling
 * through a gateway, or through two gateways that trust each other), accounts created by payment,
 * trust lines created, changed and removed, AccountSet changes, Memos of varied sizes, and payments
 * that fail with a tec. Every transaction is signed and goes through the chain's submit path.
 * Everything is drawn from one seed, so two builds with the same seed hold the same transactions.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Logger } from '@ledger-node/telemetry';
import { AccountSetFlag, TrustSetFlag } from '../engine/protocol';
import type { ClosedLedger, JsonObject, SubmitResult } from '../engine/types';
import { HistoryProgress } from './history-progress';
import { historyShape, type HistoryShape } from './history-shape';
import { LoadAccounts, type LoadAccount, type WritableSource } from './load-accounts';
import { ACTION_WEIGHTS, BRIDGES, drawDomain, drawMemos, GATEWAYS, ledgerSizes, type ActionKind } from './mainnet-shape';
import { Draws, seededRandom } from './seeded-random';

export interface MainnetHistoryOptions {
  ledgers: number;
  /** Mean transactions per ledger; the history holds exactly `ledgers ×` this many. */
  meanTransactionsPerLedger: number;
  /** Holders funded at the start (more are created by payments along the way). */
  accountCount: number;
  seed: number;
  logger: Logger;
}

interface Issue {
  gateway: LoadAccount;
  currency: string;
}

/** A trust line from a holder to a gateway in one currency. */
interface Holding {
  holder: LoadAccount;
  issue: Issue;
}

/** A transaction to submit, and what to note once it succeeded. */
interface Planned {
  from: LoadAccount;
  fields: JsonObject;
  onSuccess?: () => void;
}

/** rippled's default for a transfer rate: no fee. */
const QUALITY_ONE = 1_000_000_000;
const ED25519_SHARE = 0.2;
/** Random holdings looked at before an action gives up and falls back to a native payment. */
const CANDIDATE_TRIES = 8;
const BRIDGE_LIMIT = '1000000000000';

const issueKey = (issue: Issue) => `${issue.currency}/${issue.gateway.address}`;
const holdingKey = (holder: LoadAccount, issue: Issue) => `${holder.address}:${issueKey(issue)}`;

/** An IOU value as the ledger takes it: six significant digits, plain decimal. */
function iouValue(value: number): string {
  return String(Number(Math.max(value, 1e-6).toPrecision(6)));
}

export class MainnetHistory {
  private readonly accounts: LoadAccounts;
  private readonly draws: Draws;
  private readonly gateways: LoadAccount[] = [];
  private readonly issues: Issue[] = [];
  /** Holders and the accounts created along the way. */
  private readonly people: LoadAccount[] = [];
  private readonly holdings: Holding[] = [];
  private readonly holdingsByIssue = new Map<string, Holding[]>();
  private readonly holdingKeys = new Set<string>();
  /** Times each kind was drawn (one that found nothing to act on fell back to a native payment). */
  private readonly drawn: Partial<Record<ActionKind, number>> = {};
  /** Transactions the engine did not apply (tem, tef, ter): none, unless a kind is drawn wrong. */
  private notApplied = 0;

  constructor(
    private readonly source: WritableSource,
    private readonly options: MainnetHistoryOptions,
  ) {
    this.accounts = new LoadAccounts(source, 'mainnet history');
    this.draws = new Draws(seededRandom(options.seed));
  }

  /** Sets up the gateways and holders (three ledgers), then builds the history's ledgers. */
  async build(): Promise<HistoryShape> {
    const { ledgers, meanTransactionsPerLedger, seed, logger } = this.options;
    this.fundAccounts();
    this.close();
    this.openTrustLines();
    this.close();
    this.issueOpeningBalances();
    this.close();
    const built: ClosedLedger[] = [];
    const progress = new HistoryProgress(logger, ledgers);
    for (const size of ledgerSizes(ledgers, meanTransactionsPerLedger, this.draws)) {
      this.fillLedger(size);
      built.push(this.close());
      progress.built(built.length);
      // Lets signals in between ledgers: a build takes minutes.
      await yieldToEventLoop();
    }
    const shape = historyShape(built);
    logger.info(
      {
        ...shape,
        shape: 'mainnet',
        seed,
        transactionsPerLedger: meanTransactionsPerLedger,
        lastLedgerIndex: built.at(-1)?.header.ledgerIndex,
        drawn: this.drawn,
        notApplied: this.notApplied,
      },
      'history built',
    );
    return shape;
  }

  private close(): ClosedLedger {
    return this.source.writer.acceptLedger();
  }

  private newAccount(): LoadAccount {
    const algorithm = this.draws.chance(ED25519_SHARE) ? 'ed25519' : 'secp256k1';
    return this.accounts.fromSecret(this.source.profile.keys.generateSeed({ algorithm, entropy: this.draws.bytes(16) }));
  }

  private units(amount: number): bigint {
    return BigInt(Math.round(amount)) * this.source.profile.dropsPerUnit;
  }

  // ---------------------------------------------------------------- set-up

  private fundAccounts(): void {
    const genesis = this.accounts.fromSecret(this.source.profile.genesis.secret);
    genesis.nextSequence = this.accounts.sequenceOf(genesis.address);
    this.gateways.push(...GATEWAYS.map(() => this.newAccount()));
    for (let count = 0; count < this.options.accountCount; count++) this.people.push(this.newAccount());
    for (const gateway of this.gateways) {
      this.accounts.submitSetup(genesis, { TransactionType: 'Payment', Destination: gateway.address, Amount: this.units(1_000_000).toString() });
    }
    // Holders from a few hundred native units to tens of thousands: some run dry, some are whales.
    for (const person of this.people) {
      const amount = this.units(this.draws.logUniform(300, 30_000));
      this.accounts.submitSetup(genesis, { TransactionType: 'Payment', Destination: person.address, Amount: amount.toString() });
    }
  }

  private openTrustLines(): void {
    for (const account of [...this.gateways, ...this.people]) account.nextSequence = this.accounts.sequenceOf(account.address);
    GATEWAYS.forEach((plan, position) => {
      const gateway = this.gateways[position]!;
      const fields: JsonObject = { TransactionType: 'AccountSet', SetFlag: AccountSetFlag.defaultRipple, Domain: Buffer.from(plan.domain).toString('hex').toUpperCase() };
      if (plan.transferRate !== undefined) fields.TransferRate = plan.transferRate;
      this.accounts.submitSetup(gateway, fields);
      for (const currency of plan.currencies) this.issues.push({ gateway, currency });
    });
    for (const bridge of BRIDGES) {
      const limit = { currency: bridge.currency, issuer: this.gateways[bridge.from]!.address, value: BRIDGE_LIMIT };
      this.accounts.submitSetup(this.gateways[bridge.to]!, { TransactionType: 'TrustSet', LimitAmount: limit });
    }
    for (const person of this.people) {
      const wanted = new Set(Array.from({ length: this.draws.integer(1, 3) }, () => this.draws.pick(this.issues)));
      for (const issue of wanted) {
        this.accounts.submitSetup(person, this.trustSetCreateFields(issue));
        this.addHolding({ holder: person, issue });
      }
    }
  }

  private issueOpeningBalances(): void {
    for (const holding of this.holdings) {
      if (this.draws.chance(0.15)) continue;
      const { gateway, currency } = holding.issue;
      const value = iouValue(this.draws.logUniform(100, 50_000));
      this.accounts.submitSetup(gateway, { TransactionType: 'Payment', Destination: holding.holder.address, Amount: { currency, issuer: gateway.address, value } });
    }
  }

  private addHolding(holding: Holding): void {
    this.holdings.push(holding);
    this.holdingKeys.add(holdingKey(holding.holder, holding.issue));
    const key = issueKey(holding.issue);
    this.holdingsByIssue.set(key, [...(this.holdingsByIssue.get(key) ?? []), holding]);
  }

  private removeHolding(holding: Holding): void {
    this.holdings.splice(this.holdings.indexOf(holding), 1);
    this.holdingKeys.delete(holdingKey(holding.holder, holding.issue));
    const key = issueKey(holding.issue);
    this.holdingsByIssue.set(key, this.holdingsByIssue.get(key)!.filter((other) => other !== holding));
  }

  // ---------------------------------------------------------------- the history's ledgers

  /** Submits until `size` transactions are in the open ledger (tes or tec). */
  private fillLedger(size: number): void {
    let applied = 0;
    for (let attempts = 0; applied < size && attempts < size * 2 + 10; attempts++) {
      const kind = this.draws.weighted(ACTION_WEIGHTS);
      this.drawn[kind] = (this.drawn[kind] ?? 0) + 1;
      const result = this.submit(this.plan(kind) ?? this.nativePayment() ?? this.plainAccountSet());
      if (result.applied) applied++;
      else this.notApplied++;
    }
  }

  private submit(planned: Planned): SubmitResult {
    const fields = { ...planned.fields };
    const memos = drawMemos(this.draws);
    if (memos !== undefined) fields.Memos = memos;
    if (this.draws.chance(0.1)) fields.SourceTag = this.draws.integer(1, 999_999);
    const result = this.accounts.submit(planned.from, fields);
    if (result.engineResult === 'tesSUCCESS') planned.onSuccess?.();
    return result;
  }

  private plan(kind: ActionKind): Planned | undefined {
    switch (kind) {
      case 'nativePayment':
        return this.nativePayment();
      case 'issuedPayment':
        return this.issuedPayment();
      case 'gatewayPayment':
        return this.draws.chance(0.6) ? this.gatewayIssues() : this.holderRedeems();
      case 'bridgedPayment':
        return this.bridgedPayment();
      case 'createAccount':
        return this.createAccount();
      case 'trustSetCreate':
        return this.trustSetCreate();
      case 'trustSetChange':
        return this.trustSetChange();
      case 'trustSetRemove':
        return this.trustSetRemove();
      case 'accountSet':
        return this.accountSet();
      case 'unfundedPayment':
        return this.unfundedPayment();
      case 'overdrawnIssuedPayment':
        return this.overdrawnIssuedPayment();
      case 'paymentWithoutLine':
        return this.paymentWithoutLine();
      case 'createBelowReserve':
        return this.createBelowReserve();
      case 'issuedToMissingAccount':
        return this.issuedToMissingAccount();
      case 'redundantTrustSet':
        return this.redundantTrustSet();
    }
  }

  /** Native drops an account can send while keeping its reserve and a margin for fees. */
  private spendableDrops(account: LoadAccount): bigint {
    const root = this.accounts.accountRoot(account.address);
    if (root === undefined) return 0n;
    const { reserveBase, reserveIncrement, baseFee } = this.source.fees;
    const reserve = reserveBase + BigInt(Number(root.OwnerCount ?? 0)) * reserveIncrement;
    return BigInt(root.Balance as string) - reserve - baseFee * 100n;
  }

  private otherPerson(than: LoadAccount): LoadAccount {
    let other = this.draws.pick(this.people);
    while (other === than) other = this.draws.pick(this.people);
    return other;
  }

  /** An address no account has: a fresh AccountID. */
  private missingAddress(): string {
    return this.source.profile.codec.encodeAccountId(this.draws.bytes(20));
  }

  private withDestinationTag(fields: JsonObject): JsonObject {
    return this.draws.chance(0.35) ? { ...fields, DestinationTag: this.draws.integer(1, 4_000_000_000) } : fields;
  }

  private nativePayment(): Planned | undefined {
    const from = this.draws.pick(this.people);
    const spendable = Number(this.spendableDrops(from));
    const dropsPerUnit = Number(this.source.profile.dropsPerUnit);
    if (spendable < dropsPerUnit) return undefined;
    const drops = Math.floor(this.draws.logUniform(dropsPerUnit / 100, Math.max(dropsPerUnit / 100, Math.min(spendable / 2, 5_000 * dropsPerUnit))));
    const to = this.otherPerson(from);
    return { from, fields: this.withDestinationTag({ TransactionType: 'Payment', Destination: to.address, Amount: String(drops) }) };
  }

  /** A random holding whose holder holds at least `least` of its currency, with that balance. */
  private fundedHolding(candidates: readonly Holding[], least = 0.01): { holding: Holding; balance: number; balanceText: string } | undefined {
    for (let tries = 0; tries < CANDIDATE_TRIES && candidates.length > 0; tries++) {
      const holding = this.draws.pick(candidates);
      const line = this.accounts.line(holding.holder.address, holding.issue.gateway.address, holding.issue.currency);
      if (line !== undefined && line.balance >= least) return { holding, balance: line.balance, balanceText: line.balanceText };
    }
    return undefined;
  }

  /** A random holding of `issue` other than `except`'s, with what its holder may still take. */
  private roomyHolding(issue: Issue, except: LoadAccount | undefined): { holding: Holding; room: number } | undefined {
    const candidates = this.holdingsByIssue.get(issueKey(issue)) ?? [];
    for (let tries = 0; tries < CANDIDATE_TRIES && candidates.length > 0; tries++) {
      const holding = this.draws.pick(candidates);
      if (holding.holder === except) continue;
      const line = this.accounts.line(holding.holder.address, issue.gateway.address, issue.currency);
      const room = line === undefined ? 0 : line.limit - line.balance;
      if (room >= 1) return { holding, room };
    }
    return undefined;
  }

  private transferRate(gateway: LoadAccount): number {
    const rate = Number(this.accounts.accountRoot(gateway.address)?.TransferRate ?? QUALITY_ONE);
    return rate === 0 ? QUALITY_ONE : rate;
  }

  /** SendMax covering the gateway's transfer fee with a little to spare, as wallets set it. */
  private sendMax(issue: Issue, value: number): JsonObject {
    return { currency: issue.currency, issuer: issue.gateway.address, value: iouValue((value * this.transferRate(issue.gateway) * 1.001) / QUALITY_ONE) };
  }

  /** Holder to holder in one gateway's currency, rippling through the gateway. */
  private issuedPayment(): Planned | undefined {
    const source = this.fundedHolding(this.holdings);
    if (source === undefined) return undefined;
    const { issue } = source.holding;
    const destination = this.roomyHolding(issue, source.holding.holder);
    if (destination === undefined) return undefined;
    const value = Math.min(source.balance * this.draws.logUniform(0.01, 0.5), destination.room * 0.5);
    const amount = { currency: issue.currency, issuer: issue.gateway.address, value: iouValue(value) };
    const fields: JsonObject = { TransactionType: 'Payment', Destination: destination.holding.holder.address, Amount: amount };
    if (this.transferRate(issue.gateway) !== QUALITY_ONE) fields.SendMax = this.sendMax(issue, value);
    return { from: source.holding.holder, fields: this.withDestinationTag(fields) };
  }

  private gatewayIssues(): Planned | undefined {
    const issue = this.draws.pick(this.issues);
    const destination = this.roomyHolding(issue, undefined);
    if (destination === undefined) return undefined;
    const value = Math.min(this.draws.logUniform(1, 50_000), destination.room * 0.5);
    return {
      from: issue.gateway,
      fields: { TransactionType: 'Payment', Destination: destination.holding.holder.address, Amount: { currency: issue.currency, issuer: issue.gateway.address, value: iouValue(value) } },
    };
  }

  /** A holder pays IOUs back to their gateway, a fifth of the time all of them (its line can then go). */
  private holderRedeems(): Planned | undefined {
    const source = this.fundedHolding(this.holdings);
    if (source === undefined) return undefined;
    const { issue, holder } = source.holding;
    const value = this.draws.chance(0.2) ? source.balanceText : iouValue(source.balance * this.draws.logUniform(0.05, 0.95));
    return { from: holder, fields: { TransactionType: 'Payment', Destination: issue.gateway.address, Amount: { currency: issue.currency, issuer: issue.gateway.address, value } } };
  }

  /** Paid in one gateway's IOUs, received in another's: source → gateway → gateway → destination. */
  private bridgedPayment(): Planned | undefined {
    const bridge = this.draws.pick(BRIDGES);
    const fromIssue = this.issues.find((issue) => issue.gateway === this.gateways[bridge.from] && issue.currency === bridge.currency)!;
    const toIssue = this.issues.find((issue) => issue.gateway === this.gateways[bridge.to] && issue.currency === bridge.currency)!;
    const source = this.fundedHolding(this.holdingsByIssue.get(issueKey(fromIssue)) ?? []);
    if (source === undefined) return undefined;
    const destination = this.roomyHolding(toIssue, source.holding.holder);
    if (destination === undefined) return undefined;
    const value = Math.min(source.balance * this.draws.logUniform(0.01, 0.3), destination.room * 0.5);
    return {
      from: source.holding.holder,
      fields: this.withDestinationTag({
        TransactionType: 'Payment',
        Destination: destination.holding.holder.address,
        Amount: { currency: toIssue.currency, issuer: toIssue.gateway.address, value: iouValue(value) },
        SendMax: this.sendMax(fromIssue, value),
      }),
    };
  }

  /** A native payment that creates its destination; the new account joins the history's accounts. */
  private createAccount(): Planned | undefined {
    const from = this.draws.pick(this.people);
    const amount = this.source.fees.reserveBase + this.units(this.draws.logUniform(2, 500));
    if (this.spendableDrops(from) < amount) return undefined;
    const created = this.newAccount();
    return {
      from,
      fields: { TransactionType: 'Payment', Destination: created.address, Amount: amount.toString() },
      onSuccess: () => {
        created.nextSequence = this.accounts.sequenceOf(created.address);
        this.people.push(created);
      },
    };
  }

  private trustSetCreateFields(issue: Issue): JsonObject {
    const fields: JsonObject = {
      TransactionType: 'TrustSet',
      LimitAmount: { currency: issue.currency, issuer: issue.gateway.address, value: iouValue(this.draws.logUniform(100_000, 1_000_000_000)) },
    };
    // Many wallets set NoRipple on the holder's side of a new line.
    if (this.draws.chance(0.5)) fields.Flags = TrustSetFlag.setNoRipple;
    return fields;
  }

  /** A random account and an issue it has no line to yet. */
  private lineToOpen(): { account: LoadAccount; issue: Issue } | undefined {
    for (let tries = 0; tries < CANDIDATE_TRIES; tries++) {
      const account = this.draws.pick(this.people);
      const issue = this.draws.pick(this.issues);
      if (!this.holdingKeys.has(holdingKey(account, issue))) return { account, issue };
    }
    return undefined;
  }

  private trustSetCreate(): Planned | undefined {
    const opening = this.lineToOpen();
    if (opening === undefined || this.spendableDrops(opening.account) < this.source.fees.reserveIncrement) return undefined;
    return {
      from: opening.account,
      fields: this.trustSetCreateFields(opening.issue),
      onSuccess: () => this.addHolding({ holder: opening.account, issue: opening.issue }),
    };
  }

  /** A new limit on an existing line, sometimes with qualities or NoRipple. */
  private trustSetChange(): Planned | undefined {
    if (this.holdings.length === 0) return undefined;
    const { holder, issue } = this.draws.pick(this.holdings);
    const balance = this.accounts.line(holder.address, issue.gateway.address, issue.currency)?.balance ?? 0;
    const limit = Math.max(balance * 1.2, this.draws.logUniform(10_000, 1_000_000_000));
    const fields: JsonObject = { TransactionType: 'TrustSet', LimitAmount: { currency: issue.currency, issuer: issue.gateway.address, value: iouValue(limit) } };
    if (this.draws.chance(0.15)) {
      fields.QualityIn = this.draws.integer(990_000_000, 1_010_000_000);
      fields.QualityOut = this.draws.integer(990_000_000, 1_010_000_000);
    }
    if (this.draws.chance(0.1)) fields.Flags = TrustSetFlag.setNoRipple;
    return { from: holder, fields };
  }

  /** A line back at zero is removed: limit 0, NoRipple and no qualities leave nothing to keep. */
  private trustSetRemove(): Planned | undefined {
    for (let tries = 0; tries < CANDIDATE_TRIES && this.holdings.length > 0; tries++) {
      const holding = this.draws.pick(this.holdings);
      const { holder, issue } = holding;
      if (this.accounts.line(holder.address, issue.gateway.address, issue.currency)?.balance !== 0) continue;
      return {
        from: holder,
        fields: {
          TransactionType: 'TrustSet',
          LimitAmount: { currency: issue.currency, issuer: issue.gateway.address, value: '0' },
          QualityIn: 0,
          QualityOut: 0,
          Flags: TrustSetFlag.setNoRipple,
        },
        onSuccess: () => {
          if (this.accounts.line(holder.address, issue.gateway.address, issue.currency) === undefined) this.removeHolding(holding);
        },
      };
    }
    return undefined;
  }

  private accountSet(): Planned {
    const change = this.draws.weighted({ domain: 35, emailHash: 15, messageKey: 10, disallowNative: 15, nothing: 15, transferRate: 10 });
    const from = this.draws.pick(this.people);
    switch (change) {
      case 'domain':
        return { from, fields: { TransactionType: 'AccountSet', Domain: this.draws.chance(0.1) ? '' : drawDomain(this.draws, Math.floor(this.draws.logUniform(6, 200))) } };
      case 'emailHash':
        return { from, fields: { TransactionType: 'AccountSet', EmailHash: this.draws.hex(16) } };
      case 'messageKey':
        return { from, fields: { TransactionType: 'AccountSet', MessageKey: `02${this.draws.hex(32)}` } };
      case 'disallowNative':
        return { from, fields: { TransactionType: 'AccountSet', [this.draws.chance(0.5) ? 'SetFlag' : 'ClearFlag']: AccountSetFlag.disallowNative } };
      case 'transferRate':
        return {
          from: this.draws.pick(this.gateways),
          fields: { TransactionType: 'AccountSet', TransferRate: this.draws.pick([QUALITY_ONE, 1_001_000_000, 1_002_000_000, 1_005_000_000]) },
        };
      case 'nothing':
        return this.plainAccountSet();
    }
  }

  /** An AccountSet that changes nothing but the sequence: always possible. */
  private plainAccountSet(): Planned {
    return { from: this.draws.pick(this.people), fields: { TransactionType: 'AccountSet' } };
  }

  // ---------------------------------------------------------------- meant to fail with a tec

  /** More native units than the sender has: tecUNFUNDED_PAYMENT. */
  private unfundedPayment(): Planned {
    const from = this.draws.pick(this.people);
    const drops = this.accounts.nativeBalance(from.address) + this.units(this.draws.logUniform(1, 1_000));
    return { from, fields: { TransactionType: 'Payment', Destination: this.otherPerson(from).address, Amount: drops.toString() } };
  }

  /** More IOUs than the sender holds: tecPATH_PARTIAL (tecPATH_DRY when it holds none). */
  private overdrawnIssuedPayment(): Planned | undefined {
    if (this.holdings.length === 0) return undefined;
    const { holder, issue } = this.draws.pick(this.holdings);
    const destination = this.roomyHolding(issue, holder);
    if (destination === undefined) return undefined;
    const balance = this.accounts.line(holder.address, issue.gateway.address, issue.currency)?.balance ?? 0;
    const value = balance + this.draws.logUniform(1, 1_000);
    return {
      from: holder,
      fields: { TransactionType: 'Payment', Destination: destination.holding.holder.address, Amount: { currency: issue.currency, issuer: issue.gateway.address, value: iouValue(value) } },
    };
  }

  /** IOUs to an account with no line to their gateway: tecPATH_DRY. */
  private paymentWithoutLine(): Planned | undefined {
    const source = this.fundedHolding(this.holdings);
    if (source === undefined) return undefined;
    const { issue, holder } = source.holding;
    const to = this.otherPerson(holder);
    if (this.holdingKeys.has(holdingKey(to, issue))) return undefined;
    const value = iouValue(source.balance * this.draws.logUniform(0.01, 0.5));
    return { from: holder, fields: { TransactionType: 'Payment', Destination: to.address, Amount: { currency: issue.currency, issuer: issue.gateway.address, value } } };
  }

  /** A new account funded below the base reserve: tecNO_DST_INSUF_XRP (the chain's native code). */
  private createBelowReserve(): Planned {
    const drops = BigInt(Math.max(1, Math.floor(this.draws.logUniform(1_000, Number(this.source.fees.reserveBase) * 0.9))));
    return { from: this.draws.pick(this.people), fields: { TransactionType: 'Payment', Destination: this.missingAddress(), Amount: drops.toString() } };
  }

  /** IOUs to an account that does not exist: tecNO_DST. */
  private issuedToMissingAccount(): Planned | undefined {
    const source = this.fundedHolding(this.holdings);
    if (source === undefined) return undefined;
    const { issue, holder } = source.holding;
    const amount = { currency: issue.currency, issuer: issue.gateway.address, value: iouValue(source.balance * 0.1) };
    return { from: holder, fields: { TransactionType: 'Payment', Destination: this.missingAddress(), Amount: amount } };
  }

  /** A zero limit for a line that does not exist: tecNO_LINE_REDUNDANT. */
  private redundantTrustSet(): Planned | undefined {
    const opening = this.lineToOpen();
    if (opening === undefined) return undefined;
    const { issue } = opening;
    return { from: opening.account, fields: { TransactionType: 'TrustSet', LimitAmount: { currency: issue.currency, issuer: issue.gateway.address, value: '0' } } };
  }
}
