/**
 * One chain, one owner, end to end: a store that holds one devnet's chain is never followed by
 * another devnet's ledgers (sync stops, naming both hashes, and never says it is in sync), a
 * forged stored ledger goes with the account state stored at it once a proven ledger contradicts
 * it, and an upstream that never answers `ledger` costs seconds before a healthy endpoint stores
 * the next ledger.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { decodeLedgerHeader, encodeLedgerHeader, getProfile, hashLedgerHeader, verifyLedger, type VerifiedLedger } from '@ledger-node/chain';
import { TxDetail, type StateObject } from '@ledger-node/contracts';
import { fromItemError } from '@ledger-node/grpc';
import { createLogger } from '@ledger-node/telemetry';
import { stopAll, waitUntil } from '@ledger-node/test-utils';
import { ledgerWriteOf } from '../src/index/ledger-write';
import { SyncHealth } from '../src/sync-health';
import { ForgingProxy } from './support/forging-proxy';
import { clientsFor, opened, scratchDir, serving, startDevnet, startLedgerStore, startStoreAndSync, startSync, WsClient } from './support/cluster';

const cleanups: (() => void)[] = [];
afterEach(async () => {
  await stopAll();
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** A ledger-store of its own, no sync yet, and clients for its data directory. */
async function storeAlone() {
  const dataDir = scratchDir(cleanups);
  const store = startLedgerStore(dataDir);
  await serving(store);
  await opened(store);
  const clients = clientsFor(dataDir);
  cleanups.push(() => clients.close());
  return { dataDir, clients };
}

describe('a store that holds another chain than the upstream', () => {
  it("stops sync loudly, naming the ledger and both hashes; nothing of the other chain is stored, and it is not in sync", async () => {
    const first = await startDevnet(['-close_ms', '100', '-idle_close_ms', '100']);
    const { dataDir, clients } = await storeAlone();
    let sync = startSync(dataDir, first.url);
    await serving(sync);
    const before = await waitUntil(async () => {
      const status = await clients.sync.getSyncStatus({});
      return status.completeRanges.length === 1 && status.completeRanges[0]!.first === 1 && status.currentLedgerIndex >= 30 ? status : undefined;
    }, 60_000, 'ledgers 1-30 of the first devnet', 200);
    const identity = (await clients.store.getStatus({})).chainIdentity!;
    expect(identity.ledgerIndex).toBeGreaterThan(1);
    await sync.stop();
    await first.process.stop();

    // A new devnet: a new chain from genesis (its payments make its ledgers others than the first's
    // empty ones), with the same validators (public-entropy keys), behind the store.
    const second = await startDevnet(['-close_ms', '100', '-idle_close_ms', '100', '-load', '5', '-load_accounts', '3']);
    sync = startSync(dataDir, second.url);
    await serving(sync);
    const stopped = await waitUntil(async () => {
      const status = await clients.sync.getSyncStatus({});
      return status.stopped !== undefined ? status : undefined;
    }, 30_000, 'sync stopped', 200).catch((error: Error) => {
      throw new Error(`${error.message}\n${sync.output().split('\n').filter((line) => !line.includes('behind the upstream')).join('\n').slice(-6000)}`);
    });
    expect(stopped.stopped).toMatch(/^stored chain is not the upstream's: ledger (\d+) is ([0-9A-F]{64}) here and ([0-9A-F]{64}) there$/);
    const [, ledgerIndex, ours, theirs] = /ledger (\d+) is ([0-9A-F]{64}) here and ([0-9A-F]{64}) there/.exec(stopped.stopped!)!;
    const storedThere = await clients.store.getLedger({ ledger: { selector: { $case: 'index', index: Number(ledgerIndex) } }, txDetail: TxDetail.NONE });
    expect(Buffer.from(storedThere.ledger!.ledgerHash).toString('hex').toUpperCase()).toBe(ours);
    expect(theirs).not.toBe(ours);
    expect(stopped.syncing).toBe(true);
    expect(stopped.verificationFailuresByReason.foreign_chain).toBe(1n);
    // Nothing of the second chain is stored, while it runs on.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const after = await clients.sync.getSyncStatus({});
    expect(after.completeRanges).toEqual(before.completeRanges.length === 1 ? [{ first: 1, last: after.completeRanges[0]!.last }] : after.completeRanges);
    expect(after.currentLedgerIndex).toBeLessThanOrEqual(before.currentLedgerIndex + 5);
    expect(after.stopped).toBe(stopped.stopped);
    expect(after.lagLedgers).toBeGreaterThan(0);
    expect((await clients.store.getStatus({})).chainIdentity).toEqual(identity);
  });
});

describe('a forged stored ledger with account state stored at it', () => {
  const xrpl = getProfile('xrpl');
  const upper = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex').toUpperCase();

  /** The devnet's ledger as served in binary, verified; `closeTimeShift` re-hashes it with another close time, as a forger would. */
  async function servedLedger(upstream: WsClient, ledgerIndex: number, closeTimeShift = 0): Promise<VerifiedLedger> {
    const served = await upstream.request('ledger', { ledger_index: ledgerIndex, binary: true, transactions: true, expand: true });
    const header = decodeLedgerHeader(served.result.ledger.ledger_data);
    const shifted = { ...header, closeTime: header.closeTime + closeTimeShift };
    const verified = verifyLedger({
      ledgerIndex,
      headerBlob: encodeLedgerHeader(shifted),
      ledgerHash: hashLedgerHeader(shifted),
      transactions: served.result.ledger.transactions.map((tx: { tx_blob: Buffer; meta: Buffer }) => ({ txBlob: tx.tx_blob, metaBlob: tx.meta })),
    });
    if (!verified.ok) throw new Error(verified.failure.message);
    return verified.ledger;
  }

  /** Every state object after the devnet's ledger, as ledger_data serves it. */
  async function servedState(upstream: WsClient, ledgerIndex: number): Promise<StateObject[]> {
    const objects: StateObject[] = [];
    let marker: string | number | undefined;
    do {
      const page = await upstream.request('ledger_data', { ledger_index: ledgerIndex, binary: true, limit: 256, ...(marker === undefined ? {} : { marker }) });
      for (const entry of page.result.state as { index: string; data: string }[]) {
        const blob = Buffer.from(entry.data, 'hex');
        const ledgerEntryType = xrpl.definitions.ledgerEntryType.from(String(blob.readUInt16BE(1)))?.name ?? '';
        objects.push({ key: Buffer.from(entry.index, 'hex'), blob, ledgerEntryType, ownerAccountIds: [] });
      }
      marker = page.result.marker;
    } while (marker !== undefined);
    return objects;
  }

  it('is removed with that state once a proven ledger contradicts it; the state is downloaded again at a proven ledger, and the store ends equal to the devnet', async () => {
    const devnet = await startDevnet(['-load', '5', '-load_accounts', '3', '-close_ms', '200', '-idle_close_ms', '200']);
    const upstream = await WsClient.open(devnet.url);
    cleanups.push(() => upstream.close());
    await waitUntil(async () => ((await upstream.request('ledger_closed')).result.ledger_index >= 15 ? true : undefined), 60_000, 'devnet history', 200);

    // What an earlier, unproven writer left: the devnet's ledger 5 (the chain identity), ledger 10
    // re-hashed with another close time, and the state download done at that forged ledger (its
    // objects are the devnet's, so their root is the forged header's account_hash: state proves no more).
    const { dataDir, clients } = await storeAlone();
    const health = new SyncHealth(createLogger('sync', 'silent'));
    const forged = await servedLedger(upstream, 10, 10);
    await clients.store.putLedgers({ ledgers: [ledgerWriteOf(await servedLedger(upstream, 5), xrpl, health)] });
    await clients.store.putLedgers({ ledgers: [ledgerWriteOf(forged, xrpl, health)] });
    const objects = await servedState(upstream, 10);
    await clients.store.putStateObjects({ ledgerIndex: 10, objects, marker: Buffer.alloc(0), complete: true, abandon: false });
    expect((await clients.store.getStatus({})).stateRange).toEqual({ first: 10, last: 10 });

    const sync = startSync(dataDir, devnet.url, ['-thread_count', '2']);
    await serving(sync);
    const status = await waitUntil(async () => {
      const [current, stored] = await Promise.all([clients.sync.getSyncStatus({}), clients.store.getStatus({})]);
      const range = current.completeRanges[0];
      const stateAgain = stored.stateDownload?.complete === true && stored.stateDownload.ledgerIndex > 10 && stored.stateRange !== undefined;
      return current.completeRanges.length === 1 && range!.first === 1 && range!.last >= 20 && current.stateReady && stateAgain && current.stopped === undefined
        ? { current, stored }
        : undefined;
    }, 45_000, 'the forged ledger replaced and the state downloaded again', 200).catch((error: Error) => {
      throw new Error(`${error.message}\n${sync.output().slice(-6000)}`);
    });
    expect(status.current.verificationFailuresByReason.stored_ledger_unproven).toBe(1n);
    expect(status.current.verificationFailuresByReason.state_set_aside).toBe(1n);
    expect(sync.output()).toMatch(/the account state stored with ledger 10, which the network contradicts, was set aside with it/);

    // Every stored ledger is the devnet's; the forged one is served by no hash.
    const tip = status.current.completeRanges[0]!.last;
    for (let ledgerIndex = 1; ledgerIndex <= tip; ledgerIndex++) {
      const stored = await clients.store.getLedger({ ledger: { selector: { $case: 'index', index: ledgerIndex } }, txDetail: TxDetail.NONE });
      const served = await upstream.request('ledger', { ledger_index: ledgerIndex });
      expect([ledgerIndex, upper(stored.ledger!.ledgerHash)]).toEqual([ledgerIndex, served.result.ledger_hash]);
    }
    expect((await clients.store.getLedger({ ledger: { selector: { $case: 'hash', hash: forged.ledgerHash } }, txDetail: TxDetail.NONE })).ledger).toBeUndefined();

    // The account state answered now is the devnet's, at a ledger of the new state range.
    const at = status.stored.stateRange!.last;
    const root = objects.find((object) => object.ledgerEntryType === 'AccountRoot')!;
    const accountId = Buffer.from(xrpl.codec.decodeAccountId(xrpl.codec.decode(root.blob.toString('hex')).Account as string));
    const { results } = await clients.store.getAccountStates({ requests: [{ accountId, ledger: { selector: { $case: 'index', index: at } } }] });
    const result = results[0]!.result!;
    if (result.$case === 'error') throw fromItemError(result.error);
    const served = await upstream.request('ledger_entry', { index: upper(root.key), ledger_index: at, binary: true });
    expect(upper(result.state.accountRootBlob!)).toBe(String(served.result.node_binary).toUpperCase());
  });
});

describe('an upstream that never answers ledger', () => {
  it('costs seconds, not three request timeouts: a healthy second endpoint stores the next ledgers', async () => {
    const devnet = await startDevnet(['-close_ms', '200', '-idle_close_ms', '200']);
    // The first endpoint streams and answers everything but a ledger with its transactions.
    const silent = await ForgingProxy.start(devnet.url, {
      onMessage: (message) => message.request?.command === 'ledger' && message.request.transactions === true,
    });
    cleanups.push(() => void silent.close());
    const dataDir = scratchDir(cleanups);
    const { clients } = await startStoreAndSync(dataDir, `${silent.url},${devnet.url}`, [], cleanups);
    // Each ledger waits the 4 s deadline at most on the silent endpoint, then comes from the other at
    // once (three unanswered requests in a row then leave the silent one): well inside three 20 s timeouts.
    const status = await waitUntil(async () => {
      const current = await clients.sync.getSyncStatus({});
      return current.completeRanges.length > 0 && current.currentLedgerIndex - current.completeRanges[0]!.first >= 3 ? current : undefined;
    }, 25_000, 'ledgers stored through the second endpoint', 200);
    expect(status.verificationFailureCount).toBe(0n);
  });
});
