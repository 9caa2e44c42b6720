/**
 * Hostile upstream, as figures. Sync follows a devnet under load through two endpoints — first a
 * hostile proxy, then a sane one (a plain TCP proxy) — and proves ledgers by the devnet
 * validator's validations. From a printed seed the hostile endpoint forges the first page of the
 * state download, then runs one disturbance at a time, each kind once in `npm test` (in a seeded
 * order, with seeded details) and six times under `npm run soak`: ledgers with a forged header
 * hash, a wrong parent or account_hash (the header hashed again), a changed amount, a transaction
 * left out or added, changed metadata — served live or to backfill —, a self-consistent fork
 * announced at the tip (naming the tip as its parent, or another), validations withheld, ledgerClosed messages late, twice and long after,
 * malformed messages, a frame cut short, an oversize frame, a long silence and a storm of
 * disconnects.
 *
 * Each forged thing delivered must be refused for the reason it aims at (counted in sync's
 * verification_failures_by_reason), reads must keep being served, sync must fail over and catch
 * up; afterwards every stored ledger must be the devnet's, header, links and transactions alike.
 * Printed: `figures hostile-upstream: …`; stored_forged, crashes and read_failures must be 0.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { decodeLedgerHeader, getProfile, hashTransaction } from '@ledger-node/chain';
import { TxDetail } from '@ledger-node/contracts';
import {
  cliEntry,
  printFigures,
  quantile,
  runSeed,
  seededRandom,
  soaking,
  startProcess,
  stopAll,
  storedHeaders,
  waitUntil,
} from '@ledger-node/test-utils';
import { clientsFor, scratchDir, serving, startLedgerStore, startSync, WsClient, type Clients } from './support/cluster';
import { ForgingProxy } from './support/forging-proxy';
import { HostileUpstream, junkKinds, type ForkVariant, type JunkKind } from './support/hostile-upstream';
import { ledgerForgeryKinds, type LedgerForgeryKind } from './support/ledger-forgeries';
import { TcpProxy } from '@ledger-node/test-utils';

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  await stopAll();
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const xrpl = getProfile('xrpl');
const ROUNDS = soaking() ? 6 : 1;

const disturbanceKinds = [
  ...ledgerForgeryKinds,
  'fork_at_tip',
  'fork_off_tip',
  'withheld_validations',
  'stream_disorder',
  'malformed_messages',
  'truncated_frame',
  'oversize_frame',
  'silence',
  'disconnect_storm',
] as const;
type DisturbanceKind = (typeof disturbanceKinds)[number];

/** One disturbance, every choice drawn from the seed before the run starts (so a seed replays the plan). */
type Disturbance =
  | { kind: LedgerForgeryKind; count: number; target: 'live' | 'backfill' }
  | { kind: 'fork_at_tip' | 'fork_off_tip'; variant: ForkVariant }
  | { kind: 'withheld_validations'; ledgers: number }
  | { kind: 'stream_disorder' }
  | { kind: 'malformed_messages'; junk: JunkKind[] }
  | { kind: 'truncated_frame' | 'oversize_frame' }
  | { kind: 'silence' }
  | { kind: 'disconnect_storm'; drops: number; delaysMs: number[] };

/** The reasons each forgery must be refused for (apps/sync/src/verify/verify-ledger.ts). */
const refusalsAimedAt: Record<LedgerForgeryKind, { live: string[]; backfill: string[] }> = {
  forged_header_hash: { live: ['header_hash_mismatch'], backfill: ['header_hash_mismatch'] },
  // Self-consistent: live, the announced hash differs; in backfill, the stored child names another parent.
  wrong_parent: { live: ['header_hash_mismatch'], backfill: ['child_link_mismatch'] },
  wrong_account_hash: { live: ['header_hash_mismatch'], backfill: ['child_link_mismatch'] },
  changed_amount: { live: ['transaction_tree_mismatch'], backfill: ['transaction_tree_mismatch'] },
  dropped_transaction: { live: ['transaction_tree_mismatch'], backfill: ['transaction_tree_mismatch'] },
  added_transaction: { live: ['duplicate_transaction', 'transaction_tree_mismatch'], backfill: ['duplicate_transaction', 'transaction_tree_mismatch'] },
  changed_metadata: { live: ['transaction_tree_mismatch'], backfill: ['transaction_tree_mismatch'] },
};

/** Every reason a forged ledger or state download is refused for. */
const ledgerRefusals = [
  'header_hash_mismatch',
  'transaction_tree_mismatch',
  'transaction_hash_mismatch',
  'duplicate_transaction',
  'wrong_ledger_index',
  'malformed_header',
  'parent_hash_mismatch',
  'child_link_mismatch',
  'state_root_mismatch',
];

function planDisturbances(random: () => number): Disturbance[] {
  const between = (low: number, high: number) => low + Math.floor(random() * (high - low + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const plan: Disturbance[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const kinds: DisturbanceKind[] = [...disturbanceKinds];
    for (let position = kinds.length - 1; position > 0; position--) {
      const other = Math.floor(random() * (position + 1));
      [kinds[position], kinds[other]] = [kinds[other]!, kinds[position]!];
    }
    for (const kind of kinds) {
      switch (kind) {
        case 'forged_header_hash':
        case 'wrong_parent':
        case 'wrong_account_hash':
          plan.push({ kind, count: between(1, 3), target: pick(['live', 'backfill'] as const) });
          break;
        case 'changed_amount':
        case 'dropped_transaction':
        case 'added_transaction':
        case 'changed_metadata':
          // Backfill would ask for ledgers that may hold no transaction to change.
          plan.push({ kind, count: between(1, 3), target: 'live' });
          break;
        case 'fork_at_tip':
          // Valid-looking: it names the stored tip as its parent, so only the missing validations refuse it.
          plan.push({ kind, variant: 'same parent' });
          break;
        case 'fork_off_tip':
          plan.push({ kind, variant: 'other parent' });
          break;
        case 'withheld_validations':
          plan.push({ kind, ledgers: between(2, 8) });
          break;
        case 'malformed_messages':
          plan.push({ kind, junk: Array.from({ length: between(2, 5) }, () => pick(junkKinds)) });
          break;
        case 'disconnect_storm':
          plan.push({ kind, drops: between(3, 6), delaysMs: Array.from({ length: 8 }, () => pick([0, 0, 20, 200, 800])) });
          break;
        default:
          plan.push({ kind });
      }
    }
  }
  return plan;
}

const countOf = (byReason: Record<string, bigint>, reasons: readonly string[]) => reasons.reduce((sum, reason) => sum + Number(byReason[reason] ?? 0n), 0);

/** A devnet under load with 60 ledgers of history, so that backfill runs through the hostile endpoint from the start. */
async function startLoadedDevnet() {
  const devnet = startProcess([cliEntry(), 'devnet', '-port', '0', '-load', '10', '-load_accounts', '6', '-close_ms', '250'], {
    env: { LEDGER_NODE_DEVNET_HISTORY: '60x3' },
  });
  const match = await devnet.waitFor(/devnet listening on (ws:\/\/[^\s"]+)/, 60_000);
  return { process: devnet, url: match[1]! };
}

/** GetLedger from the store, over and over, at random stored ledgers; every failure is kept. */
function keepReading(clients: Clients, random: () => number) {
  let stopped = false;
  let reads = 0;
  const failures: string[] = [];
  const loop = (async () => {
    while (!stopped) {
      try {
        const { completeRanges } = await clients.store.getStatus({});
        const range = completeRanges[Math.floor(random() * completeRanges.length)];
        if (range) {
          const ledgerIndex = range.first + Math.floor(random() * (range.last - range.first + 1));
          const { ledger } = await clients.store.getLedger({ ledger: { selector: { $case: 'index', index: ledgerIndex } }, txDetail: TxDetail.FULL });
          reads++;
          if (ledger?.ledgerIndex !== ledgerIndex) failures.push(`ledger ${ledgerIndex} of a complete range was not served`);
        }
      } catch (error) {
        failures.push((error as Error).message);
      }
      // Paced, not waiting for anything: a steady trickle of reads beside the writes.
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  return {
    get reads() {
      return reads;
    },
    failures,
    async stop() {
      stopped = true;
      await loop;
    },
  };
}

describe('a hostile upstream beside a sane one', () => {
  it(`refuses every forged ledger and state page it delivers, stores only the devnet's ledgers, keeps serving reads, fails over and catches up (${ROUNDS * disturbanceKinds.length} disturbances)`, async () => {
    const seed = runSeed('hostile-upstream');
    const plan = planDisturbances(seededRandom(seed));

    const devnet = await startLoadedDevnet();
    const upstream = await WsClient.open(devnet.url);
    cleanups.push(() => upstream.close());
    const hostile = new HostileUpstream(xrpl, seededRandom(seed ^ 0x5bd1e995), upstream);
    const hostileProxy = await ForgingProxy.start(devnet.url, hostile);
    cleanups.push(() => hostileProxy.close());
    const devnetAddress = new URL(devnet.url);
    const saneProxy = await TcpProxy.start(devnetAddress.hostname, Number(devnetAddress.port));
    cleanups.push(() => saneProxy.close());
    const saneUrl = `ws://127.0.0.1:${saneProxy.port}`;

    const dataDir = scratchDir(cleanups);
    // The state is downloaded once, at the first ledger stored: its first page is forged from the start.
    hostile.forgeStatePages(1);
    const store = startLedgerStore(dataDir);
    await serving(store);
    const sync = startSync(dataDir, `${hostileProxy.url},${saneUrl}`, ['-thread_count', '4']);
    await serving(sync);
    const clients = clientsFor(dataDir);
    cleanups.push(() => clients.close());
    let checked = false;
    const exits: string[] = [];
    for (const [name, service] of [['ledger-store', store], ['sync', sync]] as const) {
      void service.exited.then((code) => {
        if (!checked) exits.push(`${name} exited (${code})`);
      });
    }
    const reader = keepReading(clients, seededRandom(seed + 7));
    cleanups.push(() => reader.stop());

    const refusals = async () => (await clients.sync.getSyncStatus({})).verificationFailuresByReason;
    const devnetValidated = async () => Number((await upstream.request('ledger_closed')).result.ledger_index);
    /** The store holds every ledger from genesis to at least `target`, in one range. */
    const levelWith = (target: number, what: string) =>
      waitUntil(async () => {
        const status = await clients.store.getStatus({});
        const ranges = status.completeRanges;
        return ranges.length === 1 && ranges[0]!.first === 1 && ranges[0]!.last >= target ? status : undefined;
      }, 120_000, `${what}: the store level with the devnet's ledger ${target}, without a gap`, 100);
    let saneCuts = 0;
    let failovers = 0;
    let subscribedTo = '';
    /** Sync's status; a move from the hostile endpoint to the sane one counts as a failover. */
    const syncStatusNow = async () => {
      const status = await clients.sync.getSyncStatus({});
      if (status.upstreamConnected && status.upstreamUrl !== subscribedTo) {
        if (subscribedTo === hostileProxy.url && status.upstreamUrl === saneUrl) failovers++;
        subscribedTo = status.upstreamUrl;
      }
      return status;
    };
    /** Sync is sent back to the hostile endpoint by dropping its sane connection once it is level there. */
    const nudgeOffSane = async () => {
      const status = await syncStatusNow();
      if (status.upstreamConnected && status.upstreamUrl === saneUrl && !status.syncing) {
        saneProxy.cut();
        saneProxy.restore();
        saneCuts++;
      }
      return status;
    };
    /**
     * A condition that needs the hostile stream: while it waits, sync is sent back whenever it has
     * left for the sane endpoint (having refused what the hostile one served, as it should).
     */
    const viaHostile = (done: () => boolean) => async () => done() || void (await nudgeOffSane());
    const onHostile = () =>
      waitUntil(async () => {
        const status = await nudgeOffSane();
        return status.upstreamConnected && status.upstreamUrl === hostileProxy.url && hostile.subscribedConnection() !== undefined;
      }, 90_000, 'sync subscribed through the hostile endpoint', 100);

    try {
      await levelWith(1, 'start');
      await waitUntil(async () => (await clients.sync.getSyncStatus({})).stateReady, 180_000, 'the account state downloaded and verified', 250);
    } catch (error) {
      throw new Error(`${(error as Error).message}\nhostile journal:\n${hostile.journal.join('\n')}\nsync:\n${sync.output().slice(-3000)}`);
    }
    // The forged page was refused by the state root, whole (a download is one refusal).
    const stateRootMismatches = Number((await refusals()).state_root_mismatch ?? 0n);
    expect(hostile.forgedStatePagesDelivered).toBe(1);
    expect(stateRootMismatches).toBeGreaterThanOrEqual(1);

    const catchUpsMs: number[] = [];
    let unprovenForks = 0;
    let silences = 0;
    const episodes: string[] = [];
    const run = async (disturbance: Disturbance) => {
      await onHostile();
      // Level and gap-free before anything is armed: a reconnect to the hostile endpoint may have left a gap for backfill.
      await levelWith(await devnetValidated(), `before ${disturbance.kind}`);
      const before = await refusals();
      const forgedBefore = new Map(hostile.forgedLedgersDelivered);
      const forgedSince = (kind: string) => hostile.forgedLedgersOf(kind) - (forgedBefore.get(kind) ?? 0);
      const junkBefore = hostile.junkDelivered;
      let hitAtMs = Date.now();
      switch (disturbance.kind) {
        case 'forged_header_hash':
        case 'wrong_parent':
        case 'wrong_account_hash':
        case 'changed_amount':
        case 'dropped_transaction':
        case 'added_transaction':
        case 'changed_metadata': {
          const { kind, count, target } = disturbance;
          if (target === 'live') {
            // Only ledgers fetched as announced: the follower asks for them with the announced hash.
            hostile.forgeLedgers(kind, count, (ledgerIndex) => hostile.wasAnnounced(ledgerIndex));
          } else {
            // Announcements withheld leave a gap above the tip: backfill asks for those ledgers, and gets them forged.
            const withheldBefore = hostile.withheldAnnouncements.length;
            hostile.withholdAnnouncements(count);
            hostile.forgeLedgers(kind, count, (ledgerIndex) => hostile.withheldAnnouncements.slice(withheldBefore).includes(ledgerIndex));
          }
          const deliveredAtLeast = (wanted: number) => viaHostile(() => forgedSince(kind) >= wanted);
          await waitUntil(deliveredAtLeast(1), 60_000, `a ${kind} ledger delivered (${target})`, 20);
          hitAtMs = Date.now();
          await waitUntil(deliveredAtLeast(count), 60_000, `${count} ${kind} ledgers delivered (${target})`, 50);
          hostile.honest();
          const delivered = forgedSince(kind);
          // Every answer sync gets is verified as it arrives, and backfill checks each ledger's link
          // before it takes the next; an episode starts level and gap-free, so no fill is cut short by newer work.
          const aimedAt = refusalsAimedAt[kind][target];
          await waitUntil(async () => countOf(await refusals(), aimedAt) - countOf(before, aimedAt) >= delivered, 60_000, `${delivered} ${kind} ledgers refused for ${aimedAt.join(' or ')}`, 100);
          break;
        }
        case 'fork_at_tip':
        case 'fork_off_tip': {
          hostile.forkAtNextAnnouncement(disturbance.variant);
          const fork = await waitUntil(async () => hostile.forkAnnounced ?? void (await nudgeOffSane()), 60_000, 'a fork announced at the tip', 20);
          hitAtMs = Date.now();
          // The fork is served for its index until the real ledger is stored: backfill is offered it too.
          await levelWith(fork.ledgerIndex, `after the fork at ledger ${fork.ledgerIndex}`);
          hostile.honest();
          const linkRefusals = ['parent_hash_mismatch', 'child_link_mismatch', 'header_hash_mismatch'];
          const unproven = (sync.output().match(new RegExp(`${fork.ledgerHash} not proven`, 'g')) ?? []).length;
          const refused = countOf(await refusals(), linkRefusals) - countOf(before, linkRefusals) + unproven;
          // A fork that verifies and names the tip as its parent is refused by its missing validations,
          // which sync logs but does not count by reason.
          unprovenForks += unproven;
          expect(refused, `fork (${fork.variant}) at ledger ${fork.ledgerIndex} served ${forgedSince('fork_at_tip')} times`).toBeGreaterThanOrEqual(forgedSince('fork_at_tip'));
          break;
        }
        case 'withheld_validations': {
          // Nothing is forged, so nothing is refused: the ledgers cannot be proven live and wait for backfill.
          hostile.withholdValidations(disturbance.ledgers);
          await waitUntil(viaHostile(() => hostile.withheldValidations > 0), 60_000, 'a validation withheld', 20);
          hitAtMs = Date.now();
          await waitUntil(viaHostile(() => hostile.validationsWithheldDone), 60_000, `the validations of ${disturbance.ledgers} ledgers withheld`, 20);
          break;
        }
        case 'stream_disorder': {
          hostile.disorderNextAnnouncements();
          // Should sync have left for the sane endpoint meanwhile, it is sent back: the disorder needs the hostile stream.
          await waitUntil(viaHostile(() => hostile.disorderDone), 60_000, 'announcements delivered out of order and twice', 20);
          hitAtMs = Date.now();
          break;
        }
        case 'malformed_messages': {
          await hostile.injectJunk(disturbance.junk);
          await waitUntil(viaHostile(() => hostile.junkDelivered - junkBefore >= disturbance.junk.length), 60_000, `${disturbance.junk.length} malformed messages delivered`, 20);
          const delivered = hostile.junkDelivered - junkBefore;
          await waitUntil(async () => countOf(await refusals(), ['malformed_message']) - countOf(before, ['malformed_message']) >= delivered, 30_000, `${delivered} malformed messages counted`, 100);
          break;
        }
        case 'truncated_frame':
        case 'oversize_frame': {
          const connection = await hostile.cutFrame(disturbance.kind === 'truncated_frame' ? 'truncated' : 'oversize');
          if (connection) await waitUntil(() => !connection.isOpen, 30_000, `the connection closed after a ${disturbance.kind}`, 20);
          break;
        }
        case 'silence': {
          const connection = hostile.subscribedConnection()!;
          hostile.silence(true);
          silences++;
          // Sync calls the endpoint stalled (no new validated ledger for 3 close intervals, at least 10 s) and moves on.
          await waitUntil(() => !connection.isOpen, 60_000, 'sync to leave the silent endpoint', 50);
          await waitUntil(async () => {
            const status = await syncStatusNow();
            return status.upstreamConnected && status.upstreamUrl === saneUrl;
          }, 60_000, 'sync subscribed through the sane endpoint', 50);
          hostile.honest();
          break;
        }
        case 'disconnect_storm': {
          const dropsBefore = hostile.dropsDone;
          let next = 0;
          hostile.dropConnections(disturbance.drops, () => disturbance.delaysMs[next++ % disturbance.delaysMs.length]!);
          await waitUntil(async () => {
            await nudgeOffSane();
            return hostile.dropsDone - dropsBefore >= disturbance.drops;
          }, 120_000, `${disturbance.drops} connections dropped`, 100);
          break;
        }
      }
      hostile.honest();
      const target = await devnetValidated();
      await levelWith(target, disturbance.kind);
      catchUpsMs.push(Date.now() - hitAtMs);
      if (exits.length > 0) throw new Error(`a service ended during ${disturbance.kind}: ${exits.join(', ')}`);
      episodes.push(disturbance.kind);
    };

    for (const disturbance of plan) {
      try {
        await run(disturbance);
      } catch (error) {
        throw new Error(
          `disturbance ${episodes.length + 1} (${JSON.stringify(disturbance)}) failed: ${(error as Error).message}\nhostile journal (last 40):\n${hostile.journal.slice(-40).join('\n')}\nsync:\n${sync.output().slice(-4000)}`,
        );
      }
    }

    // Honest from here on: the node catches up with the devnet and holds exactly its chain.
    hostile.honest();
    const final = await levelWith(await devnetValidated(), 'the end');
    await reader.stop();
    const tip = final.highestLedgerIndex!;
    const headers = await storedHeaders(clients.store, 1, tip);
    let storedForged = 0;
    let brokenLinks = 0;
    let wrongTransactions = 0;
    for (const [position, header] of headers.entries()) {
      const served = await upstream.request('ledger', { ledger_index: header.ledgerIndex, binary: true, transactions: true, expand: true });
      if (header.ledgerHash.toString('hex').toUpperCase() !== served.result.ledger_hash) storedForged++;
      if (position > 0 && decodeLedgerHeader(header.headerBlob).parentHash !== headers[position - 1]!.ledgerHash.toString('hex').toUpperCase()) brokenLinks++;
      const { ledger } = await clients.store.getLedger({ ledger: { selector: { $case: 'index', index: header.ledgerIndex } }, txDetail: TxDetail.FULL });
      const storedTransactions = (ledger?.transactions ?? []).map((tx) => `${tx.hash.toString('hex')}:${tx.txBlob.toString('hex')}:${tx.metaBlob.toString('hex')}`.toUpperCase()).sort();
      // The client decodes each blob from the answer's hex.
      const servedTransactions = (served.result.ledger.transactions as { tx_blob: Buffer; meta: Buffer }[])
        .map((tx) => `${hashTransaction(tx.tx_blob)}:${tx.tx_blob.toString('hex')}:${tx.meta.toString('hex')}`.toUpperCase())
        .sort();
      if (JSON.stringify(storedTransactions) !== JSON.stringify(servedTransactions)) wrongTransactions++;
    }
    // Nothing a forgery made up is in the store, not even under another index.
    for (const ledgerHash of hostile.forgedLedgerHashes) {
      const { ledger } = await clients.store.getLedger({ ledger: { selector: { $case: 'hash', hash: Buffer.from(ledgerHash, 'hex') } }, txDetail: TxDetail.HASHES });
      if (ledger) storedForged++;
    }
    for (const txHash of hostile.forgedTxHashes) {
      if ((await clients.store.getTransaction({ hash: Buffer.from(txHash, 'hex') })).transaction) storedForged++;
    }
    const downloadLedger = (await clients.store.getStatus({})).stateDownload!.ledgerIndex;
    const verifyState = startProcess([cliEntry(), 'verify-state', '-ledger', String(downloadLedger), '-data_dir', dataDir]);
    const verifyStateCode = await verifyState.exited;
    const syncStatus = await clients.sync.getSyncStatus({});
    checked = true;

    const byReason = syncStatus.verificationFailuresByReason;
    const badOffered = hostile.forgedLedgersTotal + hostile.forgedStatePagesDelivered;
    const refused = countOf(byReason, ledgerRefusals) + unprovenForks;
    const malformedRefused = countOf(byReason, ['malformed_message']);
    printFigures('hostile-upstream', {
      seed,
      disturbances: episodes.length,
      ledgers: tip,
      bad_offered: badOffered,
      refused,
      unproven_forks: unprovenForks,
      malformed_offered: hostile.junkDelivered,
      malformed_refused: malformedRefused,
      frames_cut: hostile.cutFramesDelivered,
      disorderly_announcements: hostile.disorderedDelivered + hostile.withheldAnnouncements.length,
      withheld_validations: hostile.withheldValidations,
      drops: hostile.dropsDone + saneCuts,
      silences,
      failovers,
      stored_forged: storedForged,
      broken_links: brokenLinks,
      wrong_transactions: wrongTransactions,
      crashes: exits.length,
      reads: reader.reads,
      read_failures: reader.failures.length,
      catch_up_p50_ms: quantile(catchUpsMs, 0.5),
      catch_up_p99_ms: quantile(catchUpsMs, 0.99),
    });
    expect({
      storedForged,
      brokenLinks,
      wrongTransactions,
      crashes: exits,
      readFailures: reader.failures.slice(0, 5),
      ranges: final.completeRanges,
      verifyStateCode,
    }).toEqual({
      storedForged: 0,
      brokenLinks: 0,
      wrongTransactions: 0,
      crashes: [],
      readFailures: [],
      ranges: [{ first: 1, last: tip }],
      verifyStateCode: 0,
    });
    expect(headers).toHaveLength(tip);
    expect(episodes).toHaveLength(plan.length);
    // Each episode checked its own forgeries refused; over the run, refusals may exceed what was
    // forged (a forged announcement makes the honest copy of that ledger mismatch too).
    expect(refused).toBeGreaterThanOrEqual(badOffered);
    expect(malformedRefused).toBeGreaterThanOrEqual(hostile.junkDelivered);
    expect(failovers).toBeGreaterThanOrEqual(silences);
  }, soaking() ? 3_600_000 : 900_000);
});
