/**
 * The one-time full state download (DESIGN §5): at the first ledger the node stores (the anchor),
 * page `ledger_data` (binary) from the upstream and store each page with the marker reached, so a
 * restart resumes there; the store stages the pages where no read sees them. Then recompute the
 * state tree root from the staged pages and mark the download complete (the store makes it
 * visible) only when it equals the header's account_hash; otherwise abandon it (the store removes
 * it whole) and download again at a newer ledger.
 */
import { StateTree, type ChainProfile, type LedgerHeader } from '@ledger-node/chain';
import type { PutStateObjectsRequest, StateDownload, StateObject } from '@ledger-node/contracts';
import { RetryLog, type Logger } from '@ledger-node/telemetry';
import { backoffDelayMs, sleep, UpstreamRequestError, type BinaryLedgerDataResult } from '@ledger-node/upstream';

export interface StateStorePort {
  stateDownload(): Promise<StateDownload>;
  putStateObjects(request: PutStateObjectsRequest): Promise<StateDownload>;
  listStateObjects(ledgerIndex: number, afterKey: Buffer, limit: number): Promise<{ objects: { key: Buffer; blob: Buffer }[]; nextAfterKey: Buffer }>;
  /** The stored header of a ledger; undefined when it is not stored. */
  header(ledgerIndex: number): Promise<{ ledgerHash: Buffer; header: LedgerHeader } | undefined>;
}

export interface StateDataReader {
  ledgerData(ledgerHash: string, marker: string | number | undefined, limit: number): Promise<BinaryLedgerDataResult>;
}

export interface StateDownloaderOptions {
  store: StateStorePort;
  reader: StateDataReader;
  profile: ChainProfile;
  logger: Logger;
  /** The ledger to download when none was started: the stored tip (the anchor, at first). */
  currentLedger(): number | undefined;
  /** Objects asked per ledger_data page (rippled serves at most 2048 in binary). */
  pageSize: number;
  /** A download whose root did not verify (it is abandoned). */
  onRootMismatch?(ledgerIndex: number): void;
  /** The download is complete: its state is the store's. */
  onComplete?(ledgerIndex: number): void;
  progressIntervalMs?: number;
}

/** Objects read back per ListStateObjects call. */
const LIST_PAGE = 4096;

/** The state tree of everything the store holds at the ledger (the download's staged pages before it is complete). */
export async function storedStateTree(store: Pick<StateStorePort, 'listStateObjects'>, ledgerIndex: number): Promise<StateTree> {
  const tree = new StateTree();
  let afterKey: Buffer = Buffer.alloc(0);
  do {
    const page = await store.listStateObjects(ledgerIndex, afterKey, LIST_PAGE);
    for (const object of page.objects) tree.set(object.key.toString('hex'), object.blob);
    afterKey = page.nextAfterKey;
  } while (afterKey.length > 0);
  return tree;
}

/** The upstream no longer serves the ledger being downloaded; the download moves to a newer one. */
class LedgerGone extends Error {}

export function encodeMarker(marker: string | number): Buffer {
  return Buffer.from(JSON.stringify(marker), 'utf8');
}

export function decodeMarker(bytes: Buffer): string | number | undefined {
  if (bytes.length === 0) return undefined;
  const marker: unknown = JSON.parse(bytes.toString('utf8'));
  if (typeof marker !== 'string' && typeof marker !== 'number') throw new Error('a stored ledger_data marker is neither a string nor a number');
  return marker;
}

export class StateDownloader {
  ready = false;
  private readonly abort = new AbortController();
  private running: Promise<void> | undefined;
  private readonly trustLineType: number;
  /** Ledgers whose download failed verification: the next attempt picks a newer one. */
  private failedLedger: number | undefined;

  constructor(private readonly options: StateDownloaderOptions) {
    this.trustLineType = options.profile.definitions.ledgerEntryType.from(options.profile.trustLineEntryType).ordinal;
  }

  start(): void {
    this.running ??= this.run().catch((error: unknown) => {
      if (!this.abort.signal.aborted) this.options.logger.error({ err: error }, `state download stopped: ${(error as Error).message}`);
    });
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await this.running;
  }

  /** The store set its state aside: download it again, at the current tip, once the run under way (if any) ends. */
  restart(): void {
    this.ready = false;
    this.failedLedger = undefined;
    const running = this.running;
    if (!running) return;
    void running.then(() => {
      if (this.running !== running || this.abort.signal.aborted) return;
      this.running = undefined;
      this.start();
    });
  }

  private async run(): Promise<void> {
    const retries = new RetryLog(this.options.logger, 'state download');
    for (let attempt = 0; !this.abort.signal.aborted; attempt++) {
      try {
        const complete = await this.downloadOnce();
        retries.succeeded();
        if (complete) {
          this.ready = true;
          this.options.onComplete?.((await this.options.store.stateDownload()).ledgerIndex);
          return;
        }
        attempt = -1;
      } catch (error) {
        if (this.abort.signal.aborted) return;
        const delayMs = backoffDelayMs(attempt, 500, 30_000);
        retries.failed(error, delayMs);
        await sleep(delayMs, this.abort.signal);
      }
    }
  }

  /** Runs or resumes the download; true once the state is complete and verified. */
  private async downloadOnce(): Promise<boolean> {
    const { store, logger } = this.options;
    const status = await store.stateDownload();
    if (status.complete) {
      logger.info({ ledgerIndex: status.ledgerIndex, objectCount: status.objectCount.toString() }, `account state is complete at ledger ${status.ledgerIndex}`);
      return true;
    }
    const ledgerIndex = status.ledgerIndex !== 0 && status.ledgerIndex !== this.failedLedger ? status.ledgerIndex : await this.newLedger();
    const stored = await this.storedHeader(ledgerIndex);
    const ledgerHash = stored.ledgerHash.toString('hex').toUpperCase();
    let marker = status.ledgerIndex === ledgerIndex ? decodeMarker(status.marker) : undefined;
    let objectCount = status.ledgerIndex === ledgerIndex ? status.objectCount : 0n;
    if (marker !== undefined) logger.info({ ledgerIndex, objectCount: objectCount.toString() }, `resuming the state download at ledger ${ledgerIndex} from its marker`);
    else logger.info({ ledgerIndex }, `downloading the account state at ledger ${ledgerIndex}`);

    const startedAtMs = Date.now();
    let pages = 0;
    let lastLogMs = startedAtMs;
    const interval = this.options.progressIntervalMs ?? 3_000;
    try {
      do {
        const page = await this.options.reader.ledgerData(ledgerHash, marker, this.options.pageSize).catch((error: unknown) => {
          if (error instanceof UpstreamRequestError && error.errorCode === 'lgrNotFound') throw new LedgerGone(`the upstream no longer holds ledger ${ledgerIndex}`);
          throw error;
        });
        if (page.ledger_index !== ledgerIndex) throw new Error(`ledger_data answered ledger ${page.ledger_index}, not ${ledgerIndex}`);
        marker = page.marker;
        const objects = page.state.map((entry) => this.stateObjectOf(entry.index, Buffer.from(entry.data, 'hex')));
        const progress = await store.putStateObjects({
          ledgerIndex,
          objects,
          marker: marker === undefined ? Buffer.alloc(0) : encodeMarker(marker),
          complete: false,
          abandon: false,
        });
        objectCount = progress.objectCount;
        pages++;
        logger.debug({ ledgerIndex, objectCount: objectCount.toString(), pages }, `stored state page ${pages} of ledger ${ledgerIndex}`);
        const nowMs = Date.now();
        if (nowMs - lastLogMs >= interval) {
          lastLogMs = nowMs;
          const pagesPerSecond = pages / ((nowMs - startedAtMs) / 1000);
          logger.info(
            { ledgerIndex, objectCount: objectCount.toString(), pagesPerSecond: Number(pagesPerSecond.toFixed(1)) },
            `state download at ledger ${ledgerIndex}: ${objectCount} objects, ${pagesPerSecond.toFixed(1)} pages/s`,
          );
        }
        if (this.abort.signal.aborted) return false;
      } while (marker !== undefined);
    } catch (error) {
      if (!(error instanceof LedgerGone)) throw error;
      logger.warn({ ledgerIndex }, `${error.message}; the state download starts again at a newer ledger`);
      this.failedLedger = ledgerIndex;
      return false;
    }

    const root = (await storedStateTree(store, ledgerIndex)).root().toUpperCase();
    const expected = stored.header.accountHash.toUpperCase();
    if (root !== expected) {
      logger.error(
        { ledgerIndex, expected, actual: root },
        `the state downloaded at ledger ${ledgerIndex} has root ${root}, not the header's account_hash ${expected}; downloading again at a newer ledger`,
      );
      this.options.onRootMismatch?.(ledgerIndex);
      // Nothing of it was visible; remove it whole now rather than when the next download starts.
      await store.putStateObjects({ ledgerIndex, objects: [], marker: Buffer.alloc(0), complete: false, abandon: true });
      this.failedLedger = ledgerIndex;
      return false;
    }
    await store.putStateObjects({ ledgerIndex, objects: [], marker: Buffer.alloc(0), complete: true, abandon: false });
    logger.info(
      { ledgerIndex, objectCount: objectCount.toString(), accountHash: root, seconds: Math.round((Date.now() - startedAtMs) / 1000) },
      `account state downloaded and verified at ledger ${ledgerIndex}: ${objectCount} objects, root ${root}`,
    );
    return true;
  }

  /** A stored ledger to download at: the current tip, newer than one that failed. */
  private async newLedger(): Promise<number> {
    for (;;) {
      const current = this.options.currentLedger();
      if (current !== undefined && (this.failedLedger === undefined || current > this.failedLedger)) return current;
      await sleep(500, this.abort.signal);
      if (this.abort.signal.aborted) throw new Error('stopping');
    }
  }

  private async storedHeader(ledgerIndex: number) {
    for (;;) {
      const stored = await this.options.store.header(ledgerIndex);
      if (stored) return stored;
      await sleep(500, this.abort.signal);
      if (this.abort.signal.aborted) throw new Error('stopping');
    }
  }

  private stateObjectOf(index: string, blob: Buffer): StateObject {
    // rippled serializes LedgerEntryType first: field code 0x11, then the type as a u16.
    const entryType = blob.length >= 3 && blob[0] === 0x11 ? blob.readUInt16BE(1) : undefined;
    const definitions = this.options.profile.definitions;
    const ledgerEntryType = entryType === undefined ? '' : (definitions.ledgerEntryType.from(String(entryType))?.name ?? '');
    const ownerAccountIds: Buffer[] = [];
    if (entryType === this.trustLineType) {
      const fields = this.options.profile.codec.decode(blob);
      for (const limit of [fields.LowLimit, fields.HighLimit]) {
        if (limit && typeof limit.issuer === 'string') ownerAccountIds.push(Buffer.from(this.options.profile.codec.decodeAccountId(limit.issuer)));
      }
    }
    return { key: Buffer.from(index, 'hex'), blob, ledgerEntryType, ownerAccountIds };
  }
}
