/**
 * The network's own proof, end to end: a devnet that plays a real network (a publisher site, five
 * validators with manifests) and a sync that knows only the endpoint and the publisher's key. Key
 * rotation, revocation, an expired list, a tampered list and the negative UNL each against real
 * processes.
 */
import { createServer } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort, stopAll, waitUntil, WsClient, type WsMessage } from '@ledger-node/test-utils';
import { scratchDir, startDevnet, startStoreAndSync, type Clients, type Devnet } from './support/cluster';

const cleanups: (() => void)[] = [];
afterEach(async () => {
  await stopAll();
  for (const cleanup of cleanups.splice(0)) cleanup();
});

const PUBLISHER_LINE = /validator list publisher (ED[0-9A-F]{64}) at (http:\/\/[\w.:]+\/vl\.json)/;
/** Lists are fetched this often, so that a list published mid-test is seen in a second. */
const FAST_LISTS = { LEDGER_NODE_VALIDATOR_LIST_REFRESH_MS: '500' };

interface Network {
  devnet: Devnet;
  publisher: string;
  site: string;
  admin: WsClient;
}

async function network(args: string[] = []): Promise<Network> {
  const devnet = await startDevnet(['-close_ms', '100', '-idle_close_ms', '150', ...args]);
  const [, publisher, site] = (await devnet.process.waitFor(PUBLISHER_LINE)) as RegExpMatchArray;
  const admin = await WsClient.open(devnet.url);
  cleanups.push(() => admin.close());
  return { devnet, publisher: publisher!, site: site!, admin };
}

async function command(admin: WsClient, request: WsMessage): Promise<WsMessage> {
  const response = await admin.request(request);
  if (response.status !== 'success') throw new Error(`${JSON.stringify(request)}: ${JSON.stringify(response)}`);
  return response.result as WsMessage;
}

/** Sync trusting only the publisher's key: its list read from the endpoint (/vl/<key>), or at `site`. */
async function syncTrusting(net: Network, site?: string): Promise<Clients> {
  const dataDir = scratchDir(cleanups);
  const sites = site === undefined ? [] : ['-validator_list_sites', site];
  const { clients } = await startStoreAndSync(dataDir, net.devnet.url, [...sites, '-validator_list_keys', net.publisher], cleanups, undefined, FAST_LISTS);
  return clients;
}

/** Waits until the stored tip passes `ledgerIndex`, and returns the status then. */
async function storedPast(clients: Clients, ledgerIndex: number, what: string) {
  return waitUntil(async () => {
    const status = await clients.sync.getSyncStatus({});
    return status.currentLedgerIndex > ledgerIndex ? status : undefined;
  }, 45_000, what, 200);
}

describe('a devnet that plays a real network, trusted by its publisher key alone (the -endpoint and -validator_list_keys)', () => {
  it('proves and stores every ledger: validations of the listed validators under their manifests reach the quorum', async () => {
    const net = await network();
    const clients = await syncTrusting(net);
    const status = await waitUntil(async () => {
      const current = await clients.sync.getSyncStatus({});
      const range = current.completeRanges[0];
      return current.completeRanges.length === 1 && range!.first === 1 && range!.last >= 10 ? current : undefined;
    }, 45_000, 'ledgers 1-10 stored', 200);
    expect(status.anchorProof).toMatch(/^ledger \d+ validated by 5 of 5 trusted validators \(quorum 4\)$/);
    expect(status.validatorList).toMatchObject({ publisher: net.publisher, sequence: 1, validators: 5, quorum: 4, state: 'accepted', origin: 'the command line' });
    // Only the endpoint and the key were given: the list came from the endpoint, where rippled serves the lists it holds.
    // Its last outcome is `accepted`, or `same_sequence` once it was fetched again (each second at most) before ledger 10.
    expect(status.validatorList!.publishers).toEqual([
      expect.objectContaining({ publisher: net.publisher, site: `${net.devnet.url.replace('ws://', 'http://')}/vl/${net.publisher}`, state: 'available', validators: 5, lastOutcome: expect.stringMatching(/^(accepted|same_sequence)$/) }),
    ]);
    expect(status.verificationFailureCount).toBe(0n);
  });

  it('follows two validators rotating their signing keys: their new manifests come from the upstream', async () => {
    const net = await network();
    const clients = await syncTrusting(net);
    const before = await storedPast(clients, 3, 'anchored');
    // With two of five on keys the list does not name, 3 < quorum 4: only the new manifests let ledgers be proven.
    for (const validator of [0, 1]) await command(net.admin, { command: 'devnet_validator', validator, action: 'rotate' });
    const after = await storedPast(clients, before.currentLedgerIndex + 10, 'ledgers proven after the rotation');
    expect(after.anchorProof).toMatch(/validated by 5 of 5 trusted validators \(quorum 4\)$/);
    expect(after.validatorList).toMatchObject({ sequence: 1, validators: 5 });
  });

  it('drops a revoked validator once the publisher lists its revocation, and proves with the others', async () => {
    const net = await network();
    const clients = await syncTrusting(net);
    await storedPast(clients, 3, 'anchored');
    await command(net.admin, { command: 'devnet_validator', validator: 4, action: 'revoke' });
    await command(net.admin, { command: 'devnet_publish' });
    const status = await waitUntil(async () => {
      const current = await clients.sync.getSyncStatus({});
      return current.validatorList?.sequence === 2 && current.validatorList.validators === 4 ? current : undefined;
    }, 30_000, 'list 2 with the revocation', 200);
    const after = await storedPast(clients, status.currentLedgerIndex + 5, 'ledgers proven by the four left');
    expect(after.anchorProof).toMatch(/validated by 4 of 4 trusted validators \(quorum 4\)$/);
  });

  it('proves nothing while the list has expired, says so, and resumes with a newer list', async () => {
    const net = await network();
    const clients = await syncTrusting(net);
    await storedPast(clients, 3, 'anchored');
    await command(net.admin, { command: 'devnet_publish', expiration: 4 });
    await waitUntil(async () => ((await clients.sync.getSyncStatus({})).validatorList?.sequence === 2 ? true : undefined), 30_000, 'list 2', 200);
    const expired = await waitUntil(async () => {
      const current = await clients.sync.getSyncStatus({});
      return current.validatorList?.state === 'expired' && /no quorum can be reached/.test(current.anchorProof) ? current : undefined;
    }, 30_000, 'list 2 expired', 200);
    expect(expired.validatorList!.quorum).toBeUndefined();
    expect(expired.validatorList!.reason).toMatch(/expired at \d+ and no newer one is in force/);
    // Nothing is proven meanwhile.
    const stuckAt = expired.currentLedgerIndex;
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect((await clients.sync.getSyncStatus({})).currentLedgerIndex).toBe(stuckAt);
    await command(net.admin, { command: 'devnet_publish' });
    const resumed = await storedPast(clients, stuckAt + 3, 'proving again with list 3');
    expect(resumed.validatorList).toMatchObject({ sequence: 3, state: 'accepted', quorum: 4 });
  });

  it('refuses a tampered list (one byte of its blob changed): nothing is proven, and status says why', async () => {
    const net = await network();
    let tamper = true;
    const site = createServer(async (_request, response) => {
      const document = (await (await fetch(net.site)).json()) as { blob: string };
      if (tamper) {
        const blob = Buffer.from(document.blob, 'base64');
        blob[20]! ^= 0x01;
        document.blob = blob.toString('base64');
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(document));
    });
    const sitePort = await freePort();
    await new Promise<void>((resolve) => site.listen(sitePort, '127.0.0.1', resolve));
    cleanups.push(() => site.close());
    const clients = await syncTrusting(net, `http://127.0.0.1:${(site.address() as { port: number }).port}/vl.json`);
    const refused = await waitUntil(async () => {
      const current = await clients.sync.getSyncStatus({});
      return current.validatorList?.state === 'invalid' && /not proven/.test(current.anchorProof) ? current : undefined;
    }, 30_000, 'the tampered list refused', 200);
    expect(refused.validatorList!.reason).toMatch(/blob 0: its signature is not the publisher's/);
    expect(refused.completeRanges).toEqual([]);
    tamper = false;
    await storedPast(clients, 0, 'proven once the true list is served');
  });
});

describe('the negative UNL', () => {
  it('a validator voted offline on flag ledger 256 lowers the quorum from ledger 513 on; until then nothing is proven', async () => {
    // Four validators: quorum 4, and one offline leaves 3. With it on the negative UNL (in force from
    // flag ledger 512), the quorum is max(ceil(0.8 × 3), ceil(0.6 × 4)) = 3.
    const net = await network(['-devnet_validators', '4', '-close_ms', '20', '-idle_close_ms', '20']);
    await command(net.admin, { command: 'devnet_validator', validator: 3, action: 'offline' });
    const clients = await syncTrusting(net);
    const proven = await waitUntil(async () => {
      const current = await clients.sync.getSyncStatus({});
      return current.completeRanges.length > 0 ? current : undefined;
    }, 90_000, 'a ledger proven with the negative UNL', 250);
    expect(proven.anchorProof).toMatch(/^ledger (\d+) validated by 3 of 4 trusted validators \(quorum 3, 1 on the negative UNL( the upstream states)?\)$/);
    const anchoredAt = Number(/^ledger (\d+)/.exec(proven.anchorProof)![1]);
    expect(anchoredAt).toBeGreaterThan(512);
    expect(proven.verificationFailuresByReason.unproven_ledger).toBeGreaterThan(0n);
  });
});
