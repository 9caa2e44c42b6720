/**
 * The sync engine: the upstream connection, the live follower and backfill over the stored chain,
 * and the status they report together.
 */
import type { GetStateProofResponse, GetSyncStatusResponse, ManifestDetails } from '@ledger-node/contracts';
import type { Logger } from '@ledger-node/telemetry';
import { Backfill } from './backfill/backfill';
import { earliestContiguousLedger, parseCompleteLedgers } from './backfill/ranges';
import type { SyncConfig } from './config';
import { LiveFollower } from './follow/live-follower';
import type { LedgerPipeline } from './pipeline';
import type { LedgerStorePort, StoreRangesPort } from './store/ledger-store';
import { StoreRangeFollower } from './store/range-follower';
import { StateDownloader, type StateStorePort } from './state/download';
import { StateProver, type StateProverStore } from './state/state-prover';
import { ChainCheck } from './store/chain-check';
import { StoredChain } from './store/stored-chain';
import { SyncHealth, type IndexFailure } from './sync-health';
import { sleep } from '@ledger-node/upstream';
import { Upstream, type ValidatedLedgerAnnouncement } from './upstream/upstream';
import { Refusals } from './refusals';
import { IngestCounts } from './ingest';
import { followedManifest } from './trust/manifest-lookup';
import { NegativeUnlSource } from './trust/negative-unl';
import { ValidatorLists } from './trust/validator-lists';
import { AnchorProof } from './verify/anchor-proof';
import { VerificationCounter } from './verify/verified-fetch';

function indexFailureText(failure: IndexFailure | undefined): string | undefined {
  if (failure === undefined) return undefined;
  const what = failure.transactionHash === undefined ? 'state changes' : `transaction ${failure.transactionHash}`;
  return `ledger ${failure.ledgerIndex}, ${what}: ${failure.reason}`;
}

export class SyncEngine {
  private readonly chain: StoredChain;
  private readonly storeRanges: StoreRangeFollower;
  private readonly upstream: Upstream;
  private readonly follower: LiveFollower;
  private readonly backfill: Backfill;
  private readonly stateDownload: StateDownloader;
  private readonly stateProver: StateProver;
  private readonly failures: VerificationCounter;
  private readonly anchorProof: AnchorProof;
  private readonly lists: ValidatorLists;
  private readonly chainCheck: ChainCheck;
  /** The highest validated ledger the current subscription announced (a new subscription starts again: an upstream can fall behind). */
  private upstreamTip = { source: '', ledgerIndex: 0 };
  private readonly refusals = new Refusals();
  /** Ledgers stored, live and backfilled apart: the summary line's rates and the metric. */
  readonly ingest = new IngestCounts();
  readonly health: SyncHealth;
  private readonly abort = new AbortController();
  private starting: Promise<void> | undefined;
  private loaded = false;
  /** The upstream's oldest ledger reachable without a hole, from server_info / the ledger stream. */
  private upstreamEarliest: number | undefined;
  /** The removed ledger the store last set the account state aside with. */
  private stateSetAsideWith: number | undefined;
  /** Stored tip when the current catch-up began; undefined while level with the upstream. */
  private catchUpFrom: number | undefined;

  constructor(
    private readonly config: SyncConfig,
    store: LedgerStorePort & StateStorePort & StateProverStore & StoreRangesPort,
    private readonly logger: Logger,
  ) {
    this.health = new SyncHealth(logger, this.refusals);
    this.chain = new StoredChain(store, this.health, (ledgerIndex) => this.stateSetAside(ledgerIndex));
    this.storeRanges = new StoreRangeFollower({ store, chain: this.chain, logger, onResynced: () => this.backfill.wake() });
    this.failures = new VerificationCounter(logger, this.refusals);
    this.upstream = new Upstream({
      endpoints: config.endpoints.urls,
      connectUrl: config.endpoints.connectUrl,
      networkId: config.networkId,
      logger,
      onValidatedLedger: (announcement) => this.onValidatedLedger(announcement),
      onValidation: (validation) => this.anchorProof.onValidation(validation),
      onSubscribed: () => void this.chainCheck.onSubscribed().catch((error: unknown) => this.logger.debug({ err: error }, 'the chain check at subscription failed')),
      onMalformed: () => this.refusals.count('malformed_message'),
    });
    this.lists = new ValidatorLists({ config: config.trust, logger });
    this.chainCheck = new ChainCheck({
      chain: this.chain,
      health: this.health,
      logger,
      identity: () => store.chainIdentity?.() ?? Promise.resolve(undefined),
      upstreamHash: (ledgerIndex) => this.upstream.validatedHash(ledgerIndex),
    });
    const negativeUnl = new NegativeUnlSource({
      profile: config.profile,
      stateAfter: (ledgerIndex) => this.stateProver.stateAfter(ledgerIndex),
      ledgerEntry: (objectKey, ledgerHash) => this.upstream.ledgerEntry(objectKey, ledgerHash),
    });
    this.anchorProof = new AnchorProof({
      profile: config.profile,
      logger,
      lists: this.lists,
      endpoints: config.endpoints.urls,
      ledgerHashFrom: (url, ledgerIndex) => this.upstream.ledgerHashFrom(url, ledgerIndex),
      fetchManifest: (nodePublicKey) => this.upstream.manifest(nodePublicKey),
      negativeUnl: (ledgerIndex, parentHash) => negativeUnl.read(ledgerIndex, parentHash),
      onRefused: (reason) => this.refusals.count(reason),
    });
    const pipeline: LedgerPipeline = {
      fetcher: this.upstream,
      chain: this.chain,
      profile: config.profile,
      logger,
      failures: this.failures,
      health: this.health,
      ingest: this.ingest,
    };
    this.stateProver = new StateProver({
      store,
      reader: this.upstream,
      chain: this.chain,
      profile: config.profile,
      logger,
      refusals: this.refusals,
      proofWindow: config.proofWindow,
    });
    this.follower = new LiveFollower({
      ...pipeline,
      anchorProof: this.anchorProof,
      stateProver: this.stateProver,
      refusals: this.refusals,
      onUnprovable: (count, source) => this.upstream.distrust(source, `${count} ledgers it announced in a row could not be proven the network's`),
      onAnchored: (_ledgerIndex, previousTip) => {
        if (previousTip !== undefined) this.catchUpFrom ??= previousTip;
        this.backfill.wake();
      },
    });
    this.backfill = new Backfill({
      ...pipeline,
      threadCount: config.threadCount,
      refusals: this.refusals,
      startLedger: () => config.startLedger ?? this.upstreamEarliest,
      paused: () => this.health.contradiction !== undefined,
      ledgerHistory: config.ledgerHistory,
      onNotFound: () => void this.refreshUpstreamEarliest(),
    });
    this.stateDownload = new StateDownloader({
      store,
      onRootMismatch: () => this.refusals.count('state_root_mismatch'),
      reader: this.upstream,
      profile: config.profile,
      logger,
      currentLedger: () => this.chain.tip,
      pageSize: config.stateDownloadPageSize,
      onComplete: () => this.stateProver.wake(),
    });
  }

  /** Loads the stored ranges (waiting for the store), then connects upstream and starts following and backfilling. */
  start(): void {
    this.starting ??= (async () => {
      await this.chain.load();
      this.loaded = true;
      this.logger.info({ completeRanges: this.chain.ranges.toArray(), endpoints: this.config.endpoints.urls }, 'stored ranges loaded; connecting upstream');
      this.lists.start();
      // The store owns which ledgers it holds: what it removes (bounded history, say) leaves sync's ranges as it says so.
      this.storeRanges.start();
      this.upstream.start();
      this.backfill.start();
      this.stateDownload.start();
      this.stateProver.start();
      await this.refreshUpstreamEarliest();
    })().catch((error: unknown) => {
      if (!this.abort.signal.aborted) this.logger.fatal({ err: error }, `sync could not start: ${(error as Error).message}`);
      throw error;
    });
    this.starting.catch(() => undefined);
  }

  /** The store set the account state aside with a removed ledger: it is downloaded again at a proven ledger and proven from there. */
  private stateSetAside(ledgerIndex: number): void {
    this.stateSetAsideWith = ledgerIndex;
    this.refusals.count('state_set_aside');
    this.logger.error(
      { ledgerIndex },
      `the account state stored with ledger ${ledgerIndex}, which the network contradicts, was set aside with it: it is downloaded again at a proven ledger and proven from there`,
    );
    this.stateProver.setAside();
    this.stateDownload.restart();
  }

  async stop(): Promise<void> {
    this.abort.abort();
    this.storeRanges.stop();
    // The upstream stops first: a start-up or a fetch still waiting for it to connect ends with it.
    await Promise.all([this.upstream.stop(), this.lists.stop(), Promise.allSettled([this.starting])]);
    await Promise.all([this.follower.stop(), this.backfill.stop(), this.stateDownload.stop(), this.stateProver.stop()]);
  }

  private onValidatedLedger(announcement: ValidatedLedgerAnnouncement): void {
    const sameSubscription = announcement.source === this.upstreamTip.source;
    this.upstreamTip = { source: announcement.source, ledgerIndex: sameSubscription ? Math.max(this.upstreamTip.ledgerIndex, announcement.ledgerIndex) : announcement.ledgerIndex };
    if (announcement.validatedLedgers !== undefined && this.config.startLedger === undefined) {
      this.setUpstreamEarliest(earliestContiguousLedger(parseCompleteLedgers(announcement.validatedLedgers), announcement.ledgerIndex));
    }
    // A ledger is followed only from an upstream whose chain is the stored one.
    void this.chainCheck.verdict(announcement).then(
      (verdict) => {
        if (verdict !== 'ignore') this.follower.announce(announcement, verdict === 'contest');
      },
      (error: unknown) => this.logger.debug({ err: error }, 'the chain check of an announcement failed'),
    );
  }

  private setUpstreamEarliest(earliest: number | undefined): void {
    if (earliest === undefined || earliest === this.upstreamEarliest) return;
    const first = this.upstreamEarliest === undefined;
    this.upstreamEarliest = earliest;
    if (first) this.logger.info({ startLedger: earliest }, `backfilling down to the upstream's earliest ledger ${earliest}`);
    this.backfill.wake();
  }

  private async refreshUpstreamEarliest(): Promise<void> {
    if (this.config.startLedger !== undefined) return;
    for (let attempt = 0; !this.abort.signal.aborted; attempt++) {
      try {
        const { info } = await this.upstream.serverInfo();
        const validated = info.validated_ledger?.seq ?? Number.MAX_SAFE_INTEGER;
        this.setUpstreamEarliest(earliestContiguousLedger(parseCompleteLedgers(info.complete_ledgers), validated));
        return;
      } catch (error) {
        this.logger.debug({ err: error }, 'server_info failed; asking again');
        await sleep(Math.min(10_000, 500 * 2 ** attempt), this.abort.signal);
      }
    }
  }

  status(): GetSyncStatusResponse {
    const current = this.chain.tip ?? 0;
    const upstreamTip = this.upstreamTip.ledgerIndex;
    // The upstream's tip counts even when nothing of it is followed (another chain's).
    const highest = Math.max(this.follower.highestAnnounced, current, upstreamTip);
    // An upstream behind the store is no sign of being in sync: the ledgers between are lag too;
    // nor is an upstream of another chain at the stored tip's index.
    const behind = upstreamTip > 0 && upstreamTip < current ? current - upstreamTip : 0;
    const lag = Math.max(highest - current, behind, this.health.contradiction === undefined ? 0 : 1);
    // A catch-up lasts until the range holding the tip reaches back to where it began.
    if (this.catchUpFrom !== undefined && lag <= 1 && (this.chain.ranges.rangeOf(current)?.first ?? current) <= this.catchUpFrom) {
      this.catchUpFrom = undefined;
    }
    if (lag > 1 && this.catchUpFrom === undefined && this.loaded && this.chain.tip !== undefined) this.catchUpFrom = current;
    const remaining = this.backfill.remainingLedgers();
    const stalled = this.stateProver.stalled;
    const stateNotReady = !this.stateDownload.ready
      ? this.stateSetAsideWith !== undefined
        ? `the account state was set aside with stored ledger ${this.stateSetAsideWith}, which the network contradicts: it is downloaded again`
        : 'the account state download is not complete'
      : stalled && `state proofs stopped above ledger ${this.stateProver.provenRange?.last ?? this.chain.tip ?? 0}: ${stalled}`;
    return {
      syncing: lag > 1 || this.catchUpFrom !== undefined || this.health.contradiction !== undefined,
      startingLedgerIndex: this.catchUpFrom ?? current,
      currentLedgerIndex: current,
      highestLedgerIndex: highest,
      upstreamUrl: this.upstream.url,
      upstreamConnected: this.upstream.connected,
      lagLedgers: lag,
      // Apart: the tip's pace, and backfill's below it (0 as soon as it has nothing left).
      liveLedgersPerSecond: this.ingest.rates.live.ledgersPerSecond(),
      backfillLedgersPerSecond: remaining > 0 ? this.backfill.ledgersPerSecond() : 0,
      backfillRemainingLedgers: BigInt(remaining),
      backfillEtaSeconds: remaining > 0 ? this.backfill.etaSeconds(remaining) : undefined,
      verificationFailureCount: this.failures.count,
      completeRanges: this.chain.ranges.toArray(),
      stateReady: stateNotReady === undefined,
      stateNotReady,
      indexFailureCount: this.health.indexFailureCount,
      lastIndexFailure: indexFailureText(this.health.lastIndexFailure),
      stopped: this.health.stopText(),
      anchorProof: this.anchorProof.state,
      ...(this.lists.trust.configured ? { validatorList: this.lists.state() } : {}),
      verificationFailuresByReason: this.refusals.toRecord(),
    };
  }

  /**
   * The newest manifest followed for a validator key, master or signing (rippled `manifest`): from
   * the manifests of the lists in force and the upstream's. A rotated-out signing key names none.
   */
  manifest(publicKey: Uint8Array): ManifestDetails | undefined {
    return followedManifest(this.lists.trust, publicKey);
  }

  /** GetStateProof: entries of a recent ledger with their paths in its proven state tree. */
  stateProof(ledgerIndex: number | undefined, keys: readonly Buffer[]): Promise<GetStateProofResponse> {
    return this.stateProver.stateProof(ledgerIndex, keys);
  }
}
