import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { decodeLedgerHeader, encodeLedgerHeader, getProfile, hashLedgerHeader, hashTransaction, verifiedLedgerWrite, verifyLedger } from '@ledger-node/chain';
import { TxDetail, type LedgerWrite } from '@ledger-node/contracts';
import { evidenceOf, PUBLISHER_KEY, VALIDATOR_KEYS } from '../../test/support/evidence';
import { ledgerWriteFromJson, MAINNET_RUN, mainnetLedgerWrite, syntheticLedgerWrite, type LedgerFixture } from '../../test/support/ledgerWrites';
import { readFixture } from '@ledger-node/test-utils';
import { KvLedgerBackend } from '../backend/kv-backend';
import { memoryKeyValue } from '../storage/memory';
import { LedgerStore } from '../store';
import { exportStore } from './export';
import { readStream, StreamWriter } from './format';
import { ImportRefused, importStream } from './import';
import { Progress } from './progress';
import type { ImportTrust } from './proven';

const xrpl = getProfile('xrpl');
/** The recorded mainnet run and a ledger far below it: two runs, the second starting after a gap. */
const RECORDED = [7501326, ...MAINNET_RUN];

async function memoryStore(location = 'the database in memory'): Promise<LedgerStore> {
  return LedgerStore.open(new KvLedgerBackend(memoryKeyValue(), location));
}

const quiet = () => new Progress('test', { write: () => undefined });

/** A stream of `ledgers` as export writes them (stored fields only, no index data, no state). */
async function streamOf(ledgers: LedgerWrite[], chain = 'xrpl', roleDetail?: string): Promise<Buffer> {
  const output = new PassThrough();
  const chunks: Buffer[] = [];
  output.on('data', (chunk: Buffer) => chunks.push(chunk));
  const writer = await StreamWriter.start(output, chain, {
    completeRanges: [],
    unprovenRanges: [],
    ledgerCount: BigInt(ledgers.length),
    transactionCount: 0n,
    stateObjectVersionCount: 0n,
    dbSizeBytes: 0n,
    ...(roleDetail === undefined ? {} : { roleDetail }),
  });
  for (const ledger of ledgers) {
    await writer.ledger({
      ...ledger,
      transactions: ledger.transactions.map((tx) => ({ ...tx, senderAccountId: Buffer.alloc(0), affectedAccounts: [], nftIds: [], nftChange: undefined })),
      stateChanges: [],
    });
  }
  await writer.end();
  output.end();
  return Buffer.concat(chunks);
}

async function* once(bytes: Buffer): AsyncGenerator<Buffer> {
  yield bytes;
}

/** The import trusts the publisher of the evidence's list. */
const trust = { publisherKeys: [PUBLISHER_KEY] };

/** The recorded ledgers, the highest of each run with its evidence (as sync keeps it with a ledger it followed): each run is proven. */
const recorded = () =>
  RECORDED.map((ledgerIndex) => {
    const write = mainnetLedgerWrite(ledgerIndex);
    return RECORDED.includes(ledgerIndex + 1) ? write : { ...write, evidence: evidenceOf(write) };
  });
/** The ledgers of `recorded` that carry evidence. */
const EVIDENCED = RECORDED.filter((ledgerIndex) => !RECORDED.includes(ledgerIndex + 1));

/** The ledger with its header changed by `change` and its ledger_hash recomputed: a forger's careful copy. */
function withHeader(ledger: LedgerWrite, change: (header: ReturnType<typeof decodeLedgerHeader>) => void): LedgerWrite {
  const header = decodeLedgerHeader(ledger.headerBlob);
  change(header);
  return { ...ledger, headerBlob: encodeLedgerHeader(header), ledgerHash: Buffer.from(hashLedgerHeader(header), 'hex') };
}

async function refusal(store: LedgerStore, bytes: Buffer, trusted = trust): Promise<ImportRefused> {
  const error = await importStream(store, () => once(bytes), xrpl, quiet(), { trust: trusted }).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ImportRefused);
  return error as ImportRefused;
}

describe('importStream', () => {
  it('stores every ledger of the stream with the index data sync derives from the same bytes, and skips them all the second time', async () => {
    const store = await memoryStore();
    const bytes = await streamOf(recorded());
    const first = await importStream(store, () => once(bytes), xrpl, quiet(), { trust });
    expect(first).toMatchObject({ ledgerCount: RECORDED.length, written: RECORDED.length, alreadyStored: 0, unindexedTransactions: 0 });
    expect(store.ranges).toEqual([
      { first: 7501326, last: 7501326 },
      { first: MAINNET_RUN[0], last: MAINNET_RUN.at(-1) },
    ]);
    // The account index: what sync would have written for the same verified ledger (the stream carried none).
    const ledger = mainnetLedgerWrite(MAINNET_RUN[2]);
    const verification = verifyLedger({
      ledgerIndex: ledger.ledgerIndex,
      headerBlob: ledger.headerBlob,
      ledgerHash: ledger.ledgerHash.toString('hex'),
      transactions: ledger.transactions.map((tx) => ({ txBlob: tx.txBlob, metaBlob: tx.metaBlob })),
    });
    if (!verification.ok) throw new Error(verification.failure.message);
    const expected = verifiedLedgerWrite(verification.ledger, xrpl, () => undefined);
    const sender = expected.transactions[0]!.senderAccountId;
    const history = [];
    for await (const entry of store.backend.accountTransactionEntries(sender, { firstLedger: MAINNET_RUN[2], lastLedger: MAINNET_RUN[2] })) history.push(entry.txIndex);
    expect(history).toEqual(expected.transactions.filter((tx) => tx.affectedAccounts.some((affected) => affected.accountId.equals(sender))).map((tx) => tx.txIndex).sort((a, b) => a - b));
    const stored = await store.getLedger({ selector: { $case: 'index', index: MAINNET_RUN[2] } }, TxDetail.FULL);
    expect(stored?.transactions.map((tx) => tx.txBlob.toString('hex')).sort()).toEqual(ledger.transactions.map((tx) => tx.txBlob.toString('hex')).sort());

    const second = await importStream(store, () => once(bytes), xrpl, quiet(), { trust });
    expect(second).toMatchObject({ ledgerCount: RECORDED.length, written: 0, alreadyStored: RECORDED.length });
  });

  it("derives the NFT index again from the verified bytes, as sync derives it: a recorded ledger's NFTokenCancelOffer touches its offers' tokens", async () => {
    const store = await memoryStore();
    const write = ledgerWriteFromJson(readFixture<LedgerFixture>('xrpl/corpus/ledgers/mainnet-90156059.json'));
    const cancel = write.transactions.find((tx) => tx.transactionType === 'NFTokenCancelOffer')!;
    expect(cancel.nftIds.length).toBeGreaterThan(0);
    const bytes = await streamOf([{ ...write, evidence: evidenceOf(write) }]);
    expect(await importStream(store, () => once(bytes), xrpl, quiet(), { trust })).toMatchObject({ written: 1, unindexedTransactions: 0 });
    for (const nftId of cancel.nftIds) {
      const touching = [];
      for await (const position of store.backend.nftTransactionEntries(nftId, {})) touching.push(position);
      expect(touching).toEqual([{ ledgerIndex: 90156059, txIndex: cancel.txIndex }]);
    }
  });

  it('stores the evidence a record carries with its ledger, and refuses evidence of another ledger before anything is written', async () => {
    const ledgers = recorded();
    const proven = ledgers[2]!;
    proven.evidence = evidenceOf(proven);
    const store = await memoryStore();
    const bytes = await streamOf(ledgers);
    expect(await importStream(store, () => once(bytes), xrpl, quiet(), { trust })).toMatchObject({ written: RECORDED.length });
    const kept = await store.getLedgerEvidence({ selector: { $case: 'index', index: proven.ledgerIndex } });
    expect(kept.evidence?.validations.map((validation) => validation.toString('hex'))).toEqual(proven.evidence.validations.map((validation) => validation.toString('hex')));
    expect((await store.getLedgerEvidence({ selector: { $case: 'index', index: ledgers[3]!.ledgerIndex } })).evidence).toBeUndefined();

    const misplaced = recorded();
    misplaced[4]!.evidence = evidenceOf(misplaced[3]!);
    const empty = await memoryStore();
    const error = await refusal(empty, await streamOf(misplaced));
    expect(error.ledgerIndex).toBe(misplaced[4]!.ledgerIndex);
    expect(error.message).toMatch(new RegExp(`^the evidence of ledger ${misplaced[4]!.ledgerIndex} is not that ledger's: evidence\\.validations\\[0\\] validates ledger ${misplaced[3]!.ledgerIndex} `));
    expect(empty.ranges).toEqual([]);
  });

  it('refuses a forged transaction (its hash recomputed, the tree root then wrong), naming the ledger, and stores nothing', async () => {
    const ledgers = recorded();
    const forged = ledgers[3]!;
    const tx = forged.transactions[1]!;
    const txBlob = Buffer.from(tx.txBlob);
    txBlob[txBlob.length - 1] ^= 0x01;
    forged.transactions[1] = { ...tx, txBlob, hash: Buffer.from(hashTransaction(txBlob), 'hex') };
    const store = await memoryStore();
    const error = await refusal(store, await streamOf(ledgers));
    expect(error.ledgerIndex).toBe(forged.ledgerIndex);
    expect(error.message).toMatch(new RegExp(`^ledger ${forged.ledgerIndex} does not verify \\(transaction_tree_mismatch\\): the transactions of ledger ${forged.ledgerIndex} hash to the tree root [0-9A-F]{64}, not the header's transaction_hash`));
    expect(store.ranges).toEqual([]);
  });

  it('refuses a transaction whose blob does not hash to the hash it carries', async () => {
    const ledgers = recorded();
    const target = ledgers[2]!;
    const tx = target.transactions[0]!;
    const txBlob = Buffer.from(tx.txBlob);
    txBlob[txBlob.length - 1] ^= 0x01;
    target.transactions[0] = { ...tx, txBlob };
    const store = await memoryStore();
    const error = await refusal(store, await streamOf(ledgers));
    expect(error.message).toMatch(new RegExp(`^ledger ${target.ledgerIndex} does not verify \\(transaction_hash_mismatch\\): a transaction of ledger ${target.ledgerIndex} served as ${tx.hash.toString('hex').toUpperCase()} hashes to`));
    expect(store.ranges).toEqual([]);
  });

  it('refuses a broken parent link inside a run (the header re-hashed), naming the ledger and both hashes, and stores nothing', async () => {
    const ledgers = recorded();
    const position = 4;
    ledgers[position] = withHeader(ledgers[position]!, (header) => {
      header.parentHash = '00'.repeat(32);
    });
    const store = await memoryStore();
    const error = await refusal(store, await streamOf(ledgers));
    const broken = ledgers[position]!.ledgerIndex;
    expect(error.ledgerIndex).toBe(broken);
    expect(error.message).toBe(
      `ledger ${broken} does not link to ledger ${broken - 1} before it in the stream: its parent_hash is ${'00'.repeat(32)}, ledger ${broken - 1} hashes to ${ledgers[position - 1]!.ledgerHash.toString('hex').toUpperCase()}`,
    );
    expect(store.ranges).toEqual([]);
  });

  it('refuses a header whose fields do not hash to the ledger_hash it carries', async () => {
    const ledgers = recorded();
    ledgers[1] = { ...ledgers[1]!, ledgerHash: Buffer.alloc(32, 0xab) };
    const error = await refusal(await memoryStore(), await streamOf(ledgers));
    expect(error.message).toMatch(new RegExp(`^ledger ${MAINNET_RUN[0]} does not verify \\(header_hash_mismatch\\)`));
  });

  it('refuses a store holding another ledger at one of the stream\'s indexes, or neighbours the stream does not link to, writing nothing', async () => {
    const conflicting = await memoryStore();
    await conflicting.putLedger(syntheticLedgerWrite(7501326));
    const conflict = await refusal(conflicting, await streamOf(recorded()));
    expect(conflict.ledgerIndex).toBe(7501326);
    expect(conflict.message).toMatch(/^the store holds ledger 7501326 with hash [0-9A-F]{64}, the stream's ledger 7501326 is [0-9A-F]{64}: the store holds another chain/);
    expect(conflicting.ranges).toEqual([{ first: 7501326, last: 7501326 }]);

    const belowRun = await memoryStore();
    await belowRun.putLedger(syntheticLedgerWrite(MAINNET_RUN[0] - 1));
    const parent = await refusal(belowRun, await streamOf(recorded()));
    expect(parent.message).toMatch(new RegExp(`^ledger ${MAINNET_RUN[0]} of the stream names parent [0-9A-F]{64}, but the store's ledger ${MAINNET_RUN[0] - 1} is [0-9A-F]{64}$`));

    const aboveRun = await memoryStore();
    await aboveRun.putLedger(syntheticLedgerWrite(MAINNET_RUN.at(-1)! + 1));
    const child = await refusal(aboveRun, await streamOf(recorded()));
    expect(child.message).toMatch(new RegExp(`^ledger ${MAINNET_RUN.at(-1)} of the stream is [0-9A-F]{64}, but the store's ledger ${MAINNET_RUN.at(-1)! + 1} names parent [0-9A-F]{64}$`));
    expect(aboveRun.ranges).toEqual([{ first: MAINNET_RUN.at(-1)! + 1, last: MAINNET_RUN.at(-1)! + 1 }]);
  });

  it('refuses a stream of another chain than the profile it runs with', async () => {
    const error = await refusal(await memoryStore(), await streamOf(recorded(), 'jingtum'));
    expect(error.message).toBe('the stream holds ledgers of the chain "jingtum", and this import runs with -chain xrpl: give -chain jingtum');
  });

  it('stops writing at once when its signal aborts (the writer lock was lost), with the signal\'s reason, the ledgers written before it stored whole', async () => {
    const store = await memoryStore();
    const bytes = await streamOf(recorded());
    const lockLost = new AbortController();
    const reason = new Error('lost the ledger-store writer lock on the database in memory: the session ended');
    const putLedger = store.putLedger.bind(store);
    let writes = 0;
    store.putLedger = async (ledger) => {
      const stored = await putLedger(ledger);
      // The lock is lost while the second ledger is written: that write completes, no other starts.
      if (++writes === 2) lockLost.abort(reason);
      return stored;
    };
    const error = await importStream(store, () => once(bytes), xrpl, quiet(), { trust, signal: lockLost.signal }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBe(reason);
    expect(writes).toBe(2);
    expect(store.ranges).toEqual([{ first: 7501326, last: 7501326 }, { first: MAINNET_RUN[0], last: MAINNET_RUN[0] }]);

    // Run again with the lock held, it resumes: the two stored ledgers are skipped.
    const resumed = await importStream(store, () => once(bytes), xrpl, quiet(), { trust, signal: new AbortController().signal });
    expect(resumed).toMatchObject({ ledgerCount: RECORDED.length, written: RECORDED.length - 2, alreadyStored: 2 });
  });

  it('writes nothing when its signal aborts during the verifying pass', async () => {
    const store = await memoryStore();
    const bytes = await streamOf(recorded());
    const lockLost = new AbortController();
    const reason = new Error('lost the lock');
    const verifying = new Progress('test', { write: () => undefined });
    let ticks = 0;
    const tick = verifying.tick.bind(verifying);
    verifying.tick = () => {
      tick();
      if (++ticks === 1) lockLost.abort(reason);
    };
    await expect(importStream(store, () => once(bytes), xrpl, verifying, { trust, signal: lockLost.signal })).rejects.toBe(reason);
    expect(ticks).toBe(1);
    expect(store.ranges).toEqual([]);
  });

  it('reads back, through export, the same stream it imported, the evidence of ledgers included', async () => {
    const source = await memoryStore();
    const ledgers = recorded();
    ledgers[2]!.evidence = evidenceOf(ledgers[2]!);
    const bytes = await streamOf(ledgers);
    await importStream(source, () => once(bytes), xrpl, quiet(), { trust });
    const output = new PassThrough();
    const chunks: Buffer[] = [];
    output.on('data', (chunk: Buffer) => chunks.push(chunk));
    await exportStore(source, output, 'xrpl', quiet());
    const target = await memoryStore();
    const summary = await importStream(target, () => once(Buffer.concat(chunks)), xrpl, quiet(), { trust });
    expect(summary.written).toBe(RECORDED.length);
    for (const ledgerIndex of RECORDED) {
      const [from, to] = await Promise.all([source, target].map((store) => store.getLedger({ selector: { $case: 'index', index: ledgerIndex } }, TxDetail.FULL)));
      expect(to).toEqual(from);
      const [evidenceFrom, evidenceTo] = await Promise.all([source, target].map(async (store) => (await store.getLedgerEvidence({ selector: { $case: 'index', index: ledgerIndex } })).evidence));
      expect(evidenceTo).toEqual(evidenceFrom);
      expect(evidenceTo === undefined).toBe(ledgerIndex !== ledgers[2]!.ledgerIndex && !EVIDENCED.includes(ledgerIndex));
    }
  });

  it("never writes where the exported store is: its path is in no byte of the stream, its counts are", async () => {
    const where = '/home/operator/ledger-node/.data/node.db';
    const source = await memoryStore(`the database at ${where}`);
    const imported = await streamOf(recorded());
    await importStream(source, () => once(imported), xrpl, quiet(), { trust });
    expect((await source.status()).roleDetail).toContain(where);
    const output = new PassThrough();
    const chunks: Buffer[] = [];
    output.on('data', (chunk: Buffer) => chunks.push(chunk));
    await exportStore(source, output, 'xrpl', quiet());
    const bytes = Buffer.concat(chunks);
    expect(bytes.includes(Buffer.from('/home/operator'))).toBe(false);
    expect(bytes.includes(Buffer.from('ledger-node/.data'))).toBe(false);
    const reading = await readStream(once(bytes));
    expect(reading.header.source).toMatchObject({ ledgerCount: BigInt(RECORDED.length) });
    expect(reading.header.source.roleDetail).toBeUndefined();
  });

  it('imports a stream of an older export, whose SOURCE names where its store was', async () => {
    const bytes = await streamOf(recorded(), 'xrpl', 'the writer of the database at /var/lib/ledger-node/node.db');
    const target = await memoryStore();
    expect((await importStream(target, () => once(bytes), xrpl, quiet(), { trust })).written).toBe(RECORDED.length);
  });
});

describe('importStream proves what it imports', () => {
  const top = MAINNET_RUN.at(-1)!;
  const withoutEvidence = (ledgers: LedgerWrite[], ...indexes: number[]) => ledgers.map((ledger) => (indexes.includes(ledger.ledgerIndex) ? { ...ledger, evidence: undefined } : ledger));
  const imported = async (ledgers: LedgerWrite[], trusted: ImportTrust = trust, store?: LedgerStore) => {
    const target = store ?? (await memoryStore());
    const bytes = await streamOf(ledgers);
    return { store: target, summary: await importStream(target, () => once(bytes), xrpl, quiet(), { trust: trusted }) };
  };

  it('stores ledgers nothing proves unproven, served by no read, naming them with why (a run whose evidence was taken out: a forger\'s re-hashed top ledger)', async () => {
    const { store, summary } = await imported(withoutEvidence(recorded(), top));
    expect(summary.unproven).toEqual([{ first: MAINNET_RUN[0], last: top, reason: 'no evidence at or above them, and no stored ledger names the highest as its parent' }]);
    expect(summary.written).toBe(RECORDED.length);
    expect(store.ranges).toEqual([{ first: 7501326, last: 7501326 }]);
    expect(store.unprovenRanges).toEqual([{ first: MAINNET_RUN[0], last: top }]);
    expect(await store.getLedger({ selector: { $case: 'index', index: top } }, TxDetail.NONE)).toBeUndefined();
  });

  it('stores unproven the ledgers above the highest evidence of a run, which proves only itself and those below it', async () => {
    const ledgers = recorded().map((ledger) => (ledger.ledgerIndex === MAINNET_RUN[2] ? { ...ledger, evidence: evidenceOf(ledger) } : ledger));
    const { store, summary } = await imported(withoutEvidence(ledgers, top));
    expect(summary.unproven.map(({ first, last }) => ({ first, last }))).toEqual([{ first: MAINNET_RUN[3], last: top }]);
    expect(store.ranges).toEqual([{ first: 7501326, last: 7501326 }, { first: MAINNET_RUN[0], last: MAINNET_RUN[2] }]);
  });

  it('counts nothing under a publisher it does not trust, or short of the quorum, saying why; refuses evidence with a forged validation', async () => {
    const untrusted = await imported(recorded(), { publisherKeys: [`ED${'11'.repeat(32)}`] });
    expect(untrusted.summary.unproven[0]!.reason).toMatch(new RegExp(`^the evidence of ledger 7501326 proves nothing: .*the list of publisher ${PUBLISHER_KEY} is untrusted`));
    expect(untrusted.store.ranges).toEqual([]);

    const short = recorded().map((ledger) => {
      if (ledger.ledgerIndex !== top) return ledger;
      const evidence = evidenceOf(ledger);
      return { ...ledger, evidence: { ...evidence, validations: evidence.validations.slice(0, 3), quorum: 3 } };
    });
    const fewer = await imported(short);
    expect(fewer.summary.unproven).toEqual([{ first: MAINNET_RUN[0], last: top, reason: `the evidence of ledger ${top} proves nothing: 3 of the 4 trusted validations needed (of 5 trusted validators)` }]);

    const forged = recorded().map((ledger) => {
      if (ledger.ledgerIndex !== top) return ledger;
      const evidence = evidenceOf(ledger);
      const validation = Buffer.from(evidence.validations[0]!);
      validation[validation.length - 1] ^= 0x01;
      return { ...ledger, evidence: { ...evidence, validations: [validation, ...evidence.validations.slice(1)] } };
    });
    const store = await memoryStore();
    const error = await refusal(store, await streamOf(forged));
    expect(error.ledgerIndex).toBe(top);
    expect(error.message).toMatch(new RegExp(`^the evidence of ledger ${top} is forged: a validation of ledger ${top} does not verify`));
    expect(store.ranges).toEqual([]);
    expect(store.unprovenRanges).toEqual([]);
  });

  it('proves a run by a stored ledger that names its highest as parent, or by the ledgers the store holds identically; a stored unproven one proves nothing', async () => {
    const ledgers = recorded();
    const { store } = await imported(ledgers.filter((ledger) => ledger.ledgerIndex === top));
    // The rest of the run carries no evidence: the stored top names its highest ledger as its parent.
    expect((await imported(ledgers.filter((ledger) => ledger.ledgerIndex !== top), trust, store)).summary).toMatchObject({ written: RECORDED.length - 1, unproven: [] });
    // Everything stored: a stream without any evidence is proven by the store's own ledgers.
    expect((await imported(withoutEvidence(recorded(), ...RECORDED), trust, store)).summary).toMatchObject({ written: 0, alreadyStored: RECORDED.length, unproven: [] });

    // Stored unproven, a ledger proves nothing to the next import; the stream's evidence then proves it, and the run below.
    const bare = withoutEvidence(recorded(), ...RECORDED);
    const { store: other } = await imported(bare);
    expect(other.unprovenRanges).toEqual([{ first: 7501326, last: 7501326 }, { first: MAINNET_RUN[0], last: top }]);
    expect((await imported(bare.filter((ledger) => ledger.ledgerIndex !== top), trust, other)).summary.unproven).toHaveLength(2);
    await imported(recorded(), trust, other);
    expect(other.unprovenRanges).toEqual([]);
    expect(other.ranges).toEqual([{ first: 7501326, last: 7501326 }, { first: MAINNET_RUN[0], last: top }]);
  });

  it('counts validations for the -validators keys when the evidence carries no list (a node that trusts validators by their keys)', async () => {
    const ledgers = recorded().map((ledger) => (ledger.evidence ? { ...ledger, evidence: { ...ledger.evidence, validatorLists: [] } } : ledger));
    expect((await imported(ledgers, { publisherKeys: [], validators: { keys: VALIDATOR_KEYS, quorum: 4 } })).summary).toMatchObject({ written: RECORDED.length, unproven: [] });
    const none = await imported(ledgers, { publisherKeys: [] });
    expect(none.summary.unproven[0]!.reason).toBe('the evidence of ledger 7501326 proves nothing: no publisher key (-validator_list_keys) or -validators key is trusted, so no validation counts');
  });
});
