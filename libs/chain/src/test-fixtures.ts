import { fixtureFiles, readFixture } from '@ledger-node/test-utils';

/** Shape of a fixture ledger file: the `result` of rippled `ledger` (transactions + expand). */
export interface LedgerFixture {
  ledger: Record<string, any> & { transactions?: Record<string, any>[]; accountState?: Record<string, any>[] };
  ledger_hash: string;
  ledger_index: number;
}

/** Every ledger fixture under a folder, as [relative path, content], in name order. */
export function ledgerFixtures(folder: string): [string, LedgerFixture][] {
  return fixtureFiles(folder).map((file) => [file, readFixture<LedgerFixture>(file)]);
}

export function allHeaderFixtures(): [string, LedgerFixture][] {
  return ['xrpl/ledgers/mainnet', 'xrpl/ledgers/privnet', 'jingtum/ledgers'].flatMap(ledgerFixtures);
}

export interface JingtumBlobFixture {
  origin: string;
  engine_result: string;
  tx_blob: string;
  hash: string;
}

export function jingtumBlobs(): JingtumBlobFixture[] {
  return readFixture<{ transactions: JingtumBlobFixture[] }>('jingtum/tx-blobs.json').transactions;
}
