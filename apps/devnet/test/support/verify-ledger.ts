/**
 * Verifies one ledger as served by the devnet with the published `xrpl` package's hashes: header
 * hash from the JSON header, transaction tree and every tx hash from the served transactions,
 * state tree from `ledger_data` pages (each object exactly once).
 */
import { encode } from 'ripple-binary-codec';
import { hashes } from 'xrpl';
import { expect } from 'vitest';
import { serializedFields } from './ledger-checks';

/** Sends a request (API v1 shapes) and resolves with its `result`. */
export type Requester = (body: Record<string, unknown>) => Promise<Record<string, any>>;

export async function verifyLedger(request: Requester, ledgerIndex: number, statePageSize = 3): Promise<void> {
  const result = await request({ command: 'ledger', ledger_index: ledgerIndex, transactions: true, expand: true });
  const ledger = result.ledger;
  expect(hashes.hashLedgerHeader(ledger), `header of ledger ${ledgerIndex}`).toBe(result.ledger_hash);
  expect(hashes.hashTxTree(ledger.transactions), `transactions of ledger ${ledgerIndex}`).toBe(ledger.transaction_hash);
  for (const tx of ledger.transactions) expect(hashes.hashSignedTx(encode(serializedFields(tx)))).toBe(tx.hash);

  const state: Array<Record<string, any>> = [];
  let marker: unknown;
  do {
    const page = await request({ command: 'ledger_data', ledger_index: ledgerIndex, limit: statePageSize, marker });
    expect(page.state.length).toBeLessThanOrEqual(statePageSize);
    state.push(...page.state);
    marker = page.marker;
  } while (marker !== undefined);
  expect(new Set(state.map((entry) => entry.index)).size).toBe(state.length);
  expect(hashes.hashStateTree(state as never), `state of ledger ${ledgerIndex}`).toBe(ledger.account_hash);
}
