import { decode as decodeWithStockTable, encode as encodeWithStockTable } from 'ripple-binary-codec';
import { classicAddressToXAddress } from 'ripple-address-codec';
import { describe, expect, it } from 'vitest';
import { hashes } from 'xrpl';
import { hashTransaction } from './hash';
import { decodeTransactionBlob, transactionFieldsFromJson, transactionFromLedgerJson } from './ledger-json';
import { getProfile } from './profiles';
import { jingtumBlobs, ledgerFixtures } from './test-fixtures';
import { readFixture } from '@ledger-node/test-utils';

const xrpl = getProfile('xrpl');
const jingtum = getProfile('jingtum');

const xrplLedgers = [...ledgerFixtures('xrpl/ledgers/mainnet'), ...ledgerFixtures('xrpl/ledgers/privnet')];
const JINGTUM_ADDRESS = /^j[1-9A-HJ-NP-Za-km-z]{24,34}$/;

/** Every AccountID text in a decoded value: AccountID fields, Amount/Issue issuers and path steps. */
function collectAddresses(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((member) => collectAddresses(member, found));
  else if (typeof value === 'object' && value !== null) {
    for (const [key, member] of Object.entries(value)) {
      if (typeof member === 'string' && ['Account', 'Destination', 'Issuer', 'Owner', 'RegularKey', 'FeeAccountID', 'issuer', 'account', 'Target'].includes(key)) {
        found.push(member);
      } else collectAddresses(member, found);
    }
  }
  return found;
}

describe('XRPL codec on the recorded ledgers', () => {
  for (const [file, fixture] of xrplLedgers) {
    const transactions = fixture.ledger.transactions ?? [];
    if (transactions.length === 0) continue;
    it(`recomputes every transaction hash of ${file} from the encoded fields (${transactions.length} txs)`, () => {
      for (const tx of transactions) {
        const { hash: recordedHash, metaData: _meta, ...fields } = tx;
        expect(hashTransaction(xrpl.codec.encode(fields))).toBe(recordedHash);
        expect(transactionFromLedgerJson(tx, xrpl).hash).toBe(recordedHash);
      }
    });
  }

  it('decodes an encoded transaction and its metadata back to the recorded JSON', () => {
    const [, fixture] = xrplLedgers.find(([name]) => name.endsWith('11119600.json'))!;
    const tx = fixture.ledger.transactions![0]!;
    const { txBlob, metaBlob } = transactionFromLedgerJson(tx, xrpl);
    const { hash: _hash, metaData, ...fields } = tx;
    expect(xrpl.codec.decode(txBlob)).toEqual(fields);
    expect(xrpl.codec.decode(metaBlob)).toEqual(metaData);
  });

  it('accepts the API v2 tx_json + meta form with DeliverMax in place of Amount', () => {
    const response = readFixture<{ result: Record<string, any> }>('xrpl/responses/xrpl-dev-portal/tx.ws-response.json');
    const { hash } = transactionFromLedgerJson(response.result, xrpl);
    expect(hash).toBe(response.result.hash);
    expect(transactionFieldsFromJson({ DeliverMax: '5', Account: 'x' })).toEqual({ Amount: '5', Account: 'x' });
  });

  it('produces the signing bytes the xrpl package hashes for a signed transaction', () => {
    const [, fixture] = xrplLedgers.find(([name]) => name.endsWith('7501326.json'))!;
    const { hash: recordedHash, metaData: _meta, ...fields } = fixture.ledger.transactions![0]!;
    expect(hashes.hashSignedTx(xrpl.codec.encode(fields))).toBe(recordedHash);
    expect(xrpl.codec.encodeForSigning(fields).startsWith('53545800')).toBe(true);
  });

  it('rejects an address with a bad checksum as InvalidParams', () => {
    const [, fixture] = xrplLedgers.find(([name]) => name.endsWith('11119600.json'))!;
    const { hash: _hash, metaData: _meta, ...fields } = fixture.ledger.transactions![0]!;
    const broken = { ...fields, Account: fields.Account.slice(0, -1) + (fields.Account.endsWith('g') ? 'h' : 'g') };
    expect(() => xrpl.codec.encode(broken)).toThrow(expect.objectContaining({ kind: 'invalid_params' }));
  });

  it('rejects non-hex binary input as InvalidParams', () => {
    expect(() => xrpl.codec.decode('12zz')).toThrow(expect.objectContaining({ kind: 'invalid_params' }));
  });

  it('encodes an X-address as its classic address and tag, as ripple-binary-codec does', () => {
    const [, fixture] = xrplLedgers.find(([name]) => name.endsWith('7501326.json'))!;
    const { hash: _hash, metaData: _meta, ...fields } = fixture.ledger.transactions![0]!;
    const tagged = { ...fields, Account: classicAddressToXAddress(fields.Account, 77, false) };
    expect(tagged.Account).toMatch(/^X/);
    expect(xrpl.codec.encode(tagged)).toBe(encodeWithStockTable({ ...fields, SourceTag: 77 }).toUpperCase());
    expect(xrpl.codec.encode(tagged)).toBe(xrpl.codec.encode({ ...fields, SourceTag: 77 }));
  });

  it('gives the same bytes for addresses as text or as AccountID hex, and keeps stack traces on after a failed encode', () => {
    const [, fixture] = xrplLedgers.find(([name]) => name.endsWith('11119600.json'))!;
    const { hash: _hash, metaData: _meta, ...fields } = fixture.ledger.transactions![0]!;
    const hex = Buffer.from(xrpl.codec.decodeAccountId(fields.Account)).toString('hex').toUpperCase();
    expect(xrpl.codec.encode({ ...fields, Account: hex })).toBe(xrpl.codec.encode(fields));
    expect(xrpl.codec.encode(fields)).toBe(encodeWithStockTable(fields).toUpperCase());
    const limit = Error.stackTraceLimit;
    expect(() => xrpl.codec.encode({ ...fields, Fee: 'twelve' })).toThrow(expect.objectContaining({ kind: 'invalid_params' }));
    expect(Error.stackTraceLimit).toBe(limit);
    expect(limit).toBeGreaterThan(0);
  });
});

/** What no message to a caller may hold: the JavaScript engine's words, or a stack. */
const ENGINE_TEXT = /TypeError|RangeError|Cannot read|undefined|reading '|properties of|\bat \w+ \(|\.[jt]s:\d/;

describe('garbage given to decode', () => {
  const [, fixture] = xrplLedgers.find(([name]) => name.endsWith('11119600.json'))!;
  const { txBlob } = transactionFromLedgerJson(fixture.ledger.transactions![0]!, xrpl);
  // Random bytes from a fixed seed (a linear congruential generator): the same garbage every run.
  let state = 20_261_129;
  const randomHex = (bytes: number) =>
    Array.from({ length: bytes }, () => ((state = (state * 1_103_515_245 + 12_345) % 2 ** 31) >> 16) & 0xff)
      .map((byte) => byte.toString(16).padStart(2, '0'))
      .join('');
  const garbage: [string, string][] = [
    ['odd hex length', 'ABC'],
    ['non-hex', 'ZZZZ'],
    ['empty', ''],
    ['a valid transaction cut short', txBlob.slice(0, 40)],
    ['a valid transaction missing its last byte', txBlob.slice(0, -2)],
    ['an unknown field code', 'DEADBEEF'],
    ['one byte', '00'],
    ...Array.from({ length: 20 }, (_, index): [string, string] => [`random bytes #${index + 1}`, randomHex(8 + index * 13)]),
  ];

  it.each(garbage)('%s: InvalidParams in plain words, never the engine\'s text', (_what, hex) => {
    for (const profile of [xrpl, jingtum]) {
      let thrown: unknown;
      try {
        profile.codec.decode(hex);
      } catch (error) {
        thrown = error;
      }
      // Random bytes may happen to decode; what does not is refused plainly.
      if (thrown === undefined) continue;
      expect(thrown).toMatchObject({ kind: 'invalid_params', message: expect.stringMatching(/^(cannot decode: |binary input must be)/) });
      expect((thrown as Error).message).not.toMatch(ENGINE_TEXT);
      expect((thrown as Error).message).not.toMatch(/^cannot decode: $/);
    }
  });

  it('names what it can: data that ends inside a field, a field code the chain does not define', () => {
    expect(() => xrpl.codec.decode(txBlob.slice(0, 40))).toThrow('cannot decode: the data ends inside a field');
    expect(() => xrpl.codec.decode('DEADBEEF')).toThrow('cannot decode: malformed: a field or type the chain does not define, or a value that does not fit its field');
  });
});

describe('Jingtum codec on the recorded blobs', () => {
  const blobs = jingtumBlobs();

  it('holds 44 distinct blobs', () => {
    expect(new Set(blobs.map((blob) => blob.tx_blob)).size).toBe(44);
  });

  blobs.forEach((blob, position) => {
    it(`decodes blob #${position} to j addresses, re-encodes it byte-exact and recomputes its hash`, () => {
      const decoded = jingtum.codec.decode(blob.tx_blob);
      const addresses = collectAddresses(decoded);
      expect(addresses.length).toBeGreaterThan(0);
      for (const address of addresses) {
        expect(address).toMatch(JINGTUM_ADDRESS);
        expect(jingtum.codec.isValidAddress(address)).toBe(true);
      }
      expect(jingtum.codec.encode(decoded)).toBe(blob.tx_blob.toUpperCase());
      expect(hashTransaction(blob.tx_blob)).toBe(blob.hash);
    });
  });

  it('names every transaction type with a Jingtum name', () => {
    const types = blobs.map((blob) => jingtum.codec.decode(blob.tx_blob).TransactionType as string);
    const counts = Object.fromEntries([...new Set(types)].sort().map((type) => [type, types.filter((each) => each === type).length]));
    expect(counts).toEqual({
      AccountSet: 7,
      AlethContract: 2,
      Brokerage: 3,
      ConfigContract: 4,
      OfferCancel: 4,
      OfferCreate: 3,
      Payment: 13,
      RelationSet: 4,
      SignerListSet: 3,
      TrustSet: 1,
    });
  });

  // swtclib docs/docs/api getAccountPayment shows this payment (same hash): sender jpmKEm2s…, counterparty
  // j3vyFAMQ…, 1 JSLASH issued by jGa9J9Tk…, memo 'test payment', fee 0.01 SWT.
  it('decodes the first blob to the payment swtclib documents for its hash', () => {
    expect(blobs[0]!.hash).toBe('84CCE378A2882D417AC311CA027FC1EAD21E5486B7C7E6FBFE71187FF28E0F65');
    const decoded = jingtum.codec.decode(blobs[0]!.tx_blob);
    expect(decoded).toMatchObject({
      TransactionType: 'Payment',
      Account: 'jpmKEm2sUevfpFjS7QHdT8Sx7ZGoEXTJAz',
      Destination: 'j3vyFAMQW2Ls48eoFCTsMXFq2KNWVUskSx',
      Amount: { value: '1', currency: 'JSLASH', issuer: 'jGa9J9TkqtBcUoHe2zqhVFFbgUVED6o9or' },
      Fee: '10000',
      Memos: [{ Memo: { MemoData: Buffer.from('test payment').toString('hex').toUpperCase() } }],
    });
    // A six-letter code travels as 20 bytes: the ASCII text ending at byte 14, every other byte zero.
    expect(jingtum.codec.encode(decoded)).toBe(blobs[0]!.tx_blob.toUpperCase());
    expect(jingtum.codec.encode({ ...decoded, Amount: { ...decoded.Amount, currency: '0000000000000000004A534C4153480000000000' } })).toBe(
      blobs[0]!.tx_blob.toUpperCase(),
    );
  });

  it('encodes j addresses and refuses r addresses, whose checksum fails in the Jingtum alphabet', () => {
    const decoded = jingtum.codec.decode(blobs[0]!.tx_blob);
    expect(() => jingtum.codec.encode({ ...decoded, Account: 'rpmKEm2sUevfpFrS7QHdT8Sx7ZGoEXTJAz' })).toThrow(/Account/);
  });

  it('is needed: the stock XRPL table fails on some blobs and mis-names others', () => {
    const outcomes = blobs.map((blob) => {
      try {
        return { decoded: decodeWithStockTable(blob.tx_blob) as Record<string, unknown> };
      } catch (error) {
        return { error: String(error) };
      }
    });
    const failures = outcomes.filter((outcome) => outcome.error !== undefined);
    const misnamed = outcomes.filter(
      (outcome) => outcome.decoded !== undefined && ['LastUpdateTime', 'VoteSlots', 'CancelAfter'].some((field) => JSON.stringify(outcome.decoded).includes(`"${field}"`)),
    );
    expect(failures.length).toBeGreaterThan(0);
    expect(misnamed.length).toBeGreaterThan(0);
    const stockTypes = outcomes.map((outcome) => outcome.decoded?.TransactionType);
    expect(stockTypes).toContain('Clawback');
  });

  it('names the Jingtum-only fields Timestamp and Signers, which the stock table calls LastUpdateTime and VoteSlots', () => {
    const positionsHolding = (field: string) => blobs.flatMap((blob, position) => (field in jingtum.codec.decode(blob.tx_blob) ? [position] : []));
    expect(positionsHolding('Timestamp')).toEqual([16]);
    expect(positionsHolding('Signers')).toEqual([11, 12, 13, 25, 26, 27, 35, 43]);
    expect(positionsHolding('Memos')).toHaveLength(14);

    const stamped = jingtum.codec.decode(blobs[16]!.tx_blob);
    const stockStamped = decodeWithStockTable(blobs[16]!.tx_blob) as Record<string, unknown>;
    expect(stockStamped).not.toHaveProperty('Timestamp');
    expect(stockStamped.LastUpdateTime).toBe(stamped.Timestamp);
    for (const position of positionsHolding('Signers')) {
      const stock = decodeWithStockTable(blobs[position]!.tx_blob) as Record<string, unknown>;
      expect(stock).not.toHaveProperty('Signers');
      expect(stock).toHaveProperty('VoteSlots');
    }
  });

  it('verifies the signature of every blob over the signing bytes the codec rebuilds (single and multi-signed)', () => {
    let multiSigned = 0;
    for (const blob of blobs) {
      const tx = jingtum.codec.decode(blob.tx_blob);
      if (Array.isArray(tx.Signers)) {
        multiSigned++;
        // rippled multisign: SigningPubKey is empty and each signer signs 'SMT\0' + fields + its AccountID.
        expect(tx.SigningPubKey).toBe('');
        for (const { Signer: signer } of tx.Signers) {
          const signingBytes = jingtum.codec.encodeForMultisigning!(tx, signer.Account);
          expect(jingtum.keys.verify(signingBytes, signer.TxnSignature, signer.SigningPubKey)).toBe(true);
        }
      } else {
        expect(jingtum.keys.verify(jingtum.codec.encodeForSigning(tx), tx.TxnSignature, tx.SigningPubKey)).toBe(true);
      }
    }
    expect(multiSigned).toBe(8);
  });

  it('names a trust line SkywellState where the XRPL names the same code RippleState', () => {
    const entry = { LedgerEntryType: 'SkywellState', Flags: 0 };
    const bytes = jingtum.codec.encode(entry);
    expect(bytes).toBe(xrpl.codec.encode({ LedgerEntryType: 'RippleState', Flags: 0 }));
    expect(jingtum.codec.decode(bytes)).toEqual(entry);
    expect(() => jingtum.codec.encode({ LedgerEntryType: 'RippleState', Flags: 0 })).toThrow(expect.objectContaining({ kind: 'invalid_params' }));
  });

  describe('legacy contract numbering (before swtclib 2019-10-28)', () => {
    const legacyPositions = blobs
      .map((blob, position) => [position, jingtum.codec.decode(blob.tx_blob)] as const)
      .filter(([, decoded]) => jingtum.legacyMarkerFields!.some((field) => JSON.stringify(decoded).includes(`"${field}"`)))
      .map(([position]) => position);

    it('is recognised on blobs #5, #6, #8 and #22 only', () => {
      expect(legacyPositions).toEqual([5, 6, 8, 22]);
    });

    it('is applied by decodeTransactionBlob only to the blobs that need it', () => {
      blobs.forEach((blob, position) => {
        const expected = legacyPositions.includes(position)
          ? jingtum.legacyContractCodec!.decode(blob.tx_blob)
          : jingtum.codec.decode(blob.tx_blob);
        expect(decodeTransactionBlob(blob.tx_blob, jingtum)).toEqual(expected);
      });
      expect(decodeTransactionBlob(blobs[6]!.tx_blob, jingtum)).toMatchObject({ Method: 1, ContractMethod: '666F6F' });
    });

    for (const position of [5, 6, 8, 22]) {
      it(`decodes blob #${position} with the contract field names of its time and re-encodes it byte-exact`, () => {
        const blob = blobs[position]!.tx_blob;
        const decoded = jingtum.legacyContractCodec!.decode(blob);
        const text = JSON.stringify(decoded);
        for (const field of [...jingtum.legacyMarkerFields!, 'SignerQuorum', 'TokenInfos']) expect(text).not.toContain(`"${field}"`);
        expect(text).toMatch(/"(Payload|Method|Args)"/);
        expect(jingtum.legacyContractCodec!.encode(decoded)).toBe(blob.toUpperCase());
      });
    }
  });
});

describe('address conversion', () => {
  it('maps the zero account to rrrrrrrrrrrrrrrrrrrrrhoLvTp and jjjjjjjjjjjjjjjjjjjjjhoLvTp', () => {
    expect(xrpl.codec.encodeAccountId(new Uint8Array(20))).toBe('rrrrrrrrrrrrrrrrrrrrrhoLvTp');
    expect(jingtum.codec.encodeAccountId(new Uint8Array(20))).toBe('jjjjjjjjjjjjjjjjjjjjjhoLvTp');
  });

  it('gives the same AccountID for an address and its counterpart in the other alphabet', () => {
    const accountId = xrpl.codec.decodeAccountId('rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh');
    expect(jingtum.codec.encodeAccountId(accountId)).toBe('jHb9CJAWyB4jr91VRWn96DkukG4bwdtyTh');
    expect(Buffer.from(jingtum.codec.decodeAccountId('jHb9CJAWyB4jr91VRWn96DkukG4bwdtyTh'))).toEqual(Buffer.from(accountId));
  });

  it('rejects malformed addresses with InvalidParams and reports them invalid', () => {
    for (const address of ['', 'r', 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTi', 'jHb9CJAWyB4jr91VRWn96DkukG4bwdtyTh', 'rHb9CJAWyB4rj91VRWn96DkukG4bwdty0h']) {
      expect(xrpl.codec.isValidAddress(address)).toBe(false);
      expect(() => xrpl.codec.decodeAccountId(address)).toThrow(expect.objectContaining({ kind: 'invalid_params' }));
    }
    expect(jingtum.codec.isValidAddress('rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh')).toBe(false);
  });
});
