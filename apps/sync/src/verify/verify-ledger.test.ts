import { describe, expect, it } from 'vitest';
import { checkExtendsTip, checkIsParentOf, type FetchedLedger, getProfile, hashTransaction, linkOf, type VerifiedLedger, verifyLedger } from '@ledger-node/chain';
import { recordedFetchedLedger, recordedLedgerFile, recordedRun } from '../../test/support/recorded-ledgers';

function verified(fetched: FetchedLedger): VerifiedLedger {
  const result = verifyLedger(fetched);
  if (!result.ok) throw new Error(result.failure.message);
  return result.ledger;
}

/** The fetched ledger with one transaction blob re-encoded after `change`. */
function withChangedTransaction(fetched: FetchedLedger, position: number, change: (tx: Record<string, any>) => void): FetchedLedger {
  const codec = getProfile('xrpl').codec;
  const transactions = fetched.transactions.map((tx, index) => {
    if (index !== position) return tx;
    const json = codec.decode(tx.txBlob);
    change(json);
    return { ...tx, txBlob: Buffer.from(codec.encode(json), 'hex') };
  });
  return { ...fetched, transactions };
}

describe('verifyLedger', () => {
  it.each(recordedRun)('accepts recorded mainnet ledger %i: header hash, tx tree and tx hashes recompute', (ledgerIndex) => {
    const file = recordedLedgerFile(ledgerIndex);
    const result = verifyLedger(recordedFetchedLedger(ledgerIndex), file.ledger_hash);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.ledger.ledgerHash.toString('hex').toUpperCase()).toBe(file.ledger_hash);
    expect(result.ledger.header.parentHash).toBe(file.ledger.parent_hash);
    expect(result.ledger.transactions.map((tx) => tx.hash.toString('hex').toUpperCase()).sort()).toEqual(
      file.ledger.transactions.map((tx) => tx.hash as string).sort(),
    );
  });

  it('rejects a transaction with one field changed (Fee 10 → 11): the tree root no longer matches transaction_hash', () => {
    const fetched = recordedFetchedLedger(11119602);
    const result = verifyLedger(withChangedTransaction(fetched, 0, (tx) => (tx.Fee = String(BigInt(tx.Fee) + 1n))));
    expect(result).toMatchObject({ ok: false, failure: { reason: 'transaction_tree_mismatch', ledgerIndex: 11119602, expected: recordedLedgerFile(11119602).ledger.transaction_hash } });
  });

  it('rejects a ledger missing one of its transactions', () => {
    const fetched = recordedFetchedLedger(11119603);
    const result = verifyLedger({ ...fetched, transactions: fetched.transactions.slice(1) });
    expect(result).toMatchObject({ ok: false, failure: { reason: 'transaction_tree_mismatch' } });
  });

  it('rejects a header with one byte changed: it no longer hashes to the served ledger_hash', () => {
    const fetched = recordedFetchedLedger(11119600);
    // Byte 116 is close_time_resolution (rippled addRaw layout).
    const header = Buffer.from(fetched.headerBlob);
    header[116] = header[116]! ^ 1;
    const result = verifyLedger({ ...fetched, headerBlob: header });
    expect(result).toMatchObject({ ok: false, failure: { reason: 'header_hash_mismatch', expected: recordedLedgerFile(11119600).ledger_hash } });
  });

  it('rejects a self-consistent header that is not the announced ledger', () => {
    const fetched = recordedFetchedLedger(11119601);
    const result = verifyLedger(fetched, recordedLedgerFile(11119602).ledger_hash);
    expect(result).toMatchObject({ ok: false, failure: { reason: 'header_hash_mismatch', actual: recordedLedgerFile(11119601).ledger_hash } });
  });

  it('rejects the header of another ledger than the one asked for', () => {
    const result = verifyLedger({ ...recordedFetchedLedger(11119601), ledgerIndex: 11119600 });
    expect(result).toMatchObject({ ok: false, failure: { reason: 'wrong_ledger_index', expected: '11119600', actual: '11119601' } });
  });

  it('rejects a transaction served with a hash its blob does not hash to', () => {
    const fetched = recordedFetchedLedger(11119599);
    const transactions = fetched.transactions.map((tx, index) => (index === 0 ? { ...tx, hash: '0'.repeat(64) } : tx));
    expect(verifyLedger({ ...fetched, transactions })).toMatchObject({ ok: false, failure: { reason: 'transaction_hash_mismatch' } });
  });

  it('takes a served transaction hash in either case, and only as exactly its 64 hex digits', () => {
    const fetched = recordedFetchedLedger(11119599);
    const served = (hash: (real: string) => string) => ({
      ...fetched,
      transactions: fetched.transactions.map((tx, index) => (index === 0 ? { ...tx, hash: hash(hashTransaction(tx.txBlob)) } : tx)),
    });
    expect(verifyLedger(served((real) => real.toLowerCase())).ok).toBe(true);
    expect(verifyLedger(served((real) => real.toUpperCase())).ok).toBe(true);
    for (const forged of [(real: string) => `${real}00`, (real: string) => `${real}zz`, (real: string) => `${real.slice(0, 62)}zz`, (real: string) => real.slice(0, 62)]) {
      expect(verifyLedger(served(forged))).toMatchObject({ ok: false, failure: { reason: 'transaction_hash_mismatch' } });
    }
  });

  it('rejects a ledger listing a transaction twice, with forged metadata on the extra copy or as an exact copy', () => {
    const fetched = recordedFetchedLedger(11119603);
    const codec = getProfile('xrpl').codec;
    const real = fetched.transactions[1]!;
    const meta = codec.decode(real.metaBlob);
    const forgedMeta = Buffer.from(codec.encode({ ...meta, TransactionResult: meta.TransactionResult === 'tesSUCCESS' ? 'tecPATH_DRY' : 'tesSUCCESS' }), 'hex');
    for (const extra of [{ ...real, metaBlob: forgedMeta }, real]) {
      // The extra copy comes first: a tree keeps the last leaf of a key, so its root still matches.
      const transactions = [extra, ...fetched.transactions];
      const result = verifyLedger({ ...fetched, transactions });
      expect(result).toMatchObject({ ok: false, failure: { reason: 'duplicate_transaction', ledgerIndex: 11119603, actual: verified(fetched).transactions[1]!.hash.toString('hex').toUpperCase() } });
    }
  });

  it('rejects truncated header bytes as malformed', () => {
    const fetched = recordedFetchedLedger(11119599);
    expect(verifyLedger({ ...fetched, headerBlob: fetched.headerBlob.subarray(1) })).toMatchObject({ ok: false, failure: { reason: 'malformed_header' } });
  });
});

describe('chain links', () => {
  const ledgers = recordedRun.map((ledgerIndex) => verified(recordedFetchedLedger(ledgerIndex)));

  it('links every recorded ledger to its parent, upward and downward', () => {
    for (let position = 1; position < ledgers.length; position++) {
      expect(checkExtendsTip(ledgers[position]!, linkOf(ledgers[position - 1]!))).toBeUndefined();
      expect(checkIsParentOf(ledgers[position - 1]!, linkOf(ledgers[position]!))).toBeUndefined();
    }
  });

  it('refuses a newer ledger whose parent_hash is not the stored tip', () => {
    const tip = { ...linkOf(ledgers[1]!), ledgerHash: Buffer.alloc(32, 7) };
    expect(checkExtendsTip(ledgers[2]!, tip)).toMatchObject({ reason: 'parent_hash_mismatch', ledgerIndex: 11119601, expected: '07'.repeat(32) });
  });

  it('refuses an older ledger that is not its stored child parent', () => {
    const child = { ...linkOf(ledgers[3]!), parentHash: Buffer.alloc(32, 9) };
    expect(checkIsParentOf(ledgers[2]!, child)).toMatchObject({ reason: 'child_link_mismatch', ledgerIndex: 11119601, actual: recordedLedgerFile(11119601).ledger_hash });
  });
});
