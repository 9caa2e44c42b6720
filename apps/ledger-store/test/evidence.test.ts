import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { TxDetail, type LedgerEvidence, type LedgerSelector, type LedgerWrite } from '@ledger-node/contracts';
import { InvalidParams, NotFound, type LedgerNodeError } from '@ledger-node/errors';
import { rejectionOf, startPostgres, tempDir, waitUntil, type RunningPostgres } from '@ledger-node/test-utils';
import { evidenceOf } from './support/evidence';
import { syntheticLedgerWrite } from './support/ledgerWrites';
import { openRocksDb } from '../src/storage/rocksdb';
import { Bucket, bucketRange, type BucketId } from '../src/storage/buckets';
import type { LedgerBackend } from '../src/backend/backend';
import { KvLedgerBackend } from '../src/backend/kv-backend';
import { PgLedgerBackend } from '../src/backend/pg-backend';
import { LedgerStore } from '../src/store';

const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

let postgres: RunningPostgres;
beforeAll(async () => {
  postgres = await startPostgres();
});
afterAll(async () => {
  await postgres?.stop();
});

/** A store engine: a new backend over a store of its own, and how many lists and manifests it holds (past the backend). */
interface Engine {
  open(): Promise<LedgerBackend>;
  shared(backend: LedgerBackend): Promise<{ lists: number; manifests: number; records: number }>;
}

async function countKeys(backend: LedgerBackend, bucket: BucketId): Promise<number> {
  let count = 0;
  for await (const _entry of (backend as KvLedgerBackend).kv.entries(bucketRange(bucket))) count++;
  return count;
}

const engines: [string, () => Promise<Engine>][] = [
  [
    'RocksDB',
    async () => {
      const { dir, remove } = tempDir('ledger-store-evidence-');
      cleanups.push(remove);
      return {
        open: async () => new KvLedgerBackend(await openRocksDb(`${dir}/node.db`), `the database at ${dir}/node.db`),
        shared: async (backend) => ({
          lists: await countKeys(backend, Bucket.validatorList),
          manifests: await countKeys(backend, Bucket.manifest),
          records: await countKeys(backend, Bucket.ledgerEvidence),
        }),
      };
    },
  ],
  [
    'PostgreSQL',
    async () => {
      const database = await postgres.createSchema();
      const sql = new pg.Pool(database);
      cleanups.push(() => sql.end());
      const count = async (table: string) => Number((await sql.query<{ count: string }>(`SELECT count(*) FROM ${table}`)).rows[0]!.count);
      return {
        open: () => PgLedgerBackend.open(database),
        shared: async () => ({ lists: await count('validator_lists'), manifests: await count('manifests'), records: await count('ledger_evidence') }),
      };
    },
  ],
];

const atIndex = (index: number): LedgerSelector => ({ selector: { $case: 'index', index } });
const failure = (promise: Promise<unknown>) => rejectionOf<LedgerNodeError>(promise);
/** The evidence as bytes, comparable whatever Buffer subclass or view holds it. */
const plain = (evidence: LedgerEvidence | undefined) => evidence && JSON.parse(JSON.stringify(evidence, (_key, value: unknown) => (value instanceof Uint8Array ? Buffer.from(value).toString('hex') : value)));
/** A ledger as sync re-derives it from the stored bytes to remove it (DeleteLedger), or backfill stores it: no state changes, no evidence. */
const withoutEvidence = (write: LedgerWrite): LedgerWrite => ({ ...write, stateChanges: [], evidence: undefined });

describe.each(engines)('the evidence of ledgers on %s', (name, createEngine) => {
  async function openStore(engine: Engine) {
    const store = await LedgerStore.open(await engine.open());
    cleanups.push(() => store.close());
    return store;
  }

  it('stores a ledger with its evidence and answers the evidence as written, by index and by hash; a ledger without evidence answers none, one not stored NotFound', async () => {
    const engine = await createEngine();
    const store = await openStore(engine);
    const proven = [21, 22].map((ledgerIndex) => syntheticLedgerWrite(ledgerIndex));
    await store.putLedgers(proven.map((write) => ({ ...write, evidence: evidenceOf(write) })));
    await store.putLedger(syntheticLedgerWrite(20));

    const byIndex = await store.getLedgerEvidence(atIndex(21));
    expect(byIndex.header.ledgerHash).toEqual(proven[0]!.ledgerHash);
    expect(plain(byIndex.evidence)).toEqual(plain(evidenceOf(proven[0]!)));
    const byHash = await store.getLedgerEvidence({ selector: { $case: 'hash', hash: proven[1]!.ledgerHash } });
    expect(plain(byHash.evidence)).toEqual(plain(evidenceOf(proven[1]!)));
    expect((await store.getLedgerEvidence(atIndex(20))).evidence).toBeUndefined();
    const missing = await failure(store.getLedgerEvidence(atIndex(23)));
    expect(missing).toBeInstanceOf(NotFound);
    expect(missing.message).toBe('the ledger named is not stored');
    // The list and the manifests are kept once for both ledgers, which the status counts.
    expect(await engine.shared(store.backend)).toEqual({ lists: 1, manifests: 5, records: 2 });
    expect((await store.status()).counters).toMatchObject({ ledgerCount: 3n, evidenceLedgerCount: 2n });
  });

  it('reads consecutive ledgers in one range, naming those with evidence, and ends the range before a ledger not stored', async () => {
    const store = await openStore(await createEngine());
    const writes = [20, 21, 22, 23, 24, 26].map((ledgerIndex) => syntheticLedgerWrite(ledgerIndex));
    await store.putLedgers(writes.map((write) => (write.ledgerIndex === 21 || write.ledgerIndex === 23 || write.ledgerIndex === 26 ? { ...write, evidence: evidenceOf(write) } : write)));

    const range = await store.getLedgerRange(20, 30, TxDetail.NONE);
    expect(range.ledgers.map((ledger) => ledger.ledgerIndex)).toEqual([20, 21, 22, 23, 24]);
    expect(range.ledgers.map((ledger) => ledger.ledgerHash)).toEqual(writes.slice(0, 5).map((write) => write.ledgerHash));
    expect(range.ledgers.every((ledger) => ledger.transactions.length === 0)).toBe(true);
    expect(range).toMatchObject({ truncated: false, evidenced: [21, 23] });
    const full = await store.getLedgerRange(22, 22, TxDetail.FULL);
    expect(full.ledgers).toHaveLength(1);
    expect(full.ledgers[0]!.transactions.map((tx) => tx.txBlob)).toEqual(writes[2]!.transactions.map((tx) => tx.txBlob));
    expect(full.evidenced).toEqual([]);
    expect(await store.getLedgerRange(25, 40, TxDetail.NONE)).toEqual({ ledgers: [], truncated: false, evidenced: [] });
    expect((await store.getLedgerRange(26, 26 + 255, TxDetail.HASHES)).evidenced).toEqual([26]);
    // An answer past its size ends before the ledger that took it there (never before the first), and says so.
    const oneLedger = await store.getLedgerRange(20, 24, TxDetail.FULL, 1);
    expect(oneLedger).toMatchObject({ truncated: true, evidenced: [] });
    expect(oneLedger.ledgers.map((ledger) => ledger.ledgerIndex)).toEqual([20]);
    const twoLedgers = await store.getLedgerRange(21, 24, TxDetail.FULL, 2 * (await store.getLedgerRange(21, 21, TxDetail.FULL)).ledgers[0]!.transactions.reduce((sum, tx) => sum + tx.txBlob.length + tx.metaBlob.length + 96, 150));
    expect(twoLedgers).toMatchObject({ truncated: true, evidenced: [21] });
    expect(twoLedgers.ledgers.map((ledger) => ledger.ledgerIndex)).toEqual([21, 22]);

    for (const [first, last, message] of [
      [0, 10, 'first must be a ledger index (1 or more), got 0'],
      [21, 20, 'last must be from first to first + 255 (21-276), got 20'],
      [20, 20 + 256, 'last must be from first to first + 255 (20-275), got 276'],
    ] as const) {
      const refusal = await failure(store.getLedgerRange(first, last, TxDetail.NONE));
      expect(refusal).toBeInstanceOf(InvalidParams);
      expect(refusal.message).toBe(message);
    }
  });

  it('refuses evidence that is not the ledger\'s, or not evidence, naming what is wrong, and stores nothing of the write', async () => {
    const engine = await createEngine();
    const store = await openStore(engine);
    const write = syntheticLedgerWrite(30);
    const good = evidenceOf(write);
    const list = good.validatorLists[0]!;
    const refusals: [string, LedgerEvidence, RegExp][] = [
      ['another ledger', evidenceOf(syntheticLedgerWrite(31)), /^ledger\.evidence\.validations\[0\] validates ledger 31 [0-9A-F]{64}, not ledger 30 [0-9A-F]{64}$/],
      ['a validation cut short', { ...good, validations: [good.validations[0]!, good.validations[1]!.subarray(0, 60)] }, /^ledger\.evidence\.validations\[1\] is not a validation: /],
      ['garbage', { ...good, validations: [Buffer.from('not a validation')] }, /^ledger\.evidence\.validations\[0\] is not a validation: /],
      ['one validator twice', { ...good, validations: [good.validations[0]!, good.validations[0]!] }, /^ledger\.evidence\.validations\[1\] is signed by [0-9A-F]{66}, as an earlier validation is$/],
      ['no validations', { ...good, validations: [] }, /^ledger\.evidence\.validations must hold 1 to 1024 validations, got 0$/],
      ['a quorum above them', { ...good, quorum: 6 }, /^ledger\.evidence\.quorum must be from 1 to the 5 validations given, got 6$/],
      ['garbage for a manifest', { ...good, manifests: [Buffer.from('not a manifest')] }, /^ledger\.evidence\.manifests\[0\] is not a manifest: /],
      ['one manifest twice', { ...good, manifests: [good.manifests[0]!, good.manifests[0]!] }, /^ledger\.evidence\.manifests\[1\] is of master key [0-9A-F]{66}, as an earlier manifest is$/],
      ['garbage for a list blob', { ...good, validatorLists: [{ ...list, blobs: [{ ...list.blobs[0]!, blob: Buffer.from('not JSON') }] }] }, /^ledger\.evidence\.validator_lists\[0\] is not a validator list: blob 0 is not JSON$/],
      ['a list of another publisher than its manifest\'s', { ...good, validatorLists: [{ ...list, publicKey: Buffer.alloc(33, 0xed) }] }, /^ledger\.evidence\.validator_lists\[0\] is not a validator list: its manifest is of ED[0-9A-F]{64}, not of its public_key (ED){33}$/],
      ['a sequence not in the list', { ...good, validatorLists: [{ ...list, sequence: 2 }] }, /^ledger\.evidence\.validator_lists\[0\]\.sequence 2 is none of its blobs' \(1\)$/],
      ['a short publisher key', { ...good, validatorLists: [{ ...list, publicKey: list.publicKey.subarray(1) }] }, /^ledger\.evidence\.validator_lists\[0\]\.public_key must be 33 bytes, got 32$/],
    ];
    for (const [what, evidence, message] of refusals) {
      const refused = await failure(store.putLedger({ ...write, evidence }));
      expect([what, refused]).toEqual([what, expect.any(InvalidParams)]);
      expect([what, refused.message]).toEqual([what, expect.stringMatching(message)]);
    }
    expect(store.ranges).toEqual([]);
    expect(await engine.shared(store.backend)).toEqual({ lists: 0, manifests: 0, records: 0 });
    // A ledger is removed with what is stored with it: evidence in a removal is refused.
    await store.putLedger({ ...write, evidence: good });
    expect((await failure(store.deleteLedger({ ...withoutEvidence(write), evidence: good }))).message).toBe('ledger.evidence must be absent: a ledger is removed with the evidence stored with it');
  });

  it('removes a ledger\'s evidence with the ledger (DeleteLedger), and keeps the lists and manifests other ledgers name', async () => {
    const engine = await createEngine();
    const store = await openStore(engine);
    const writes = [40, 41].map((ledgerIndex) => syntheticLedgerWrite(ledgerIndex));
    await store.putLedgers(writes.map((write) => ({ ...write, evidence: evidenceOf(write) })));
    await store.deleteLedger(withoutEvidence(writes[0]!));
    expect(await failure(store.getLedgerEvidence(atIndex(40)))).toBeInstanceOf(NotFound);
    expect(plain((await store.getLedgerEvidence(atIndex(41))).evidence)).toEqual(plain(evidenceOf(writes[1]!)));
    expect(await engine.shared(store.backend)).toEqual({ lists: 1, manifests: 5, records: 1 });
    // Stored again without evidence (backfilled, say), it has none: nothing of the removed ledger's was left.
    await store.putLedger(withoutEvidence(writes[0]!));
    expect((await store.getLedgerEvidence(atIndex(40))).evidence).toBeUndefined();
    await store.deleteLedger(withoutEvidence(writes[0]!));
    expect((await store.status()).counters).toMatchObject({ ledgerCount: 1n, evidenceLedgerCount: 1n });
  });

  if (name === 'RocksDB') {
    it('removes the evidence of the ledgers bounded history (-ledger_history) removes', async () => {
      const engine = await createEngine();
      const writes = [50, 51, 52, 53, 54].map((ledgerIndex) => syntheticLedgerWrite(ledgerIndex));
      const unbounded = await LedgerStore.open(await engine.open());
      await unbounded.putLedgers(writes.map((write) => ({ ...write, evidence: evidenceOf(write) })));
      await unbounded.close();
      const senders = new Map(writes.flatMap((write) => write.transactions.map((tx) => [tx.hash.toString('hex'), tx] as const)));
      let settled = false;
      const store = await LedgerStore.open(await engine.open(), { history: { ledgers: 2, indexOf: (tx) => senders.get(tx.hash.toString('hex'))!, batch: 2, onSettled: () => (settled = true) } });
      cleanups.push(() => store.close());
      await waitUntil(() => settled, 10_000, 'the history to settle', 10);
      expect(store.ranges).toEqual([{ first: 53, last: 54 }]);
      expect(await failure(store.getLedgerEvidence(atIndex(52)))).toBeInstanceOf(NotFound);
      expect(plain((await store.getLedgerEvidence(atIndex(53))).evidence)).toEqual(plain(evidenceOf(writes[3]!)));
      // The records of the removed ledgers are gone; the list and manifests, small, are kept.
      expect(await engine.shared(store.backend)).toEqual({ lists: 1, manifests: 5, records: 2 });
      // Counted by the store that wrote them, and kept with it: the reopened store counts the removals down.
      expect((await store.status()).counters).toMatchObject({ ledgerCount: 2n, evidenceLedgerCount: 2n });
    });
  }
});
