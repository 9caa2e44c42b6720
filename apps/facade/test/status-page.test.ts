import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEntry, devnetValidatorsFile, freePort, startProcess, stopAll, tempDir, workspaceRoot } from '@ledger-node/test-utils';
import { rpcClient, waitUntil } from '@ledger-node/test-utils';

/**
 * The status page at `/` of the REST listener, in headless Chromium against a real node on a loaded
 * devnet: what the page shows must be what the APIs answer.
 */
const screenshotDir = path.join(workspaceRoot(), 'test-output');
let call: ReturnType<typeof rpcClient>;
let pageUrl: string;
let apiBase: string;
let devnetUrl: string;
let browser: BrowserContext;
let page: Page;
let removeDir: () => void;
/** Problems the page reported: script errors, CSP refusals, failed console calls. */
const pageProblems: string[] = [];
/** A successful native payment the load generator made. */
let payment: { hash: string; ledgerIndex: number; account: string; destination: string; amountDrops: string; fee: string };

const rest = async (route: string) => (await (await fetch(`${apiBase}${route}`)).json()) as Record<string, any>;

/** "1234567" drops → "1.234567 XRP", with thousands separators as the page prints them. */
function xrp(drops: string): string {
  const value = BigInt(drops);
  const fraction = (value % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  const whole = (value / 1_000_000n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${whole}${fraction ? `.${fraction}` : ''} XRP`;
}

/** The page's definition list as name → shown text. */
const shownFields = async (scope: string) =>
  Object.fromEntries(await page.$$eval(`${scope} dt`, (terms) => terms.map((term) => [term.textContent!, term.nextElementSibling!.textContent!])));

async function searchFor(query: string, resultSelector: string) {
  await page.fill('#search-input', query);
  await page.press('#search-input', 'Enter');
  await page.waitForSelector(`#search-result ${resultSelector}`, { timeout: 15_000 });
}

beforeAll(async () => {
  const { dir, remove } = tempDir('status-page-');
  removeDir = remove;
  const [rpcPort, apiPort] = [await freePort(), await freePort()];
  const node = startProcess([
    cliEntry(), '-dev', '-close_ms', '400', '-load', '5', '-load_accounts', '3',
    '-read_only', '-rpc', '-rpcaddr', '127.0.0.1', '-rpcport', String(rpcPort),
    '-api', '-apiaddr', '127.0.0.1', '-apiport', String(apiPort),
    '-data_dir', path.join(dir, 'node'), '-thread_count', '2',
  ]);
  devnetUrl = (await node.waitFor(/devnet\s+ready\s+pid \d+\s+(ws:\/\/\S+)/))[1]!;
  await node.waitFor(/facade\s+ready/);
  call = rpcClient(rpcPort);
  pageUrl = `http://127.0.0.1:${apiPort}/`;
  apiBase = `http://127.0.0.1:${apiPort}/v1`;

  payment = await waitUntil(
    async () => {
      const tip = (await call('jt_blockNumber')).result as number;
      for (let ledgerIndex = tip; ledgerIndex >= 1; ledgerIndex--) {
        const block = (await call('jt_getBlockByNumber', [String(ledgerIndex), true])).result;
        const found = block?.ledger.transactions.find(
          (tx: Record<string, any>) => tx.TransactionType === 'Payment' && typeof tx.Amount === 'string' && tx.metaData.TransactionResult === 'tesSUCCESS',
        );
        if (found) return { hash: found.hash, ledgerIndex, account: found.Account, destination: found.Destination, amountDrops: found.Amount, fee: found.Fee };
      }
      return undefined;
    },
    60_000,
    'a native payment from the load generator',
  );
  await waitUntil(async () => ((await call('jt_blockNumber')).result as number) >= 12, 60_000, 'more ledgers than the page lists');
  await waitUntil(async () => (await call('jt_syncing')).result === false, 30_000, 'the node level with the devnet');

  browser = await chromium.launchPersistentContext(path.join(dir, 'chromium-profile'), {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 1280, height: 900 },
  });
  page = browser.pages()[0] ?? (await browser.newPage());
  page.on('pageerror', (error) => pageProblems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    // A search for something not stored is a 404 from the API by design; the browser logs each one.
    if (message.type() === 'error' && !/status of 404 \(Not Found\)/.test(message.text())) pageProblems.push(`console: ${message.text()}`);
  });
  mkdirSync(screenshotDir, { recursive: true });
}, 150_000);

afterAll(async () => {
  await browser?.close();
  await stopAll();
  removeDir?.();
});

describe('GET / on the REST listener', () => {
  it('serves one self-contained HTML page: its own inline script and style only, by CSP hash', async () => {
    const response = await fetch(pageUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toMatch(
      /^default-src 'none'; script-src 'sha256-[A-Za-z0-9+/]{43}='; style-src 'sha256-[A-Za-z0-9+/]{43}='; connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'$/,
    );
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const html = await response.text();
    expect(html).toMatch(/^<!doctype html>/);
    // No external resource of any kind.
    expect(html).not.toMatch(/\b(src|href)\s*=\s*["']?(https?:)?\/\//i);
    expect(html).not.toMatch(/@import|url\(/i);
    expect(html).not.toContain('innerHTML');
  });

  it('answers HEAD without a body and refuses other methods with 405', async () => {
    const head = await fetch(pageUrl, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const post = await fetch(pageUrl, { method: 'POST', body: 'x' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });
});

describe('the status page in Chromium', () => {
  it('shows the sync state, the stored range and the latest ledgers as /v1/status and jt_blockNumber report them', async () => {
    const before = (await call('jt_blockNumber')).result as number;
    await page.goto(pageUrl);
    await page.waitForSelector('#latest-ledgers tr[data-ledger-index]');
    // A node a few ledgers behind on a loaded machine says so ("catching up"); the page refreshes
    // itself, and shows "following live" once the node is level again.
    await expect.poll(() => page.textContent('#live-state'), { timeout: 30_000, interval: 250 }).toBe('following live');
    await page.screenshot({ path: path.join(screenshotDir, 'status-page-overview.png'), fullPage: true });
    // One synchronous read of the DOM: the page refreshes itself every few seconds.
    const shown = await page.$eval('body', (body) => ({
      liveState: body.querySelector('#live-state')!.textContent,
      historyState: body.querySelector('#history-state')!.textContent,
      syncFields: [...body.querySelectorAll('#sync-state dt')].map((term) => [term.textContent, term.nextElementSibling!.textContent]),
      ranges: body.querySelector('#stored-range .big')!.textContent,
      rows: [...body.querySelectorAll('#latest-ledgers tbody tr')].map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent!)),
      chain: body.querySelector('#chain')!.textContent,
    }));
    const after = (await call('jt_blockNumber')).result as number;
    const status = await rest('/status');

    expect(shown.chain).toBe('chain xrpl');
    expect(shown.liveState).toBe('following live');
    expect(shown.historyState).toBe('history complete');
    expect(Object.fromEntries(shown.syncFields)).toMatchObject({ Upstream: devnetUrl, Backfill: 'complete', 'Verification failures': '0' });
    const highestShown = Number(shown.rows[0]![0]);
    expect(highestShown).toBeGreaterThanOrEqual(before);
    expect(highestShown).toBeLessThanOrEqual(after);
    expect(highestShown).toBeLessThanOrEqual(status.store.highest_ledger_index);
    // Synced from the devnet's genesis: one complete range, up to the newest ledger shown.
    expect(shown.ranges).toBe(`1-${highestShown}`);
    expect(status.store.complete_ranges[0]).toMatch(/^1-\d+$/);
    expect(shown.rows.map((cells) => Number(cells[0]))).toEqual(Array.from({ length: Math.min(10, highestShown) }, (_, offset) => highestShown - offset));
    for (const [index, hash, closed, transactionCount] of shown.rows) {
      const { result } = await call('jt_getBlockByNumber', [index, false]);
      expect(hash).toBe(result.ledger_hash);
      expect(Number(transactionCount)).toBe(result.ledger.transactions.length);
      expect(closed).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC$/);
    }
  });

  it('searching a ledger index shows that ledger and its transactions', async () => {
    await searchFor(String(payment.ledgerIndex), `[data-kind="ledger"][data-ledger-index="${payment.ledgerIndex}"]`);
    const { result: block } = await call('jt_getBlockByNumber', [String(payment.ledgerIndex), true]);
    expect(await page.textContent('#search-title')).toBe(`Ledger ${payment.ledgerIndex}`);
    expect(await shownFields('#search-result')).toMatchObject({
      'Ledger index': String(payment.ledgerIndex),
      'Ledger hash': block.ledger_hash,
      'Parent hash': block.ledger.parent_hash,
      Transactions: String(block.ledger.transactions.length),
      'Transactions hash': block.ledger.transaction_hash,
      'Account state hash': block.ledger.account_hash,
      'Total coins': xrp(block.ledger.total_coins),
    });
    const rows = await page.$$eval('#search-result tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    expect(rows).toEqual(
      block.ledger.transactions.map((tx: Record<string, any>) => [
        tx.hash,
        tx.TransactionType,
        tx.Account,
        tx.Destination ?? '',
        typeof tx.Amount === 'string' ? xrp(tx.Amount) : tx.Amount ? `${tx.Amount.value} ${tx.Amount.currency}.${tx.Amount.issuer}` : '',
        tx.metaData.TransactionResult,
      ]),
    );
  });

  it('searching a transaction hash shows the payment', async () => {
    await searchFor(payment.hash.toLowerCase(), `[data-kind="transaction"][data-tx-hash="${payment.hash}"]`);
    await page.screenshot({ path: path.join(screenshotDir, 'status-page-transaction.png'), fullPage: true });
    const { result: tx } = await call('jt_getTransactionByHash', [payment.hash]);
    const { result: receipt } = await call('jt_getTransactionReceipt', [payment.hash]);
    expect(await shownFields('#search-result')).toEqual({
      Hash: payment.hash,
      Type: 'Payment',
      Result: 'tesSUCCESS',
      Ledger: String(tx.ledger_index),
      Date: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC$/),
      From: tx.Account,
      To: tx.Destination,
      Amount: xrp(tx.Amount),
      Delivered: xrp(receipt.delivered_amount),
      Fee: xrp(tx.Fee),
      Sequence: String(tx.Sequence),
      'Index in ledger': String(receipt.TransactionIndex),
    });
    expect(tx.ledger_index).toBe(payment.ledgerIndex);
  });

  it('searching an account shows its balances at a ledger and its latest transactions', async () => {
    const address = payment.destination;
    const stateAnswer = await waitUntil(
      async () => {
        const answer = await call('jt_getBalance', [address, 'validated']);
        return answer.status === 'success' || answer.error.code === -32011 ? answer : undefined;
      },
      45_000,
      'account state at the tip',
    );
    expect(stateAnswer.error, 'the store answers account state').toBeUndefined();
    await searchFor(address, `[data-kind="account"][data-address="${address}"] table[data-balances-ledger]`);
    await page.screenshot({ path: path.join(screenshotDir, 'status-page-account.png'), fullPage: true });
    const balancesLedger = Number(await page.getAttribute('#search-result table[data-balances-ledger]', 'data-balances-ledger'));
    const { result: balance } = await call('jt_getBalance', [address, String(balancesLedger)]);
    const balanceRows = await page.$$eval('#search-result table[data-balances-ledger] tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    expect(balanceRows).toEqual([
      ['XRP', 'native', xrp(balance.balance).replace(/ XRP$/, '').replaceAll(',', '')],
      ...balance.coins.map((coin: Record<string, any>) => [coin.currency, coin.account, coin.balance]),
    ]);
    // Newest first; each one really is this account's, in the ledger the page says.
    const historyRows = await page.$$eval('#search-result table:not([data-balances-ledger]) tbody tr', (trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)),
    );
    expect(historyRows.length).toBeGreaterThan(0);
    expect(historyRows.length).toBeLessThanOrEqual(20);
    const ledgers = historyRows.map((cells) => Number(cells[2]));
    expect([...ledgers].sort((a, b) => b - a)).toEqual(ledgers);
    for (const [hash, type, ledgerIndex, , direction] of historyRows) {
      const { result: tx } = await call('jt_getTransactionByHash', [hash]);
      expect(tx.TransactionType).toBe(type);
      expect(String(tx.ledger_index)).toBe(ledgerIndex);
      expect(direction).toBe(tx.Account === address ? 'out' : tx.Destination === address ? 'in' : 'affected');
      // Neither sender nor receiver (an issuer a payment rippled through): the metadata names it.
      if (direction === 'affected') expect(JSON.stringify((await call('jt_getTransactionReceipt', [hash])).result)).toContain(address);
    }
  }, 90_000);

  it('says when nothing matches, and shows what was typed as text, never as markup', async () => {
    await searchFor(String(10_000_000), '[data-error]');
    expect(await page.textContent('#search-result')).toBe('ledger 10000000 is not stored');
    const markup = '<img src=x onerror="document.title=\'injected\'">';
    await searchFor(markup, '[data-error]');
    expect(await page.textContent('#search-result')).toBe(`Not a ledger index, a 64-hex-digit ledger or transaction hash, or an account address: ${markup}`);
    expect(await page.$$('img')).toHaveLength(0);
    expect(await page.title()).toBe('ledger-node status');
  });

  it('during backfill shows live follow and the history apart: following live, and the ledgers left with their ETA', async () => {
    // A devnet with a long history: a fresh node follows its tip at once and backfills the rest
    // downward. The devnet is paused (SIGSTOP) mid-backfill, so the page is read at a known point of it.
    const { dir, remove } = tempDir('status-page-backfill-');
    const devnet = startProcess([cliEntry(), 'devnet', '-port', '0', '-close_ms', '1000'], { env: { LEDGER_NODE_DEVNET_HISTORY: '3000x1' } });
    let paused = false;
    let node: ReturnType<typeof startProcess> | undefined;
    let backfillPage: Page | undefined;
    try {
      // Building the history takes about 20 s on an idle machine and minutes beside the other tests:
      // the wait lasts while the devnet says how far it is.
      const upstream = (await devnet.waitFor(/devnet listening on (ws:\/\/[^\s"]+)/, 360_000, { quietMs: 60_000 }))[1]!;
      const apiPort = await freePort();
      node = startProcess([
        cliEntry(), '-endpoint', upstream, '-validators', devnetValidatorsFile(dir), '-data_dir', path.join(dir, 'node'),
        '-api', '-apiaddr', '127.0.0.1', '-apiport', String(apiPort), '-thread_count', '2',
      ]);
      await node.waitFor(/facade\s+ready/, 60_000);
      const backfillApi = `http://127.0.0.1:${apiPort}/v1`;
      await waitUntil(
        async () => {
          const { sync } = (await (await fetch(`${backfillApi}/status`)).json()) as Record<string, any>;
          return sync.syncing === false && sync.backfill?.ledgers_per_second > 0 && sync.backfill.remaining_ledgers > 100 ? true : undefined;
        },
        60_000,
        'live follow level with the devnet while backfill runs with ledgers left',
        20,
      );
      process.kill(devnet.pid, 'SIGSTOP');
      paused = true;
      // Ledgers fetched before the pause may still be written: the figures the page shows are those once they settle.
      let settled: number | undefined;
      const sync = await waitUntil(
        async () => {
          const current = ((await (await fetch(`${backfillApi}/status`)).json()) as Record<string, any>).sync;
          const same = current.backfill.remaining_ledgers === settled;
          settled = current.backfill.remaining_ledgers;
          return same ? current : undefined;
        },
        20_000,
        'backfill paused with the devnet',
        1_000,
      );

      // A page of its own: it stops asking once closed, before this node stops.
      backfillPage = await browser.newPage();
      await backfillPage.goto(`http://127.0.0.1:${apiPort}/`);
      await backfillPage.waitForSelector('#history-state', { timeout: 15_000 });
      await backfillPage.screenshot({ path: path.join(screenshotDir, 'status-page-backfill.png'), fullPage: true });
      expect(await backfillPage.textContent('#sync-state')).toContain('following live');
      expect(await backfillPage.textContent('#live-state')).toBe('following live');
      const history = (await backfillPage.textContent('#history-state'))!;
      expect(history).toMatch(/^backfilling: [\d,]+ left, ETA (\d+ s|\d+ min|[\d.]+ h)$/);
      expect(Number(history.match(/^backfilling: ([\d,]+)/)![1]!.replaceAll(',', ''))).toBe(sync.backfill.remaining_ledgers);
      const fields = Object.fromEntries(await backfillPage.$$eval('#sync-state dt', (terms) => terms.map((term) => [term.textContent!, term.nextElementSibling!.textContent!])));
      expect(fields).toMatchObject({ 'Verification failures': '0', 'Index failures': '0' });
    } finally {
      await backfillPage?.close();
      if (paused) process.kill(devnet.pid, 'SIGCONT');
      await node?.stop('SIGTERM', 12_000);
      await devnet.stop('SIGTERM', 5_000);
      remove();
    }
  }, 480_000);

  it('ran without a script error or a refused resource', () => {
    expect(pageProblems).toEqual([]);
  });
});
