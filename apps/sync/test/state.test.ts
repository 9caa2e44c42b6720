import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { currencyToBytes, getProfile, keylet } from '@ledger-node/chain';
import { ForgingProxy } from './support/forging-proxy';
import { fromItemError } from '@ledger-node/grpc';
import { cliEntry, devnetValidatorsFile, rejectionOf, startProcess, stopAll, STORE_KINDS, storeServer, waitUntil, type StoreKind } from '@ledger-node/test-utils';
import rocksdb from 'rocksdb';
import { clientsFor, opened, scratchDir, serving, startDevnet, startLedgerStore, startStoreAndSync, WsClient, type Clients } from './support/cluster';

const cleanups: (() => void)[] = [];
afterEach(async () => {
  await stopAll();
  for (const cleanup of cleanups.splice(0)) cleanup();
});

const xrpl = getProfile('xrpl');
const upper = (bytes: Buffer | Uint8Array) => Buffer.from(bytes).toString('hex').toUpperCase();

/** `ledger-node verify-state -ledger N` against the store of `dataDir`: exit code and output. */
async function verifyState(dataDir: string, ledgerIndex: number): Promise<{ code: number | string; output: string }> {
  const run = startProcess([cliEntry(), 'verify-state', '-ledger', String(ledgerIndex), '-data_dir', dataDir]);
  const code = await run.exited;
  return { code, output: run.output() };
}

async function syncedWithState(clients: Clients) {
  return waitUntil(async () => {
    const [sync, store] = await Promise.all([clients.sync.getSyncStatus({}), clients.store.getStatus({})]);
    const range = store.completeRanges[0];
    // Backfill has reached genesis and the state window covers all of it.
    // A few ledgers above the download ledger too, so that ledgers on both sides are asked for.
    const above = store.stateRange !== undefined && store.stateRange.last >= store.stateDownload!.ledgerIndex + 3;
    return sync.stateReady && store.completeRanges.length === 1 && range!.first === 1 && store.stateRange?.first === 1 && above ? store : undefined;
  }, 90_000, 'state download complete and history backfilled to genesis', 250);
}

/** An account's root and trust lines at a ledger as the store answers them (GetAccountStates, one read); a refusal is thrown. */
async function storedAccountState(clients: Clients, accountId: Buffer, ledgerIndex: number) {
  const { results } = await clients.store.getAccountStates({ requests: [{ accountId, ledger: { selector: { $case: 'index', index: ledgerIndex } } }] });
  const result = results[0]?.result;
  if (result?.$case === 'error') throw fromItemError(result.error);
  if (result?.$case !== 'state') throw new Error(`GetAccountStates answered no result for ledger ${ledgerIndex}`);
  return result.state;
}

/** Binary object at a ledger as the devnet serves it; undefined when it does not exist there. */
async function servedObject(upstream: WsClient, query: Record<string, unknown>, ledgerIndex: number): Promise<string | undefined> {
  const answer = await upstream.request('ledger_entry', { ...query, ledger_index: ledgerIndex, binary: true });
  if (answer.status !== 'success') {
    expect(answer.error).toBe('entryNotFound');
    return undefined;
  }
  return String(answer.result.node_binary).toUpperCase();
}

/** Sent transactions per account and ledger, read from the devnet's ledgers 1..last. */
async function sentPerLedger(upstream: WsClient, last: number): Promise<Map<number, Map<string, number>>> {
  const sent = new Map<number, Map<string, number>>();
  for (let ledgerIndex = 1; ledgerIndex <= last; ledgerIndex++) {
    const answer = await upstream.request('ledger', { ledger_index: ledgerIndex, transactions: true, expand: true });
    const counts = new Map<string, number>();
    for (const tx of answer.result.ledger.transactions ?? []) counts.set(tx.Account, (counts.get(tx.Account) ?? 0) + 1);
    sent.set(ledgerIndex, counts);
  }
  return sent;
}

function putRaw(location: string, key: Buffer, value: Buffer): Promise<void> {
  const db = (rocksdb as unknown as (location: string) => any)(location);
  return new Promise((resolve, reject) =>
    db.open({ createIfMissing: false }, (openError: Error | undefined) => {
      if (openError) return reject(openError);
      db.put(key, value, (putError: Error | undefined) => db.close(() => (putError ? reject(putError) : resolve())));
    }),
  );
}

function getRaw(location: string, key: Buffer): Promise<Buffer> {
  const db = (rocksdb as unknown as (location: string) => any)(location);
  return new Promise((resolve, reject) =>
    db.open({ createIfMissing: false }, (openError: Error | undefined) => {
      if (openError) return reject(openError);
      db.get(key, { asBuffer: true }, (getError: Error | undefined, value: Buffer) => db.close(() => (getError ? reject(getError) : resolve(value))));
    }),
  );
}

describe('account state synced from a loaded devnet', () => {
  const servers = new Map<StoreKind, ReturnType<typeof storeServer>>(STORE_KINDS.map((kind) => [kind, storeServer(kind)]));
  afterAll(() => Promise.all([...servers.values()].map((server) => server.stop())));

  it.each(STORE_KINDS)('answers account roots, trust lines and sent counts exactly as the devnet at past ledgers, below and above the download ledger, on %s; verify-state checks roots', async (kind) => {
    const devnet = await startDevnet(['-load', '15', '-load_accounts', '6', '-close_ms', '150']);
    const upstream = await WsClient.open(devnet.url);
    cleanups.push(() => upstream.close());
    // History before the node starts, so the download ledger is above genesis and backfill runs below
    // it, more ledgers than the state prover reads at once on its way down (READ_AHEAD).
    await waitUntil(async () => {
      const closed = await upstream.request('ledger_closed');
      return closed.result.ledger_index >= 40 ? closed : undefined;
    }, 60_000, 'devnet history', 200);

    const dataDir = scratchDir(cleanups);
    const { store, sync, clients } = await startStoreAndSync(dataDir, devnet.url, ['-thread_count', '4'], cleanups, await servers.get(kind)!.fresh());
    const status = await syncedWithState(clients);
    const downloadLedger = status.stateDownload!.ledgerIndex;
    const { first, last } = status.stateRange!;
    expect(downloadLedger).toBeGreaterThan(20);
    expect(last).toBeGreaterThan(downloadLedger + 2);

    // Every account of the newest ledger, at ledgers below, at and above the download ledger.
    const data = await upstream.request('ledger_data', { ledger_index: last, type: 'account' });
    const addresses: string[] = data.result.state.map((entry: { Account: string }) => entry.Account);
    expect(addresses.length).toBeGreaterThanOrEqual(7);
    const ledgers = [...new Set([2, 5, Math.floor(downloadLedger / 2), downloadLedger - 1, downloadLedger, downloadLedger + 1, last])];
    const sent = await sentPerLedger(upstream, last);
    let compared = 0;
    for (const ledgerIndex of ledgers) {
      for (const address of addresses) {
        const accountId = Buffer.from(xrpl.codec.decodeAccountId(address));
        const state = await storedAccountState(clients, accountId, ledgerIndex);
        expect(state.ledgerIndex).toBe(ledgerIndex);
        const root = await servedObject(upstream, { account_root: address }, ledgerIndex);
        expect([ledgerIndex, address, state.accountRootBlob && upper(state.accountRootBlob)]).toEqual([ledgerIndex, address, root]);
        const lines = root ? await upstream.request('account_lines', { account: address, ledger_index: ledgerIndex }) : undefined;
        const servedLines: string[] = [];
        for (const line of lines?.result.lines ?? []) {
          const key = keylet.rippleState(accountId, xrpl.codec.decodeAccountId(line.account), currencyToBytes(line.currency, xrpl.nativeCurrency));
          servedLines.push((await servedObject(upstream, { index: key }, ledgerIndex))!);
        }
        expect(state.trustLineBlobs.map(upper).sort()).toEqual(servedLines.sort());

        const count = await clients.store.getAccountTransactionCount({ accountId, ledger: { selector: { $case: 'index', index: ledgerIndex } } });
        let expectedSent = 0;
        for (let index = 1; index <= ledgerIndex; index++) expectedSent += sent.get(index)!.get(address) ?? 0;
        expect([ledgerIndex, address, count.sentCount]).toEqual([ledgerIndex, address, BigInt(expectedSent)]);
        expect(count.coversAccountLifetime).toBe(true);
        expect(count.earliestStoredLedgerIndex).toBe(1);
        compared++;
      }
    }
    expect(compared).toBeGreaterThanOrEqual(ledgers.length * 7);

    for (const ledgerIndex of [first, Math.floor(downloadLedger / 2), downloadLedger, last]) {
      const verified = await verifyState(dataDir, ledgerIndex);
      expect([ledgerIndex, verified.code]).toEqual([ledgerIndex, 0]);
      expect(verified.output).toMatch(new RegExp(`the stored state at ledger ${ledgerIndex} verifies`));
    }

    // Tampering: one account's version at a ledger, and another ledger's stored account_hash, in RocksDB's own keys.
    if (kind !== 'rocksdb') return;
    await sync.stop();
    await store.stop();
    const database = `${dataDir}/node.db`;
    const tamperedLedger = downloadLedger - 1;
    const accountKey = Buffer.from(keylet.account(xrpl.codec.decodeAccountId(addresses[0]!)), 'hex');
    const versionKey = (ledgerIndex: number) => {
      const ledger = Buffer.alloc(4);
      ledger.writeUInt32BE(ledgerIndex);
      return Buffer.concat([Buffer.of(0x07), accountKey, ledger]);
    };
    const served = Buffer.from((await servedObject(upstream, { account_root: addresses[0] }, tamperedLedger))!, 'hex');
    served[served.length - 1] ^= 0x01;
    await putRaw(database, versionKey(tamperedLedger), served);
    const headerLedger = downloadLedger + 1;
    const headerKey = Buffer.alloc(5);
    headerKey.writeUInt8(0x01, 0);
    headerKey.writeUInt32BE(headerLedger, 1);
    const header = await getRaw(database, headerKey);
    header[76] ^= 0xff; // first byte of account_hash: u32 seq, u64 drops, parent hash, tx hash precede it
    await putRaw(database, headerKey, header);
    await serving(startLedgerStore(dataDir));

    const tampered = await verifyState(dataDir, tamperedLedger);
    expect(tampered.code).toBe(1);
    expect(tampered.output).toMatch(new RegExp(`the stored state at ledger ${tamperedLedger} does not verify`));
    const wrongHeader = await verifyState(dataDir, headerLedger);
    expect(wrongHeader.code).toBe(1);
    expect(wrongHeader.output).toMatch(/does not verify: its root is [0-9A-F]{64}, the header's account_hash is [0-9A-F]{64}/);
    // A ledger above both tamperings still verifies.
    expect((await verifyState(dataDir, last)).code).toBe(0);
  });

  it('stores no object the upstream forged: ledger_entry answers changed on the way are refused by the state root, counted, said in state_not_ready, and the state proven once they are honest', async () => {
    const devnet = await startDevnet(['-load', '15', '-load_accounts', '4', '-close_ms', '150']);
    const upstream = await WsClient.open(devnet.url);
    cleanups.push(() => upstream.close());
    await waitUntil(async () => {
      const closed = await upstream.request('ledger_closed');
      return closed.result.ledger_index >= 20 ? closed : undefined;
    }, 60_000, 'devnet history', 200);
    const proxy = await ForgingProxy.start(devnet.url);
    cleanups.push(() => void proxy.close());
    // Every object read one by one arrives with its last byte changed: a forged skip list, a forged balance.
    proxy.forge('ledger_entry', (answer) => {
      const blob: unknown = answer.result?.node_binary;
      if (typeof blob !== 'string') return undefined;
      const last = (parseInt(blob.slice(-2), 16) ^ 1).toString(16).padStart(2, '0');
      return { ...answer, result: { ...answer.result, node_binary: `${blob.slice(0, -2)}${last}` } };
    });

    const dataDir = scratchDir(cleanups);
    const { clients } = await startStoreAndSync(dataDir, proxy.url, ['-thread_count', '2'], cleanups);
    const refused = await waitUntil(async () => {
      const [sync, store] = await Promise.all([clients.sync.getSyncStatus({}), clients.store.getStatus({})]);
      const mismatches = sync.verificationFailuresByReason.state_root_mismatch ?? 0n;
      return store.stateDownload?.complete && mismatches >= 3n && store.completeRanges[0]?.first === 1 && sync.stateNotReady?.startsWith('state proofs') ? { sync, store, mismatches } : undefined;
    }, 90_000, 'state download complete and forged images refused', 250);
    // Downloaded, but no ledger above it proven: not ready, and why.
    expect(refused.sync.stateReady).toBe(false);
    expect(refused.sync.stateNotReady).toMatch(/^state proofs stopped above ledger \d+: the state after ledger \d+ has root [0-9A-F]{64}, not the account_hash [0-9A-F]{64}$/);
    expect(proxy.forged.get('ledger_entry')).toBeGreaterThan(0);
    // Only the verified download is state: no ledger around it took a forged image.
    const downloadLedger = refused.store.stateDownload!.ledgerIndex;
    expect(refused.store.stateRange).toEqual({ first: downloadLedger, last: downloadLedger });
    const above = await rejectionOf<Error>(clients.store.listStateObjects({ ledgerIndex: downloadLedger + 1, afterKey: Buffer.alloc(0), limit: 1, beforeKey: Buffer.alloc(0) }));
    expect(above.message).toMatch(/state/i);
    expect((await verifyState(dataDir, downloadLedger)).code).toBe(0);

    // Honest again: the same ledgers are proven, down to the first ledger and up with the tip.
    proxy.forge('ledger_entry', undefined);
    const status = await syncedWithState(clients);
    const { first, last } = status.stateRange!;
    for (const ledgerIndex of [first, downloadLedger - 1, downloadLedger + 1, last]) {
      const verified = await verifyState(dataDir, ledgerIndex);
      expect([ledgerIndex, verified.code, verified.output]).toEqual([ledgerIndex, 0, expect.stringContaining('verifies')]);
    }
    const sync = await clients.sync.getSyncStatus({});
    expect(sync.verificationFailuresByReason.state_root_mismatch).toBeGreaterThanOrEqual(refused.mismatches);
  }, 240_000);

  it.each(STORE_KINDS)('resumes a state download killed between pages from its stored marker, on %s', async (kind) => {
    const devnet = await startDevnet(['-load', '20', '-load_accounts', '40', '-close_ms', '200']);
    const upstream = await WsClient.open(devnet.url);
    cleanups.push(() => upstream.close());
    await waitUntil(async () => {
      const closed = await upstream.request('ledger_closed');
      return closed.result.ledger_index >= 10 ? closed : undefined;
    }, 60_000, 'devnet history', 200);

    const dataDir = scratchDir(cleanups);
    const storeUnderTest = await servers.get(kind)!.fresh();
    const storeProcess = startLedgerStore(dataDir, storeUnderTest);
    await serving(storeProcess);
    await opened(storeProcess, storeUnderTest);
    const env = { LEDGER_NODE_STATE_PAGE_SIZE: '4' };
    const syncArgs = [cliEntry(), 'serve', 'sync', '-data_dir', dataDir, '-endpoint', devnet.url, '-validators', devnetValidatorsFile(dataDir), '-log_level', 'debug'];
    const first = startProcess(syncArgs, { env });
    const stored = await first.waitFor(/stored state page 3 of ledger (\d+)/, 60_000);
    await first.stop('SIGKILL');
    const downloadLedger = Number(stored[1]);

    const clients = clientsFor(dataDir);
    cleanups.push(() => clients.close());
    const progress = (await clients.store.getStatus({})).stateDownload!;
    expect(progress.ledgerIndex).toBe(downloadLedger);
    expect(progress.complete).toBe(false);
    expect(progress.marker.length).toBeGreaterThan(0);
    expect(Number(progress.objectCount) % 4).toBe(0);

    const second = startProcess(syncArgs, { env });
    await second.waitFor(new RegExp(`resuming the state download at ledger ${downloadLedger} from its marker`), 30_000);
    await second.waitFor(new RegExp(`account state downloaded and verified at ledger ${downloadLedger}`), 60_000);
    // The resumed run's first page adds to the objects stored before the kill.
    expect(second.output()).not.toContain('"objectCount":"4","pages":1');
    const done = (await clients.store.getStatus({})).stateDownload!;
    const served = await upstream.request('ledger_data', { ledger_index: downloadLedger, binary: true, limit: 2048 });
    expect(done).toMatchObject({ ledgerIndex: downloadLedger, complete: true });
    expect(Number(done.objectCount)).toBe(served.result.state.length);
    expect((await verifyState(dataDir, downloadLedger)).code).toBe(0);
  });
});
