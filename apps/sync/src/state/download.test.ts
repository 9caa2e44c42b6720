import { describe, expect, it } from 'vitest';
import { getProfile, stateEntryFromLedgerJson, type LedgerHeader } from '@ledger-node/chain';
import type { PutStateObjectsRequest, StateDownload } from '@ledger-node/contracts';
import { createLogger } from '@ledger-node/telemetry';
import { readFixture, waitUntil } from '@ledger-node/test-utils';
import type { BinaryLedgerDataResult } from '@ledger-node/upstream';
import { StateDownloader, type StateDataReader, type StateStorePort } from './download';

const xrpl = getProfile('xrpl');
const fixture = readFixture<{ ledger: Record<string, any> }>('xrpl/ledgers/mainnet/38129-full-state.json');
const entries = (fixture.ledger.accountState as Record<string, any>[]).map((entry) => stateEntryFromLedgerJson(entry, xrpl));

/** A store that keeps the download's pages staged, as ledger-store does, and records every request. */
class StagingStore implements StateStorePort {
  requests: PutStateObjectsRequest[] = [];
  staged = new Map<string, Buffer>();
  download: StateDownload = { ledgerIndex: 0, marker: Buffer.alloc(0), complete: false, objectCount: 0n };

  constructor(private readonly headers: Map<number, string>) {}

  async stateDownload() {
    return this.download;
  }

  async putStateObjects(request: PutStateObjectsRequest) {
    this.requests.push(request);
    if (request.abandon || request.ledgerIndex !== this.download.ledgerIndex) this.staged.clear();
    for (const object of request.objects) this.staged.set(object.key.toString('hex').toUpperCase(), object.blob);
    this.download = request.abandon
      ? { ledgerIndex: 0, marker: Buffer.alloc(0), complete: false, objectCount: 0n }
      : { ledgerIndex: request.ledgerIndex, marker: request.marker, complete: request.complete, objectCount: BigInt(this.staged.size) };
    return this.download;
  }

  async listStateObjects() {
    const objects = [...this.staged].sort(([a], [b]) => (a < b ? -1 : 1)).map(([key, blob]) => ({ key: Buffer.from(key, 'hex'), blob }));
    return { objects, nextAfterKey: Buffer.alloc(0) };
  }

  async header(ledgerIndex: number) {
    const accountHash = this.headers.get(ledgerIndex);
    return accountHash === undefined ? undefined : { ledgerHash: Buffer.alloc(32, ledgerIndex), header: { accountHash } as LedgerHeader };
  }
}

/** The object with its last byte changed. */
const forged = (blob: string) => blob.slice(0, -2) + (Number.parseInt(blob.slice(-2), 16) ^ 1).toString(16).padStart(2, '0').toUpperCase();

describe('StateDownloader', () => {
  it('abandons a download whose root is not the account_hash (a forged object) and downloads again at a newer ledger', { timeout: 30_000 }, async () => {
    // Ledgers 100 and 101 both commit to the fixture's state; at 100 the upstream forges one object.
    const store = new StagingStore(new Map([[100, fixture.ledger.account_hash], [101, fixture.ledger.account_hash]]));
    const reader: StateDataReader = {
      async ledgerData(ledgerHash): Promise<BinaryLedgerDataResult> {
        const ledgerIndex = ledgerHash === Buffer.alloc(32, 100).toString('hex').toUpperCase() ? 100 : 101;
        const state = entries.map(({ index, blob }, position) => ({ index, data: ledgerIndex === 100 && position === 7 ? forged(blob) : blob }));
        return { ledger_index: ledgerIndex, ledger_hash: ledgerHash, state } as BinaryLedgerDataResult;
      },
    };
    let current = 100;
    const downloader = new StateDownloader({ store, reader, profile: xrpl, logger: createLogger('sync', 'silent'), currentLedger: () => current, pageSize: 1000 });
    downloader.start();
    await waitUntil(async () => store.requests.some((request) => request.abandon) || undefined, 10_000, 'the forged download abandoned');
    expect(store.requests.find((request) => request.abandon)).toMatchObject({ ledgerIndex: 100, objects: [] });
    expect(store.requests.filter((request) => request.complete)).toEqual([]);
    current = 101;
    await waitUntil(async () => downloader.ready || undefined, 10_000, 'the download at 101 complete');
    await downloader.stop();
    expect(store.download).toMatchObject({ ledgerIndex: 101, complete: true });
    expect(store.requests.filter((request) => request.complete).map((request) => request.ledgerIndex)).toEqual([101]);
  });
});
