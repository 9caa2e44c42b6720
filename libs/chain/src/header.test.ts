import { describe, expect, it } from 'vitest';
import { hashes } from 'xrpl';
import {
  decodeLedgerHeader,
  encodeLedgerHeader,
  hashLedgerHeader,
  LEDGER_HEADER_LENGTH,
  ledgerHeaderFromJson,
  ledgerHeaderToJson,
} from './header';
import { allHeaderFixtures } from './test-fixtures';

const KNOWN_BAD_HEADER = 'xrpl/ledgers/privnet/3.json';

describe('hashLedgerHeader', () => {
  const fixtures = allHeaderFixtures();

  it('covers every recorded header fixture', () => {
    expect(fixtures.length).toBe(18);
  });

  for (const [file, fixture] of fixtures.filter(([name]) => name !== KNOWN_BAD_HEADER)) {
    it(`recomputes the recorded ledger_hash of ${file}`, () => {
      expect(hashLedgerHeader(ledgerHeaderFromJson(fixture.ledger))).toBe(fixture.ledger_hash);
    });
  }

  it('does not match the recorded hash of privnet ledger 3, whose stored header row is inconsistent', () => {
    const fixture = fixtures.find(([name]) => name === KNOWN_BAD_HEADER)![1];
    const recomputed = hashLedgerHeader(ledgerHeaderFromJson(fixture.ledger));
    expect(recomputed).toMatch(/^[0-9A-F]{64}$/);
    expect(recomputed).not.toBe(fixture.ledger_hash);
  });

  it('agrees with the published xrpl package on mainnet ledger 11119600', () => {
    const fixture = fixtures.find(([name]) => name.endsWith('11119600.json'))![1];
    const { transactions: _omitted, ...ledger } = fixture.ledger;
    expect(hashLedgerHeader(ledgerHeaderFromJson(ledger))).toBe(hashes.hashLedgerHeader(ledger as never));
  });

  it('changes when any single field changes', () => {
    const header = ledgerHeaderFromJson(fixtures[0]![1].ledger);
    const original = hashLedgerHeader(header);
    expect(hashLedgerHeader({ ...header, closeFlags: 1 })).not.toBe(original);
    expect(hashLedgerHeader({ ...header, parentCloseTime: header.parentCloseTime + 1 })).not.toBe(original);
    expect(hashLedgerHeader({ ...header, totalCoins: header.totalCoins - 1n })).not.toBe(original);
  });
});

describe('the hash chain of the fixtures', () => {
  it('links each mainnet ledger 11119600..11119604 to the hash recomputed from its parent', () => {
    const run = allHeaderFixtures().filter(([name]) => /mainnet\/1111960\d\.json$/.test(name) || name.endsWith('11119599.json'));
    expect(run.map(([, fixture]) => fixture.ledger_index)).toEqual([11119599, 11119600, 11119601, 11119602, 11119603, 11119604]);
    for (let position = 1; position < run.length; position++) {
      expect(run[position]![1].ledger.parent_hash).toBe(hashLedgerHeader(ledgerHeaderFromJson(run[position - 1]![1].ledger)));
    }
  });
});

describe('encodeLedgerHeader / decodeLedgerHeader', () => {
  for (const [file, fixture] of allHeaderFixtures()) {
    it(`round-trips the header of ${file} through ${LEDGER_HEADER_LENGTH} bytes`, () => {
      const header = ledgerHeaderFromJson(fixture.ledger);
      const bytes = encodeLedgerHeader(header);
      expect(bytes.length).toBe(LEDGER_HEADER_LENGTH);
      expect(decodeLedgerHeader(bytes)).toEqual(header);
      expect(decodeLedgerHeader(bytes.toString('hex'))).toEqual(header);
    });
  }

  it('lays out the fields in rippled order: sequence, total coins, three hashes, two times, resolution, flags', () => {
    const header = ledgerHeaderFromJson(allHeaderFixtures()[0]![1].ledger);
    const bytes = encodeLedgerHeader(header);
    expect(bytes.readUInt32BE(0)).toBe(header.ledgerIndex);
    expect(bytes.readBigUInt64BE(4)).toBe(header.totalCoins);
    expect(bytes.subarray(12, 44).toString('hex').toUpperCase()).toBe(header.parentHash);
    expect(bytes.subarray(76, 108).toString('hex').toUpperCase()).toBe(header.accountHash);
    expect(bytes.readUInt32BE(112)).toBe(header.closeTime);
    expect(bytes[116]).toBe(header.closeTimeResolution);
  });

  it('rejects a header of the wrong length with InvalidParams', () => {
    expect(() => decodeLedgerHeader(Buffer.alloc(LEDGER_HEADER_LENGTH - 1))).toThrow(/118 bytes, got 117/);
    expect(() => decodeLedgerHeader('zz')).toThrow(expect.objectContaining({ kind: 'invalid_params' }));
  });

  it('rejects out-of-range fields instead of truncating them', () => {
    const header = ledgerHeaderFromJson(allHeaderFixtures()[0]![1].ledger);
    expect(() => encodeLedgerHeader({ ...header, closeTimeResolution: 256 })).toThrow(/closeTimeResolution/);
    expect(() => encodeLedgerHeader({ ...header, totalCoins: 1n << 64n })).toThrow(/totalCoins/);
    expect(() => encodeLedgerHeader({ ...header, parentHash: 'AB' })).toThrow(/parentHash/);
  });
});

describe('ledgerHeaderFromJson', () => {
  it('accepts numbers or strings for integers and the legacy seqNum/totalCoins names', () => {
    const ledger = allHeaderFixtures()[0]![1].ledger;
    const fromStrings = ledgerHeaderFromJson(ledger);
    const legacy = {
      ...ledger,
      ledger_index: undefined,
      total_coins: undefined,
      seqNum: String(fromStrings.ledgerIndex),
      totalCoins: fromStrings.totalCoins.toString(),
      close_time: String(ledger.close_time),
    };
    expect(ledgerHeaderFromJson(legacy)).toEqual(fromStrings);
    expect(ledgerHeaderFromJson({ ...ledger, ledger_index: Number(ledger.ledger_index) })).toEqual(fromStrings);
  });

  it('treats an absent close_flags as 0', () => {
    const { close_flags: _flags, ...ledger } = allHeaderFixtures()[0]![1].ledger;
    expect(ledgerHeaderFromJson(ledger).closeFlags).toBe(0);
  });

  it('names the missing field', () => {
    const { parent_hash: _parent, ...ledger } = allHeaderFixtures()[0]![1].ledger;
    expect(() => ledgerHeaderFromJson(ledger)).toThrow(/parent_hash/);
  });
});

describe('ledgerHeaderToJson', () => {
  it('prints the rippled ledger fields that ledgerHeaderFromJson reads back', () => {
    const [, fixture] = allHeaderFixtures().find(([name]) => name.endsWith('11119600.json'))!;
    const header = ledgerHeaderFromJson(fixture.ledger);
    const json = ledgerHeaderToJson(header, fixture.ledger_hash);
    expect(json).toEqual({
      account_hash: '05B49354C6E2CE78AF1DD5B43A171193F9927DED17074FFA4096896359C7B314',
      close_flags: 0,
      close_time: 474575230,
      close_time_human: '2015-Jan-14 18:27:10.000000000 UTC',
      close_time_resolution: 10,
      closed: true,
      ledger_hash: 'D6D9B04452ADCC26D736DAA11277AA1E2FCFB394BABE3BC841EA26DB4F728F7B',
      ledger_index: '11119600',
      parent_close_time: 474575220,
      parent_hash: 'B5931AD267E59306769309AFF13FCCD55C2EF944E99228C8F2EEEC5D3B49234D',
      total_coins: '99999578392370270',
      transaction_hash: '6151873DAFF5331205B0F1EA1DDFAF3851979F5B34765BF7D180E6784F0481EE',
    });
    expect(ledgerHeaderFromJson(json)).toEqual(header);
  });
});
