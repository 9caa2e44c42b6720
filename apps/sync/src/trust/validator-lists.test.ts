import { createServer, type Server } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { getProfile, unixMsToRippleTime } from '@ledger-node/chain';
import { createLogger } from '@ledger-node/telemetry';
import { waitUntil } from '@ledger-node/test-utils';
import type { TrustConfig } from '../config';
import { testNetwork } from './test-network';
import { ValidatorLists } from './validator-lists';

const network = testNetwork(getProfile('xrpl'), 3);
const publisherKey = network.keys.publisher.master.publicKey;
const servers: Server[] = [];
const running: ValidatorLists[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((lists) => lists.stop()));
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A publisher site over real HTTP; `answer` decides each response. */
async function site(answer: (path: string) => { status?: number; body: string | Buffer; hang?: boolean }): Promise<{ url: string; hits: () => number }> {
  let hits = 0;
  const server = createServer((request, response) => {
    hits++;
    const { status = 200, body, hang } = answer(request.url ?? '/');
    if (hang) return;
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(body);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return { url: `http://127.0.0.1:${address.port}/vl.json`, hits: () => hits };
}

function config(overrides: Partial<TrustConfig> = {}): TrustConfig {
  return {
    publisherKeys: [publisherKey],
    sites: [],
    listFiles: [],
    validators: undefined,
    origin: 'the tests',
    keptListsDir: path.join(mkdtempSync(path.join(tmpdir(), 'lists-')), 'validator-lists'),
    ...overrides,
  };
}

function start(trust: TrustConfig, refreshMs = 200): ValidatorLists {
  const lists = new ValidatorLists({ config: { ...trust, refreshMs }, logger: createLogger('sync', 'silent') });
  running.push(lists);
  lists.start();
  return lists;
}

describe('ValidatorLists', () => {
  it('fetches a site, verifies its list, keeps it under the data directory, and proves with it after a restart without the site', async () => {
    const publisher = await site(() => ({ body: JSON.stringify(network.document(4)) }));
    const trust = config({ sites: [publisher.url] });
    const lists = start(trust);
    await waitUntil(() => lists.state().state === 'accepted' || undefined, 5_000, 'the list accepted');
    expect(lists.state()).toMatchObject({ publisher: publisherKey, sequence: 4, validators: 3, quorum: 3, state: 'accepted', origin: 'the tests' });
    const kept = path.join(trust.keptListsDir, `${publisherKey}.json`);
    await waitUntil(() => existsSync(kept) || undefined, 5_000, 'the list kept');
    expect(JSON.parse(readFileSync(kept, 'utf8'))).toEqual(network.document(4));
    await lists.stop();
    // The site is gone: the kept copy still proves, and an older list offered later is stale.
    const restarted = start({ ...trust, sites: ['http://127.0.0.1:1/vl.json'], listFiles: [] });
    expect(restarted.state()).toMatchObject({ sequence: 4, quorum: 3 });
    const older = path.join(path.dirname(trust.keptListsDir), 'older.json');
    writeFileSync(older, JSON.stringify(network.document(3)));
    const withOlder = start({ ...trust, sites: [], listFiles: [older] });
    expect(withOlder.state()).toMatchObject({ sequence: 4, quorum: 3 });
    expect(withOlder.trust.status()[0]).toMatchObject({ lastOutcome: 'stale' });
  });

  it('refuses a site that answers an error, no JSON, a tampered list, or more than the size cap, and keeps the last good list', async () => {
    let answer: { status?: number; body: string | Buffer } = { body: JSON.stringify(network.document(1)) };
    const publisher = await site(() => answer);
    const lists = start(config({ sites: [publisher.url] }), 100);
    await waitUntil(() => lists.state().quorum === 3 || undefined, 5_000, 'the first list');
    const tampered = { ...network.document(2), blob: Buffer.from('{"sequence":2,"expiration":999999999,"validators":[]}').toString('base64') };
    for (const next of [{ status: 500, body: 'oops' }, { body: 'not json' }, { body: JSON.stringify(tampered) }, { body: Buffer.alloc(5 * 1024 * 1024, 0x20) }]) {
      answer = next;
      const before = publisher.hits();
      await waitUntil(() => publisher.hits() > before + 1 || undefined, 10_000, 'fetched again');
      expect(lists.state()).toMatchObject({ sequence: 1, quorum: 3 });
    }
    expect(lists.trust.status()[0]).toMatchObject({ lastOutcome: 'invalid' });
  });

  it('a site that never answers leaves nothing proven and says why', async () => {
    const publisher = await site(() => ({ body: '', hang: true }));
    const lists = start(config({ sites: [publisher.url] }));
    await waitUntil(() => publisher.hits() > 0 || undefined, 5_000, 'asked');
    expect(lists.state()).toMatchObject({ validators: 0, state: 'unavailable' });
    expect(lists.state().quorum).toBeUndefined();
    expect(lists.state().reason).toMatch(/no list of publisher .* verified yet/);
  });

  it('fetches again when the list in force expires, and takes the newer one', async () => {
    let sequence = 1;
    const expiresAt = unixMsToRippleTime(Date.now()) + 3;
    const publisher = await site(() => ({ body: JSON.stringify(network.document(sequence, sequence === 1 ? expiresAt : expiresAt + 3600)) }));
    const lists = new ValidatorLists({ config: config({ sites: [publisher.url] }), logger: createLogger('sync', 'silent') });
    running.push(lists);
    lists.start();
    await waitUntil(() => lists.state().sequence === 1 || undefined, 5_000, 'list 1');
    sequence = 2;
    // No refresh interval was set: rippled's 5 minutes would be too late; the expiration brings the fetch forward.
    await waitUntil(() => lists.state().sequence === 2 || undefined, 10_000, 'list 2 after list 1 expired');
    expect(lists.state()).toMatchObject({ state: 'accepted', quorum: 3 });
  });
});
