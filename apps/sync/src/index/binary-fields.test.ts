import { describe, expect, it } from 'vitest';
import { fixedField, getProfile, readObjectFields, serializeFields, transactionFromLedgerJson, UnreadableBinary } from '@ledger-node/chain';
import { readFixture } from '@ledger-node/test-utils';
import { recordedLedgerFile, recordedRun } from '../../test/support/recorded-ledgers';

const xrpl = getProfile('xrpl');
const jingtum = getProfile('jingtum');

/** Every transaction and metadata blob of the recorded mainnet ledgers. */
function mainnetBlobs(): Buffer[] {
  return [...recordedRun, 7501326].flatMap((ledgerIndex) =>
    recordedLedgerFile(ledgerIndex).ledger.transactions.flatMap((tx) => {
      const { txBlob, metaBlob } = transactionFromLedgerJson(tx, xrpl);
      return [Buffer.from(txBlob, 'hex'), Buffer.from(metaBlob, 'hex')];
    }),
  );
}

describe('readObjectFields / serializeFields', () => {
  it('reads every field of mainnet transactions and metadata, in the codec’s order, and writes the same bytes back', () => {
    const blobs = mainnetBlobs();
    expect(blobs.length).toBeGreaterThan(200);
    for (const blob of blobs) {
      const fields = readObjectFields(blob, xrpl.definitions);
      expect(fields.map((field) => field.name)).toEqual(Object.keys(xrpl.codec.decode(blob.toString('hex'))));
      // Shuffled, the fields still serialize to the canonical bytes.
      expect(serializeFields([...fields].reverse()).equals(blob)).toBe(true);
    }
  });

  it('reads Jingtum transactions with the Jingtum definitions', () => {
    const { transactions } = readFixture<{ transactions: { tx_blob: string }[] }>('jingtum/tx-blobs.json');
    for (const { tx_blob } of transactions) {
      const blob = Buffer.from(tx_blob, 'hex');
      const fields = readObjectFields(blob, jingtum.definitions);
      expect(serializeFields(fields).equals(blob)).toBe(true);
    }
  });

  it('gives the value bytes alone: an AccountID without its length prefix, a nested array’s members as trees', () => {
    const blob = mainnetBlobs()[1]!;
    const decoded = xrpl.codec.decode(blob.toString('hex'));
    const nodes = readObjectFields(blob, xrpl.definitions).find((field) => field.name === 'AffectedNodes')!;
    expect(nodes.children!.map((member) => member.name)).toEqual(decoded.AffectedNodes.map((wrapper: object) => Object.keys(wrapper)[0]));
    const first = nodes.children![0]!;
    const key = first.children!.find((field) => field.name === 'LedgerIndex')!;
    expect(key.value.toString('hex').toUpperCase()).toBe(Object.values(decoded.AffectedNodes[0] as Record<string, any>)[0].LedgerIndex);
  });

  it('refuses a truncated object instead of reading past its end', () => {
    const blob = mainnetBlobs()[1]!;
    // The last field is TransactionResult (a 2-byte header and 1 byte): cut inside it, and inside AffectedNodes.
    expect(() => readObjectFields(blob.subarray(0, blob.length - 2), xrpl.definitions)).toThrow(UnreadableBinary);
    expect(() => readObjectFields(blob.subarray(0, blob.length - 4), xrpl.definitions)).toThrow(UnreadableBinary);
  });
});

describe('fixedField', () => {
  it('encodes a field as the codec does, header included', () => {
    const count = Buffer.from('0000002A', 'hex');
    expect(fixedField(xrpl.definitions, 'OwnerCount', count).encoded.toString('hex').toUpperCase()).toBe(xrpl.codec.encode({ OwnerCount: 42 }));
    const node = Buffer.from('0000000000000007', 'hex');
    expect(fixedField(xrpl.definitions, 'HighNode', node).encoded.toString('hex').toUpperCase()).toBe(xrpl.codec.encode({ HighNode: '7' }));
    expect(() => fixedField(xrpl.definitions, 'Account', Buffer.alloc(20))).toThrow(/not a fixed-width field/);
  });
});
