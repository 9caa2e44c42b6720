/**
 * Load generator (`-load TPS -load_accounts N`): funds N accounts from genesis, gives them trust
 * lines to one issuer that ripples (DefaultRipple), then submits random native and issued-currency
 * payments between them at a steady rate through the chain's submit path — the same engine call a
 * WebSocket `submit` makes — and logs a summary every few seconds.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { ChainProfile } from '@ledger-node/chain';
import type { Logger } from '@ledger-node/telemetry';
import type { HistoryPlan } from '../config';
import type { ClosedLedger } from '../engine/types';
import { HistoryProgress } from './history-progress';
import { historyShape, type HistoryShape } from './history-shape';
import { LoadAccounts, type LoadAccount, type WritableSource } from './load-accounts';
import { MainnetHistory } from './mainnet-history';

/** rippled AccountSet flag that lets holders of an issuer's currency pay each other through it. */
const asfDefaultRipple = 8;
const ISSUED_CURRENCY = 'USD';
const TRUST_LIMIT = '1000000000';
const ISSUED_FUNDING = '1000000';
/** Payments are submitted this often, a few at a time: a longer tick would hold the devnet's answers back while it submits a batch. */
const TICK_MS = 10;

export interface LoadGeneratorOptions {
  transactionsPerSecond: number;
  accountCount: number;
  logger: Logger;
  summaryIntervalMs?: number;
  /** Random source in [0, 1); replaceable for tests. */
  random?: () => number;
}

export interface LoadSummary {
  submitted: number;
  /** Count per engine result token. */
  results: Record<string, number>;
}

export class LoadGenerator {
  private readonly profile: ChainProfile;
  private readonly accounts: LoadAccounts;
  private readonly random: () => number;
  private readonly summaryIntervalMs: number;
  private holders: LoadAccount[] = [];
  private issuer: LoadAccount | undefined;
  private tickTimer: NodeJS.Timeout | undefined;
  private summaryTimer: NodeJS.Timeout | undefined;
  private stopped = false;
  private budget = 0;
  private lastTickAtMs = 0;
  private readonly totals: LoadSummary = { submitted: 0, results: {} };
  private window: LoadSummary = { submitted: 0, results: {} };
  private windowStartedAtMs = Date.now();

  constructor(
    private readonly source: WritableSource,
    private readonly options: LoadGeneratorOptions,
  ) {
    this.profile = source.profile;
    this.accounts = new LoadAccounts(source, 'load generator');
    this.random = options.random ?? Math.random;
    this.summaryIntervalMs = options.summaryIntervalMs ?? 5000;
  }

  /** Creates and funds the accounts (waiting for the ledgers that hold them), then starts the payments. */
  async start(): Promise<void> {
    if (!(await this.setUp(() => this.nextClose()))) return;
    this.lastTickAtMs = Date.now();
    this.windowStartedAtMs = this.lastTickAtMs;
    this.tickTimer = setInterval(() => this.tick(), TICK_MS);
    this.summaryTimer = setInterval(() => this.logSummary(), this.summaryIntervalMs);
  }

  /**
   * Builds a history before the devnet serves (LEDGER_NODE_DEVNET_HISTORY, for the benchmark).
   * Uniform: the same accounts, signatures and submit path as `start`, but `plan.ledgers` ledgers
   * of `plan.transactionsPerLedger` random payments each, every ledger closed as soon as it is
   * full. Mainnet-shaped (`plan.mainnet`): see MainnetHistory.
   */
  async prebuild(plan: HistoryPlan): Promise<HistoryShape> {
    if (plan.mainnet) {
      const mainnet = new MainnetHistory(this.source, {
        ledgers: plan.ledgers,
        meanTransactionsPerLedger: plan.transactionsPerLedger,
        accountCount: this.options.accountCount,
        seed: plan.mainnet.seed,
        logger: this.options.logger,
      });
      return mainnet.build();
    }
    const closeNow = async () => void this.source.writer.acceptLedger();
    const built: ClosedLedger[] = [];
    const progress = new HistoryProgress(this.options.logger, plan.ledgers);
    if (await this.setUp(closeNow)) {
      while (built.length < plan.ledgers && !this.stopped) {
        for (let submitted = 0; submitted < plan.transactionsPerLedger; submitted++) this.submitRandomPayment();
        built.push(this.source.writer.acceptLedger());
        progress.built(built.length);
        // Lets signals in between ledgers: a build takes minutes on a loaded machine.
        await yieldToEventLoop();
      }
    }
    const shape = historyShape(built);
    this.options.logger.info(
      { ...shape, shape: 'uniform', transactionsPerLedger: plan.transactionsPerLedger, results: this.totals.results, lastLedgerIndex: built.at(-1)?.header.ledgerIndex },
      'history built',
    );
    return shape;
  }

  /** Funds the accounts and their trust lines, closing with `closeLedger`; false when stopped meanwhile. */
  private async setUp(closeLedger: () => Promise<unknown>): Promise<boolean> {
    const { logger } = this.options;
    const genesis = this.accounts.fromSecret(this.profile.genesis.secret);
    genesis.nextSequence = this.accounts.sequenceOf(genesis.address);
    this.issuer = this.newAccount();
    this.holders = Array.from({ length: this.options.accountCount }, () => this.newAccount());

    // Enough native units for the reserves of an account with one trust line, and plenty of payments.
    const fundingDrops = (this.profile.reserveBase + this.profile.reserveIncrement) * 10n + 10_000n * this.profile.dropsPerUnit;
    for (const account of [this.issuer, ...this.holders]) {
      this.accounts.submitSetup(genesis, { TransactionType: 'Payment', Destination: account.address, Amount: fundingDrops.toString() });
    }
    await closeLedger();
    if (this.stopped) return false;
    for (const account of [this.issuer, ...this.holders]) account.nextSequence = this.accounts.sequenceOf(account.address);

    this.accounts.submitSetup(this.issuer, { TransactionType: 'AccountSet', SetFlag: asfDefaultRipple });
    for (const holder of this.holders) {
      this.accounts.submitSetup(holder, {
        TransactionType: 'TrustSet',
        LimitAmount: { currency: ISSUED_CURRENCY, issuer: this.issuer.address, value: TRUST_LIMIT },
      });
    }
    await closeLedger();
    if (this.stopped) return false;
    for (const holder of this.holders) {
      this.accounts.submitSetup(this.issuer, {
        TransactionType: 'Payment',
        Destination: holder.address,
        Amount: { currency: ISSUED_CURRENCY, issuer: this.issuer.address, value: ISSUED_FUNDING },
      });
    }
    await closeLedger();
    if (this.stopped) return false;
    logger.info(
      { accounts: this.holders.length, issuer: this.issuer.address, currency: ISSUED_CURRENCY, tps: this.options.transactionsPerSecond },
      'load generator ready',
    );
    return true;
  }

  stop(): void {
    this.stopped = true;
    if (this.tickTimer) clearInterval(this.tickTimer);
    if (this.summaryTimer) clearInterval(this.summaryTimer);
  }

  summary(): LoadSummary {
    return { submitted: this.totals.submitted, results: { ...this.totals.results } };
  }

  private tick(): void {
    const nowMs = Date.now();
    this.budget += (this.options.transactionsPerSecond * (nowMs - this.lastTickAtMs)) / 1000;
    this.lastTickAtMs = nowMs;
    // Never try to catch up more than a second of missed ticks at once.
    this.budget = Math.min(this.budget, this.options.transactionsPerSecond);
    while (this.budget >= 1) {
      this.budget -= 1;
      this.submitRandomPayment();
    }
  }

  private submitRandomPayment(): void {
    const from = this.pick(this.holders);
    let to = this.pick(this.holders);
    while (to === from) to = this.pick(this.holders);
    const amount: unknown =
      this.random() < 0.5
        ? String(1 + Math.floor(this.random() * 1_000_000))
        : { currency: ISSUED_CURRENCY, issuer: this.issuer!.address, value: (1 + Math.floor(this.random() * 1000)) / 100 + '' };
    const result = this.accounts.submit(from, { TransactionType: 'Payment', Destination: to.address, Amount: amount });
    this.count(result.engineResult);
  }

  private pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.random() * list.length)]!;
  }

  private count(engineResult: string): void {
    for (const tally of [this.totals, this.window]) {
      tally.submitted += 1;
      tally.results[engineResult] = (tally.results[engineResult] ?? 0) + 1;
    }
  }

  private logSummary(): void {
    const nowMs = Date.now();
    const seconds = (nowMs - this.windowStartedAtMs) / 1000;
    this.options.logger.info(
      {
        submitted: this.window.submitted,
        tps: seconds > 0 ? Math.round((this.window.submitted / seconds) * 10) / 10 : 0,
        results: this.window.results,
        totalSubmitted: this.totals.submitted,
        validatedLedgerIndex: this.source.validatedLedger()?.header.ledgerIndex,
        pending: this.source.writer.pendingCount(),
      },
      'load summary',
    );
    this.window = { submitted: 0, results: {} };
    this.windowStartedAtMs = nowMs;
  }

  /** Ed25519 (signed and checked in OpenSSL): the load costs the devnet little beside the node it feeds, on the same cores. */
  private newAccount(): LoadAccount {
    return this.accounts.fromSecret(this.profile.keys.generateSeed({ algorithm: 'ed25519' }));
  }

  private nextClose(): Promise<ClosedLedger> {
    return new Promise((resolve) => {
      const stopFollowing = this.source.followLedgers((ledger) => {
        stopFollowing();
        resolve(ledger);
      });
    });
  }
}
