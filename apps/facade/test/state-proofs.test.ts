/**
 * Account state proofs end to end: a node following a devnet that plays a real network (a publisher,
 * five validators, load on funded accounts with USD trust lines to one issuer) answers jt_getProof
 * and GET /v1/accounts/{address}/proof from sync's proven state trees and the ledger-store's kept
 * validations; every proof verifies offline against the devnet's publisher key alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getProfile } from '@ledger-node/chain';
import { verifyProof } from '@ledger-node/proof';
import { cliEntry, freePort, rpcClient, startProcess, stopAll, tempDir, waitUntil, type RunningProcess } from '@ledger-node/test-utils';
import { verifyProofCommand } from './support/verify-proof';

const GENESIS = 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh';
const HOLDERS = 5;
/** Ledgers below the newest proven one whose tree sync keeps: 4 s of the devnet's 4 ledgers a second. */
const WINDOW = 16;
const profile = getProfile('xrpl');

let node: RunningProcess;
let call: ReturnType<typeof rpcClient>;
let apiPort: number;
let dir: { dir: string; remove: () => void };
let publisher: string;
let issuer: string;
let holders: string[];

beforeAll(async () => {
  dir = tempDir('state-proofs-');
  const rpcPort = await freePort();
  apiPort = await freePort();
  node = startProcess([
    cliEntry(), '-dev', '-close_ms', '250', '-load', '10', '-load_accounts', String(HOLDERS), '-proof_window', String(WINDOW), '-data_dir', dir.dir, '-thread_count', '4',
    '-read_only', '-rpc', '-rpcaddr', '127.0.0.1', '-rpcport', String(rpcPort), '-api', '-apiaddr', '127.0.0.1', '-apiport', String(apiPort),
  ]);
  publisher = (await node.waitFor(/validator list publisher (ED[0-9A-F]{64}) at /, 60_000))[1]!;
  await node.waitFor(/facade\s+ready/, 60_000);
  call = rpcClient(rpcPort);
  await waitUntil(async () => (await call('jt_getProof', [GENESIS, 'validated'])).result, 60_000, 'state proofs served');
  // The issuer is the account every holder's USD line names: the load generator's set-up.
  issuer = await waitUntil(async () => {
    const { result } = await call('jt_getBlockByNumber', ['validated', true]);
    const payment = (result?.ledger.transactions ?? []).find((tx: Record<string, any>) => typeof tx.Amount === 'object' && tx.Amount.currency === 'USD');
    return payment?.Amount.issuer as string | undefined;
  }, 60_000, 'a USD payment of the load');
  // The stored tip may be a ledger ahead of its proven state: asked until the issuer's lines are there.
  holders = await waitUntil(async () => {
    const lines = (await call('jt_getBalance', [issuer, 'validated'])).result?.coins as { account: string }[] | undefined;
    return lines?.length === HOLDERS ? lines.map((line) => line.account) : undefined;
  }, 30_000, "the issuer's trust lines");
}, 120_000);

afterAll(async () => {
  await stopAll();
  dir?.remove();
});

function verified(document: unknown) {
  return verifyProof(document, { publisherKeys: [publisher], profile });
}

/** `ledger-node verify-proof` on the document, with the devnet publisher's key. */
const verifyProofCli = (document: unknown, name: string) => verifyProofCommand(document, publisher, dir.dir, name);

describe('jt_getProof on a node following a devnet that plays a real network', () => {
  it('proves every funded account at the tip (the holders with their USD line), each verified offline and by ledger-node verify-proof', async () => {
    const tip = (await call('jt_blockNumber')).result as number;
    for (const account of [GENESIS, issuer, ...holders]) {
      const lines = holders.includes(account) ? [{ currency: 'USD', issuer }] : [];
      const { result, error } = await call('jt_getProof', [account, 'validated', lines]);
      expect(error, account).toBeUndefined();
      // The newest proven tree follows the stored tip within a ledger.
      expect(result.ledger.index).toBeGreaterThanOrEqual(tip - 1);
      expect(result.state).toHaveLength(1 + lines.length);
      expect(profile.codec.decode(result.state[0].blob)).toMatchObject({ LedgerEntryType: 'AccountRoot', Account: account });
      if (lines.length > 0) expect(profile.codec.decode(result.state[1].blob)).toMatchObject({ LedgerEntryType: 'RippleState' });
      const verdict = verified(result);
      expect(verdict.steps.filter((step) => !step.ok), account).toEqual([]);
      expect(verdict.ok).toBe(true);
      const cli = await verifyProofCli(result, account);
      expect(cli.status, cli.stdout).toBe(0);
      expect(cli.stdout.match(/^ok\s+state\s+(AccountRoot|RippleState) /gm)).toHaveLength(1 + lines.length);
    }
  });

  it('serves a ledger named by number inside the window, and REST the same proof', async () => {
    const newest = (await call('jt_getProof', [GENESIS, 'validated'])).result.ledger.index as number;
    const { result } = await call('jt_getProof', [holders[0], newest - 2, [{ currency: 'USD', issuer }]]);
    expect(result.ledger.index).toBe(newest - 2);
    expect(verified(result).ok).toBe(true);
    const response = await fetch(`http://127.0.0.1:${apiPort}/v1/accounts/${holders[0]}/proof?ledger=${newest - 2}&lines=USD:${issuer}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(result);
  });

  it('refuses a ledger below the window, naming the ledgers it serves', async () => {
    // On a slow machine the window may still reach down to the devnet's first ledgers, or not yet be
    // full (the state of its oldest ledgers proven later): asked until it has moved past them and is.
    const pattern = (below: number) => new RegExp(`^state proofs are served for ledgers (\\d+)-(\\d+) \\(the newest proven and the -proof_window before it\\), not ledger ${below}$`);
    const refusal = await waitUntil(async () => {
      const newest = (await call('jt_getProof', [GENESIS, 'validated'])).result?.ledger.index as number | undefined;
      if (newest === undefined || newest <= WINDOW + 3) return undefined;
      const below = newest - WINDOW - 1;
      const { error } = await call('jt_getProof', [GENESIS, below]);
      const range = pattern(below).exec(error?.message ?? '');
      return range && Number(range[2]) - Number(range[1]) === WINDOW ? { below, error } : undefined;
    }, 60_000, `a full window of ${WINDOW + 1} proven ledgers above ledger 2`);
    expect(refusal.error.code).toBe(-32002);
    expect(refusal.error.message).toMatch(pattern(refusal.below));
  });

  it('refuses an account that does not exist there: no proof of absence', async () => {
    const { error } = await call('jt_getProof', ['rrrrrrrrrrrrrrrrrrrrBZbvji', 'validated']);
    expect(error.code).toBe(-32003);
    expect(error.message).toMatch(/^account rrrrrrrrrrrrrrrrrrrrBZbvji not found at ledger \d+: only the state of an account that exists is proven$/);
  });

  it('a proof with one byte of an entry changed is refused, by verifyProof and by verify-proof', async () => {
    const { result } = await call('jt_getProof', [holders[1], 'validated', [{ currency: 'USD', issuer }]]);
    const blob = result.state[1].blob as string;
    const tampered = structuredClone(result);
    tampered.state[1].blob = blob.slice(0, 40) + (blob.slice(40, 42) === '00' ? '01' : '00') + blob.slice(42);
    const verdict = verified(tampered);
    expect(verdict.ok).toBe(false);
    expect(verdict.steps.filter((step) => !step.ok).map((step) => step.name)).toEqual(['state']);
    expect((await verifyProofCli(tampered, 'tampered')).status).toBe(1);
  });
});
