/**
 * Moving a store, end to end: a node syncs a devnet into RocksDB; `ledger-node export` writes its
 * ledgers to a file (refused while the node runs); `ledger-node import` verifies and stores them
 * in a real PostgreSQL database; a ledger-store serving that database answers every ledger,
 * transaction and account history exactly as one serving the RocksDB store does. Forged,
 * re-linked and cut streams are refused naming the ledger, with nothing stored; a second import
 * skips everything; an export of the PostgreSQL store holds the same ledger records, through -store
 * or -store_read. On PostgreSQL, import holds the ledger-store writer lock: it refuses a database a
 * running ledger-store writes, and a ledger-store started during an import waits as a standby.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { decodeLedgerHeader, devnetNetworkKeys, encodeLedgerHeader, getProfile, hashLedgerHeader, hashTransaction, signManifest, signValidation, transactionTreeRoot } from '@ledger-node/chain';
import { Direction, LedgerStoreServiceService, LedgerWrite, StoreRole, TxDetail, type LedgerEvidence, type LedgerRecord } from '@ledger-node/contracts';
import { createGrpcClient } from '@ledger-node/grpc';
import {
  cliEntry,
  devnetValidatorsFile,
  startPostgres,
  startProcess,
  stopAll,
  tempDir,
  waitUntil,
  type PostgresConnection,
  type RunningPostgres,
} from '@ledger-node/test-utils';

const xrpl = getProfile('xrpl');

/** Ledgers the devnet has built (two payments each) before the node syncs; more close under a light load. */
const HISTORY = '30x2';
const AT_LEAST_LEDGERS = 40;

const { dir, remove } = tempDir('export-import-');
const sourceDir = path.join(dir, 'source');
const streamFile = path.join(dir, 'ledgers.lnx');
let postgres: RunningPostgres;
const clients: { close(): void }[] = [];

afterAll(async () => {
  for (const client of clients) client.close();
  await stopAll();
  await postgres?.stop();
  remove();
});

/** The devnet's validators, as the source node trusted them: what proves the stream's ledgers to an import. */
const validatorsFile = devnetValidatorsFile(dir);
/** An import trusts the validators the source node trusted. */
const withTrust = (args: string[]) => (args[0] === 'import' ? [...args, '-validators', validatorsFile] : args);

const cli = (args: string[], env: Record<string, string> = {}) => {
  const result = spawnSync(process.execPath, [cliEntry(), ...withTrust(args)], { encoding: 'utf8', timeout: 120_000, env: { ...process.env, ...env } });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
};

/** Flags and environment that point a command at a PostgreSQL database (the password in PGPASSWORD, never on the command line). */
const pgStore = (db: PostgresConnection) => ({ flags: ['-store', `postgres://${db.user}@${db.host}:${db.port}/${db.database}`], env: { PGPASSWORD: db.password } });

/** The same database for a reader: -store_read in place of -store. */
const readerFlags = (flags: string[]) => flags.map((flag) => (flag === '-store' ? '-store_read' : flag));

/** A ledger-store process serving a store, and a client to it. */
async function serveStore(name: string, storeFlags: string[], env: Record<string, string> = {}) {
  const address = `unix:${path.join(dir, `${name}.sock`)}`;
  const store = startProcess([cliEntry(), 'serve', 'ledger-store', '-data_dir', sourceDir, '-ledger_store_addr', address, ...storeFlags], { env });
  await store.waitFor(/"msg":"serving"/, 60_000);
  const client = createGrpcClient(LedgerStoreServiceService, address, { serviceLabel: 'ledger-store', deadlineMs: 30_000 });
  clients.push(client);
  return { store, client };
}

// ---------------------------------------------------------------- the stream, as docs/operating.md documents it

const PREAMBLE_BYTES = 12;
interface StreamRecord {
  kind: number;
  payload: Buffer;
  /** Offset of the record's kind byte in the file. */
  offset: number;
}

function recordsOf(bytes: Buffer): StreamRecord[] {
  expect(bytes.subarray(0, PREAMBLE_BYTES).toString('hex')).toBe(Buffer.concat([Buffer.from('LNLEDGR\n'), Buffer.from([0, 0, 0, 1])]).toString('hex'));
  const records: StreamRecord[] = [];
  for (let offset = PREAMBLE_BYTES; offset < bytes.length; ) {
    const length = bytes.readUInt32BE(offset + 1);
    records.push({ kind: bytes[offset]!, payload: bytes.subarray(offset + 5, offset + 5 + length), offset });
    offset += 5 + length;
  }
  return records;
}

function streamOf(records: StreamRecord[]): Buffer {
  return Buffer.concat([
    Buffer.from('LNLEDGR\n'),
    Buffer.from([0, 0, 0, 1]),
    ...records.flatMap((record) => {
      const header = Buffer.alloc(5);
      header.writeUInt8(record.kind, 0);
      header.writeUInt32BE(record.payload.length, 1);
      return [header, record.payload];
    }),
  ]);
}

const SOURCE_KIND = 2;
const LEDGER_KIND = 3;
const END_KIND = 4;
const ledgersIn = (records: StreamRecord[]) => records.filter((record) => record.kind === LEDGER_KIND).map((record) => LedgerWrite.decode(record.payload));
/** The stream with the LEDGER record of `ledgerIndex` replaced by `change`'s. */
function withLedger(records: StreamRecord[], ledgerIndex: number, change: (ledger: LedgerWrite) => LedgerWrite): Buffer {
  return streamOf(
    records.map((record) => {
      if (record.kind !== LEDGER_KIND) return record;
      const ledger = LedgerWrite.decode(record.payload);
      return ledger.ledgerIndex === ledgerIndex ? { ...record, payload: Buffer.from(LedgerWrite.encode(change(ledger)).finish()) } : record;
    }),
  );
}

/** Ledgers without transactions the longer stream adds, after a gap above the devnet's (a gap starts a new run). */
const ADDED_LEDGERS = 2000;
const ADDED_FROM = 1000;

/** Evidence of a ledger as sync keeps it under -validators: a full validation by each devnet validator, with their manifests. */
function devnetEvidence(ledgerIndex: number, ledgerHash: string): LedgerEvidence {
  const { validators } = devnetNetworkKeys();
  return {
    validations: validators.map((validator) => Buffer.from(signValidation(xrpl, validator.signing, { ledgerIndex, ledgerHash, signingTime: 800_000_000 }), 'hex')),
    quorum: validators.length,
    validatorLists: [],
    manifests: validators.map((validator) => Buffer.from(signManifest({ master: validator.master, signing: validator.signing, sequence: 1 }), 'hex')),
  };
}

/**
 * The devnet's stream followed by ADDED_LEDGERS ledgers of its own that verify (each header hashed,
 * no transactions, each linked to the one before, the highest validated by the devnet's
 * validators): an import long enough that it is surely still running when the test pauses it,
 * right after it says it holds the writer lock.
 */
function longerStream(): { file: string; ledgers: number } {
  const records = recordsOf(readFileSync(streamFile));
  const template = decodeLedgerHeader(ledgersIn(records).at(-1)!.headerBlob);
  const added: StreamRecord[] = [];
  let parentHash = template.parentHash;
  for (let offset = 0; offset < ADDED_LEDGERS; offset++) {
    const header = { ...template, ledgerIndex: ADDED_FROM + offset, parentHash, transactionHash: transactionTreeRoot([]) };
    const ledgerHash = hashLedgerHeader(header);
    const ledger = LedgerWrite.fromPartial({
      ledgerIndex: header.ledgerIndex,
      ledgerHash: Buffer.from(ledgerHash, 'hex'),
      headerBlob: encodeLedgerHeader(header),
      ...(offset === ADDED_LEDGERS - 1 ? { evidence: devnetEvidence(header.ledgerIndex, ledgerHash) } : {}),
    });
    added.push({ kind: LEDGER_KIND, payload: Buffer.from(LedgerWrite.encode(ledger).finish()), offset: 0 });
    parentHash = ledgerHash;
  }
  const end = records.find((record) => record.kind === END_KIND)!;
  const totals = Buffer.from(end.payload);
  totals.writeUInt32BE(totals.readUInt32BE(0) + ADDED_LEDGERS, 0);
  const file = path.join(dir, `longer-${Date.now()}.lnx`);
  writeFileSync(file, streamOf([...records.filter((record) => record.kind !== END_KIND), ...added, { ...end, payload: totals }]));
  return { file, ledgers: ledgerCount + ADDED_LEDGERS };
}

/** Starts an import, and pauses it (SIGSTOP) as soon as it says it holds the writer lock: a stopped process keeps its sessions, and so the lock. */
async function pausedImport(file: string, storeFlags: string[], env: Record<string, string>) {
  const importing = startProcess([cliEntry(), ...withTrust(['import', file, ...storeFlags])], { env });
  await importing.waitFor(/^import: holds the ledger-store writer lock on /m, 60_000);
  process.kill(importing.pid, 'SIGSTOP');
  expect(importing.output()).not.toMatch(/^import: writing \d+\/\d+ ledgers .*done$/m);
  return { importing, resume: () => process.kill(importing.pid, 'SIGCONT') };
}

const isXrpPayment = (blob: Uint8Array) => {
  const fields = xrpl.codec.decode(Buffer.from(blob).toString('hex'));
  return fields.TransactionType === 'Payment' && typeof fields.Amount === 'string';
};

/**
 * The exported stream forged as a careful forger would: an XRP Payment of a ledger at least five
 * below the top raised by one drop, and every hash from it to the top recomputed in place (the
 * transaction's, the tree's, each header's, each parent link). The evidence is kept (its
 * validations then name the real hashes), or taken out of every ledger.
 */
function forgedHistory(evidence: 'kept' | 'removed'): { bytes: Buffer; victimIndex: number; top: number; firstEvidenced: number } {
  const records = recordsOf(readFileSync(streamFile));
  const ledgers = ledgersIn(records);
  const top = ledgers.at(-1)!.ledgerIndex;
  expect(ledgers.at(-1)!.evidence, 'the export carries the evidence sync kept with the top ledger').toBeDefined();
  const victimIndex = ledgers.filter((ledger) => ledger.ledgerIndex <= top - 5 && ledger.transactions.some((tx) => isXrpPayment(tx.txBlob))).at(-1)!.ledgerIndex;
  let parentHash: string | undefined;
  let changed = records;
  for (const { ledgerIndex } of ledgers) {
    if (ledgerIndex < victimIndex && evidence === 'kept') continue;
    const newParent: string | undefined = parentHash;
    changed = recordsOf(
      withLedger(changed, ledgerIndex, (ledger) => {
        const kept = evidence === 'kept' ? ledger.evidence : undefined;
        if (ledgerIndex < victimIndex) return { ...ledger, evidence: kept };
        let transactions = ledger.transactions;
        if (ledgerIndex === victimIndex) {
          const at = transactions.findIndex((tx) => isXrpPayment(tx.txBlob));
          const fields = xrpl.codec.decode(Buffer.from(transactions[at]!.txBlob).toString('hex'));
          const txBlob = Buffer.from(xrpl.codec.encode({ ...fields, Amount: String(BigInt(fields.Amount as string) + 1n) }), 'hex');
          transactions = transactions.map((tx, position) => (position === at ? { ...tx, txBlob, hash: Buffer.from(hashTransaction(txBlob), 'hex') } : tx));
        }
        const header = decodeLedgerHeader(ledger.headerBlob);
        header.transactionHash = transactionTreeRoot(transactions);
        if (newParent) header.parentHash = newParent;
        parentHash = hashLedgerHeader(header);
        return { ...ledger, transactions, headerBlob: encodeLedgerHeader(header), ledgerHash: Buffer.from(parentHash, 'hex'), evidence: kept };
      }),
    );
  }
  // Sync kept evidence with each ledger it followed live: the lowest re-hashed one with evidence is the first refused.
  const firstEvidenced = ledgers.find((ledger) => ledger.ledgerIndex >= victimIndex && ledger.evidence)!.ledgerIndex;
  return { bytes: streamOf(changed), victimIndex, top, firstEvidenced };
}

// ---------------------------------------------------------------- the source store

let ledgerCount = 0;
/** The devnet the source node synced; it runs on, for the nodes that settle an unproven import. */
let devnetUrl: string;

beforeAll(async () => {
  const devnet = startProcess([cliEntry(), 'devnet', '-port', '0', '-load', '3', '-load_accounts', '4', '-close_ms', '300'], { env: { LEDGER_NODE_DEVNET_HISTORY: HISTORY } });
  devnetUrl = (await devnet.waitFor(/devnet listening on (ws:\/\/[^\s"]+)/, 120_000))[1]!;
  const node = startProcess([cliEntry(), '-endpoint', devnetUrl, '-validators', validatorsFile, '-data_dir', sourceDir, '-thread_count', '4']);
  const status = createGrpcClient(LedgerStoreServiceService, `unix:${path.join(sourceDir, 'run/ledger-store.sock')}`, { serviceLabel: 'ledger-store', deadlineMs: 5_000 });
  clients.push(status);
  await waitUntil(
    async () => {
      const { completeRanges } = await status.getStatus({});
      return completeRanges.length === 1 && completeRanges[0]!.first === 1 && completeRanges[0]!.last >= AT_LEAST_LEDGERS;
    },
    120_000,
    `the node to store ledgers 1..${AT_LEAST_LEDGERS}`,
  );
  // Export opens the store itself: while the node holds it, RocksDB's lock refuses it, and export says what to do.
  const whileRunning = cli(['export', path.join(dir, 'while-running.lnx'), '-data_dir', sourceDir]);
  expect(whileRunning.code).toBe(1);
  expect(whileRunning.stderr).toMatch(/^export: the RocksDB store at \S+ is in use by another process \(a running ledger-node or ledger-store holds its lock\): export opens the store itself, offline; stop the node/);
  status.close();
  expect(await node.stop('SIGTERM', 20_000)).toBe(0);
  postgres = await startPostgres();
}, 300_000);

describe('ledger-node export', () => {
  it('writes every ledger of the stopped node\'s RocksDB store to a file, with progress on stderr', () => {
    const { code, stderr } = cli(['export', streamFile, '-data_dir', sourceDir]);
    expect(code, stderr).toBe(0);
    const done = /^export: (\d+) ledgers with (\d+) transactions written to /m.exec(stderr);
    expect(done, stderr).not.toBeNull();
    ledgerCount = Number(done![1]);
    expect(ledgerCount).toBeGreaterThanOrEqual(AT_LEAST_LEDGERS);
    expect(stderr).toMatch(new RegExp(`^export: exporting ${ledgerCount}/${ledgerCount} ledgers \\([\\d.]+ ledgers/s, \\d+ s\\)`, 'm'));
    const ledgers = ledgersIn(recordsOf(readFileSync(streamFile)));
    expect(ledgers.map((ledger) => ledger.ledgerIndex)).toEqual(Array.from({ length: ledgerCount }, (_, offset) => 1 + offset));
  });

  it('refuses an existing file and a store that is not there, exit 2', () => {
    expect(cli(['export', streamFile, '-data_dir', sourceDir])).toMatchObject({ code: 2, stderr: expect.stringContaining(`${streamFile} exists: export writes a new file`) });
    expect(cli(['export', path.join(dir, 'other.lnx'), '-data_dir', path.join(dir, 'nothing')])).toMatchObject({ code: 2, stderr: expect.stringContaining('there is no store at') });
  });
});

describe('ledger-node import into PostgreSQL', () => {
  let target: PostgresConnection;

  it('verifies every ledger, then writes them, with progress on stderr', async () => {
    target = await postgres.createDatabase();
    const { flags, env } = pgStore(target);
    const { code, stderr } = cli(['import', streamFile, ...flags], env);
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(new RegExp(`^import: verifying ${ledgerCount}/${ledgerCount} ledgers .*; 0 already stored, done$`, 'm'));
    expect(stderr).toMatch(new RegExp(`^import: ${ledgerCount} ledgers verified: ${ledgerCount} written, 0 already stored \\(skipped\\)`, 'm'));
    expect(stderr).not.toContain(target.password);
  });

  it('serves every ledger, transaction and account history as the RocksDB store does', async () => {
    const { flags, env } = pgStore(target);
    const [source, copy] = [await serveStore('source', []), await serveStore('copy', flags, env)];
    const [sourceStatus, copyStatus] = await Promise.all([source.client.getStatus({}), copy.client.getStatus({})]);
    expect(copyStatus.completeRanges).toEqual(sourceStatus.completeRanges);
    expect(copyStatus.ledgerCount).toBe(sourceStatus.ledgerCount);
    expect(copyStatus.transactionCount).toBe(sourceStatus.transactionCount);
    // The stream carries no account state: the node's sync downloads it when it first runs on the copy.
    expect(copyStatus.stateRange).toBeUndefined();

    const codec = xrpl.codec;
    const accounts = new Map<string, Buffer>();
    let transactionCount = 0;
    for (let ledgerIndex = 1; ledgerIndex <= ledgerCount; ledgerIndex++) {
      const request = { ledger: { selector: { $case: 'index' as const, index: ledgerIndex } }, txDetail: TxDetail.FULL };
      const [fromSource, fromCopy] = await Promise.all([source.client.getLedger(request), copy.client.getLedger(request)]);
      expect(fromCopy.ledger, `ledger ${ledgerIndex}`).toEqual(fromSource.ledger);
      for (const tx of (fromSource.ledger as LedgerRecord).transactions) {
        transactionCount++;
        const [one, other] = await Promise.all([source.client.getTransaction({ hash: tx.hash }), copy.client.getTransaction({ hash: tx.hash })]);
        expect(other.transaction).toEqual(one.transaction);
        const sender = codec.decode(Buffer.from(tx.txBlob).toString('hex')).Account as string;
        accounts.set(sender, Buffer.from(codec.decodeAccountId(sender)));
      }
    }
    expect(BigInt(transactionCount)).toBe(sourceStatus.transactionCount);
    expect(accounts.size).toBeGreaterThan(1);
    // The account index, which import derived again from the verified bytes.
    for (const [address, accountId] of accounts) {
      for (const direction of [Direction.UNSPECIFIED, Direction.IN, Direction.OUT]) {
        const request = { accountId, direction, forward: true, limit: 1000, ledgerRange: undefined, transactionType: '' };
        const [one, other] = await Promise.all([source.client.getAccountTransactions(request), copy.client.getAccountTransactions(request)]);
        expect(other.transactions.map((tx) => Buffer.from(tx.hash).toString('hex')), `${address} ${direction}`).toEqual(one.transactions.map((tx) => Buffer.from(tx.hash).toString('hex')));
      }
      const countRequest = { accountId, ledger: { selector: { $case: 'index' as const, index: ledgerCount } } };
      expect(await copy.client.getAccountTransactionCount(countRequest)).toEqual(await source.client.getAccountTransactionCount(countRequest));
    }
    await Promise.all([source.store.stop(), copy.store.stop()]);
  });

  it('skips every ledger the second time (resumable), writing nothing', () => {
    const { flags, env } = pgStore(target);
    const { code, stderr } = cli(['import', streamFile, ...flags], env);
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(new RegExp(`^import: ${ledgerCount} ledgers verified: 0 written, ${ledgerCount} already stored \\(skipped\\)`, 'm'));
  });

  it('exports the PostgreSQL store to the same ledger records', () => {
    const { flags, env } = pgStore(target);
    const again = path.join(dir, 'from-postgres.lnx');
    const { code, stderr } = cli(['export', again, ...flags], env);
    expect(code, stderr).toBe(0);
    const ledgerRecords = (file: string) => recordsOf(readFileSync(file)).filter((record) => record.kind !== SOURCE_KIND);
    expect(ledgerRecords(again).map((record) => record.payload.toString('hex'))).toEqual(ledgerRecords(streamFile).map((record) => record.payload.toString('hex')));
  });

  it('exports through -store_read the same ledger records as through -store, taking no lock: while a ledger-store writes the database', async () => {
    const { flags, env } = pgStore(target);
    const writer = await serveStore('export-writer', flags, env);
    await writer.store.waitFor(/writer: holds the ledger-store writer lock/);
    const payloads = (file: string) => recordsOf(readFileSync(file)).filter((record) => record.kind === LEDGER_KIND).map((record) => record.payload.toString('hex'));
    const throughWriterFlag = path.join(dir, 'through-store.lnx');
    const throughReaderFlag = path.join(dir, 'through-store-read.lnx');
    const viaStore = cli(['export', throughWriterFlag, ...flags], env);
    expect(viaStore.code, viaStore.stderr).toBe(0);
    const viaStoreRead = cli(['export', throughReaderFlag, ...readerFlags(flags)], env);
    expect(viaStoreRead.code, viaStoreRead.stderr).toBe(0);
    expect(viaStoreRead.stderr).toMatch(new RegExp(`^export: ${ledgerCount} ledgers with \\d+ transactions written to ${throughReaderFlag}$`, 'm'));
    expect(payloads(throughReaderFlag)).toHaveLength(ledgerCount);
    expect(payloads(throughReaderFlag)).toEqual(payloads(throughWriterFlag));
    expect(payloads(throughReaderFlag)).toEqual(payloads(streamFile));
    expect(viaStoreRead.stderr + viaStore.stderr).not.toContain(target.password);
    // The exports took nothing from the writer: it still holds the lock and takes writes.
    expect(await writer.client.getStatus({})).toMatchObject({ role: StoreRole.WRITER, ledgerCount: BigInt(ledgerCount) });
    await writer.store.stop();
  });
});

describe('ledger-node import and the PostgreSQL writer lock', () => {
  it('is refused at once, naming the database and the ledger-store that writes it, while a ledger-store runs on it; nothing is written', async () => {
    const db = await postgres.createDatabase();
    const { flags, env } = pgStore(db);
    const writer = await serveStore('running-writer', flags, env);
    await writer.store.waitFor(/writer: holds the ledger-store writer lock/);
    const started = Date.now();
    const refused = cli(['import', streamFile, ...flags], env);
    const tookMs = Date.now() - started;
    expect(refused.code, refused.stderr).toBe(1);
    const location = `the PostgreSQL database at postgres://${db.user}@${db.host}:${db.port}/${db.database}`;
    expect(refused.stderr.trim().split('\n').at(-1)).toBe(
      `import: a ledger-store writes ${location} (it holds the database's ledger-store writer lock): import does not write beside it; ` +
        'stop the node first (every ledger-store given this -store, or the other import), run import again, then start the node',
    );
    expect(refused.stderr).not.toContain(db.password);
    // Refused, not waited for: the lock is asked for once.
    expect(tookMs).toBeLessThan(20_000);
    expect(refused.stderr).not.toMatch(/import: (verifying|writing)/);

    // Nothing written: the database holds no ledger, as a reader sees it, and its writer still writes it.
    const empty = cli(['export', path.join(dir, 'refused-target.lnx'), ...readerFlags(flags)], env);
    expect(empty.code, empty.stderr).toBe(0);
    expect(empty.stderr).toMatch(/^export: 0 ledgers with 0 transactions written to /m);
    expect(await writer.client.getStatus({})).toMatchObject({ role: StoreRole.WRITER, completeRanges: [], ledgerCount: 0n });
    await writer.store.stop();

    // A reader's flag is refused before anything is opened: import writes.
    expect(cli(['import', streamFile, ...readerFlags(flags)], env)).toMatchObject({ code: 2, stderr: expect.stringContaining('-store_read opens a PostgreSQL store for reading: import writes, give -store') });

    // Once the node is stopped, the same import writes every ledger.
    const imported = cli(['import', streamFile, ...flags], env);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).toMatch(new RegExp(`^import: holds the ledger-store writer lock on ${location.replace(/[.]/g, '\\.')}; a ledger-store started on it meanwhile waits as a standby$`, 'm'));
    expect(imported.stderr).toMatch(new RegExp(`^import: ${ledgerCount} ledgers verified: ${ledgerCount} written`, 'm'));
  });

  it('holds the lock while it runs: a ledger-store started meanwhile is a standby, and takes over once the import ends', async () => {
    const db = await postgres.createDatabase();
    const { flags, env } = pgStore(db);
    const longer = longerStream();
    const { importing, resume } = await pausedImport(longer.file, flags, env);
    let standby: Awaited<ReturnType<typeof serveStore>>;
    try {
      standby = await serveStore('during-import', flags, env);
      await standby.store.waitFor(/standby: another ledger-store holds the ledger-store writer lock/);
      expect(await standby.client.getStatus({})).toMatchObject({ role: StoreRole.STANDBY });
    } finally {
      resume();
    }
    expect(await importing.exited, importing.output()).toBe(0);
    expect(importing.output()).toMatch(new RegExp(`^import: ${longer.ledgers} ledgers verified: ${longer.ledgers} written, 0 already stored`, 'm'));
    // The import gave the lock up as it ended: the standby takes over, with every imported ledger.
    await waitUntil(async () => (await standby.client.getStatus({})).role === StoreRole.WRITER || undefined, 30_000, 'the standby to take over', 100);
    expect((await standby.client.getStatus({})).completeRanges).toEqual([
      { first: 1, last: ledgerCount },
      { first: ADDED_FROM, last: ADDED_FROM + ADDED_LEDGERS - 1 },
    ]);
    expect(importing.output() + standby.store.output()).not.toContain(db.password);
    await standby.store.stop();
  });

  it('stops writing at once with a clear error when it loses the lock (its lock session ended); run again, it completes the store', async () => {
    const db = await postgres.createDatabase();
    const { flags, env } = pgStore(db);
    const longer = longerStream();
    const { importing, resume } = await pausedImport(longer.file, flags, env);
    const sql = new pg.Client(db);
    await sql.connect();
    try {
      const ended = await sql.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'ledger-node ledger-store writer lock'`);
      expect(ended.rowCount).toBe(1);
    } finally {
      resume();
      await sql.end();
    }
    expect(await importing.exited, importing.output()).toBe(1);
    const location = `the PostgreSQL database at postgres://${db.user}@${db.host}:${db.port}/${db.database}`;
    expect(importing.output().trim().split('\n').at(-1)).toMatch(
      new RegExp(
        `^import: lost the ledger-store writer lock on ${location.replace(/[.]/g, '\\.')}: .+; import stopped writing at once, as another process may write the database from now on: ` +
          'the ledgers written so far are stored whole; run import again \\(it skips them\\) once no ledger-store writes the database$',
      ),
    );
    expect(importing.output()).not.toMatch(new RegExp(`^import: ${longer.ledgers} ledgers verified`, 'm'));
    expect(importing.output()).not.toContain(db.password);

    const again = cli(['import', longer.file, ...flags], env);
    expect(again.code, again.stderr).toBe(0);
    const summary = new RegExp(`^import: ${longer.ledgers} ledgers verified: (\\d+) written, (\\d+) already stored`, 'm').exec(again.stderr);
    expect(summary, again.stderr).not.toBeNull();
    expect(Number(summary![1]) + Number(summary![2])).toBe(longer.ledgers);
    expect(Number(summary![1])).toBeGreaterThan(0);
  });
});

describe('ledger-node import of a bad stream', () => {
  /** A ledger in the middle of the stream with transactions. */
  const victim = () => ledgersIn(recordsOf(readFileSync(streamFile))).find((ledger) => ledger.ledgerIndex > 5 && ledger.transactions.length > 0)!;

  /** Imports `bytes` into a fresh database: refused (exit 1) naming the ledger; then the good stream writes every ledger, so nothing of the bad one was stored. */
  async function refusedWithNothingStored(bytes: Buffer, ledgerIndex: number, reason: RegExp, named = new RegExp(`^import: .*ledger ${ledgerIndex}\\b`)) {
    const db = await postgres.createDatabase();
    const { flags, env } = pgStore(db);
    const bad = path.join(dir, `bad-${ledgerIndex}-${Date.now()}.lnx`);
    writeFileSync(bad, bytes);
    const refused = cli(['import', bad, ...flags], env);
    expect(refused.code, refused.stderr).toBe(1);
    const lastLine = refused.stderr.trim().split('\n').at(-1)!;
    expect(lastLine).toMatch(named);
    expect(lastLine).toMatch(reason);
    expect(refused.stderr).not.toMatch(/^\s+at /m);
    const good = cli(['import', streamFile, ...flags], env);
    expect(good.code, good.stderr).toBe(0);
    expect(good.stderr).toMatch(new RegExp(`^import: ${ledgerCount} ledgers verified: ${ledgerCount} written, 0 already stored`, 'm'));
  }

  it('refuses a forged transaction (its hash recomputed): the ledger\'s transaction tree does not match its header', async () => {
    const { ledgerIndex } = victim();
    const forged = withLedger(recordsOf(readFileSync(streamFile)), ledgerIndex, (ledger) => {
      const tx = ledger.transactions[0]!;
      const txBlob = Buffer.from(tx.txBlob);
      txBlob[txBlob.length - 1]! ^= 0x01;
      return { ...ledger, transactions: [{ ...tx, txBlob, hash: Buffer.from(hashTransaction(txBlob), 'hex') }, ...ledger.transactions.slice(1)] };
    });
    await refusedWithNothingStored(forged, ledgerIndex, /does not verify \(transaction_tree_mismatch\): the transactions of ledger \d+ hash to the tree root [0-9A-F]{64}, not the header's transaction_hash [0-9A-F]{64}$/);
  });

  it('refuses a broken parent link (the header re-hashed): the ledger does not link to the one before it', async () => {
    const { ledgerIndex } = victim();
    const relinked = withLedger(recordsOf(readFileSync(streamFile)), ledgerIndex, (ledger) => {
      const header = decodeLedgerHeader(ledger.headerBlob);
      header.parentHash = 'AB'.repeat(32);
      return { ...ledger, headerBlob: encodeLedgerHeader(header), ledgerHash: Buffer.from(hashLedgerHeader(header), 'hex') };
    });
    await refusedWithNothingStored(relinked, ledgerIndex, new RegExp(`does not link to ledger ${ledgerIndex - 1} before it in the stream: its parent_hash is ${'AB'.repeat(32)}, ledger ${ledgerIndex - 1} hashes to [0-9A-F]{64}$`));
  });

  it('refuses a forged history whose every hash was recomputed (an XRP Payment changed, its ledger and each above re-hashed): the evidence it carries is not of it', async () => {
    const { bytes, firstEvidenced } = forgedHistory('kept');
    await refusedWithNothingStored(bytes, firstEvidenced, /the evidence of ledger \d+ is not that ledger's: evidence\.validations\[0\] validates ledger \d+ [0-9A-F]{64}, not ledger \d+ [0-9A-F]{64}$/);
  });

  it('refuses a stream cut inside a record, naming the ledger it holds', async () => {
    const { ledgerIndex } = victim();
    const bytes = readFileSync(streamFile);
    const record = recordsOf(bytes).find((each) => each.kind === LEDGER_KIND && LedgerWrite.decode(each.payload).ledgerIndex === ledgerIndex)!;
    await refusedWithNothingStored(bytes.subarray(0, record.offset + 5 + Math.floor(record.payload.length / 2)), ledgerIndex, /the stream is cut: the LEDGER record of ledger \d+ \(record \d+, after ledger \d+\) of \d+ bytes ends after \d+ of them$/);
  });
});

describe('ledger-node import of ledgers nothing proves, then a node following the network', () => {
  it('stores them unproven and serves none; sync removes the forged ones and proves the rest, ending with the network\'s chain', async () => {
    const { bytes, victimIndex, top } = forgedHistory('removed');
    const original = new Map(ledgersIn(recordsOf(readFileSync(streamFile))).map((ledger) => [ledger.ledgerIndex, ledger.ledgerHash.toString('hex')]));
    const forged = new Map(ledgersIn(recordsOf(bytes)).map((ledger) => [ledger.ledgerIndex, ledger.ledgerHash.toString('hex')]));
    const file = path.join(dir, 'unproven.lnx');
    writeFileSync(file, bytes);
    const db = await postgres.createDatabase();
    const { flags, env } = pgStore(db);
    const imported = cli(['import', file, ...flags], env);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).toContain(
      `import: ledgers 1-${top} are stored unproven (no evidence at or above them, and no stored ledger names the highest as its parent): no read serves them until sync`,
    );

    // Served by no read: not by index, not by hash, not its transactions; the status names them.
    const { store, client } = await serveStore('unproven', flags, env);
    const status = await client.getStatus({});
    expect(status.completeRanges).toEqual([]);
    expect(status.unprovenRanges).toEqual([{ first: 1, last: top }]);
    const victim = ledgersIn(recordsOf(bytes)).find((ledger) => ledger.ledgerIndex === victimIndex)!;
    expect((await client.getLedger({ ledger: { selector: { $case: 'index', index: victimIndex } }, txDetail: TxDetail.NONE })).ledger).toBeUndefined();
    expect((await client.getLedger({ ledger: { selector: { $case: 'hash', hash: victim.ledgerHash } }, txDetail: TxDetail.NONE })).ledger).toBeUndefined();
    expect((await client.getTransactions({ hashes: victim.transactions.map((tx) => tx.hash) })).transactions).toEqual([]);
    client.close();
    expect(await store.stop('SIGTERM', 20_000)).toBe(0);

    // A node on the store, following the network: its proven ledgers settle the unproven ones.
    const nodeDir = path.join(dir, 'unproven-node');
    const node = startProcess([cliEntry(), '-endpoint', devnetUrl, '-validators', validatorsFile, '-data_dir', nodeDir, ...flags, '-thread_count', '4'], { env });
    const watched = createGrpcClient(LedgerStoreServiceService, `unix:${path.join(nodeDir, 'run/ledger-store.sock')}`, { serviceLabel: 'ledger-store', deadlineMs: 5_000 });
    clients.push(watched);
    await waitUntil(
      async () => {
        const { completeRanges, unprovenRanges } = await watched.getStatus({}).catch(() => ({ completeRanges: [], unprovenRanges: [{ first: 0, last: 0 }] }));
        return unprovenRanges.length === 0 && completeRanges.length === 1 && completeRanges[0]!.first === 1 && completeRanges[0]!.last > top;
      },
      120_000,
      'the unproven ledgers to be settled, the store holding 1 to past the import',
    );
    for (let ledgerIndex = 1; ledgerIndex <= top; ledgerIndex++) {
      const ledger = await watched.getLedger({ ledger: { selector: { $case: 'index', index: ledgerIndex } }, txDetail: TxDetail.NONE });
      expect(ledger.ledger?.ledgerHash.toString('hex'), `ledger ${ledgerIndex}`).toBe(original.get(ledgerIndex));
    }
    expect(forged.get(victimIndex)).not.toBe(original.get(victimIndex));
    expect((await watched.getLedger({ ledger: { selector: { $case: 'hash', hash: victim.ledgerHash } }, txDetail: TxDetail.NONE })).ledger).toBeUndefined();
    // Said once per span: the forged ones removed, the rest proven.
    const output = node.output();
    expect(output).toMatch(new RegExp(`removed imported ledgers \\d+-\\d+, which the network contradicts`));
    expect(output).toMatch(new RegExp(`"msg":"imported ledgers 1-${victimIndex - 1}, unproven until now, are proven by the network's ledger ${victimIndex} and served"`));
    expect(output).not.toMatch(/"level":"(error|fatal)"/);
    expect(await node.stop('SIGTERM', 20_000)).toBe(0);
  }, 240_000);
});

describe('ledger-node export --help and import --help', () => {
  it('describe each command: the store flags, what is verified, what the stream leaves out', () => {
    const exportHelp = cli(['export', '--help']);
    expect(exportHelp.code).toBe(0);
    expect(exportHelp.stdout).toMatch(/^Usage: ledger-node export FILE\|- \[store flags\]/);
    for (const text of ['-store postgres://', 'stop the node first', 'Not in the stream: the account state', 'FILE.partial']) expect(exportHelp.stdout).toContain(text);
    const importHelp = cli(['help', 'import']);
    expect(importHelp.code).toBe(0);
    expect(importHelp.stdout).toMatch(/^Usage: ledger-node import FILE \[store flags\]/);
    for (const text of ['verified before it is', 'FILE is read twice', 'skipped: an interrupted import resumes', '-store_read is refused']) expect(importHelp.stdout).toContain(text);
    const general = cli(['--help']).stdout;
    expect(general).toContain('ledger-node export FILE|-');
    expect(general).toContain('ledger-node import FILE');
  });
});
