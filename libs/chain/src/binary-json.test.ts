import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BinaryJsonDecoder } from './binary-json';
import { UnreadableBinary } from './binary-reader';
import { AddressCodec } from './base58';
import { createChainCodec } from './codec';
import { jingtumLegacyContractDefinitions } from './definitions';
import { stateEntryFromLedgerJson, transactionFromLedgerJson } from './ledger-json';
import { getProfile, type ChainProfile } from './profiles';
import { jingtumBlobs, ledgerFixtures } from './test-fixtures';

const xrpl = getProfile('xrpl');
const jingtum = getProfile('jingtum');

/** Today's decode: ripple-binary-codec alone, addresses rewritten into the profile's alphabet. */
function codecOnly(profile: ChainProfile) {
  return createChainCodec({ alphabet: profile.addressAlphabet, definitions: profile.definitions, longCurrencyCodes: profile.longCurrencyCodes, singlePassDecode: false });
}

function singlePass(profile: ChainProfile): BinaryJsonDecoder {
  return new BinaryJsonDecoder(profile.definitions, new AddressCodec(profile.addressAlphabet), profile.longCurrencyCodes);
}

/** Every transaction and metadata blob, and every state entry, of the recorded XRPL ledgers. */
function xrplBlobs(): { name: string; hex: string }[] {
  return [...ledgerFixtures('xrpl/ledgers/mainnet'), ...ledgerFixtures('xrpl/ledgers/privnet')].flatMap(([file, fixture]) => [
    ...(fixture.ledger.transactions ?? []).flatMap((tx) => {
      const { hash, txBlob, metaBlob } = transactionFromLedgerJson(tx, xrpl);
      return [
        { name: `${file} tx ${hash}`, hex: txBlob },
        { name: `${file} meta ${hash}`, hex: metaBlob },
      ];
    }),
    ...(fixture.ledger.accountState ?? []).map((entry) => {
      const { index, blob } = stateEntryFromLedgerJson(entry, xrpl);
      return { name: `${file} state ${index}`, hex: blob };
    }),
  ]);
}

/** The outcome of a decode: its value, or the error it threw (class, kind and message). */
function outcome(decode: () => unknown): unknown {
  try {
    return { value: decode() };
  } catch (error) {
    return { thrown: error instanceof Error ? { name: error.name, kind: (error as { kind?: string }).kind, message: error.message } : error };
  }
}

/** Same value (keys in the same order) or the same error. */
function expectSameOutcome(decode: () => unknown, reference: () => unknown): void {
  const actual = outcome(decode);
  const expected = outcome(reference);
  expect(actual).toStrictEqual(expected);
  expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
}

describe('BinaryJsonDecoder', () => {
  const blobs = xrplBlobs();

  it('renders every transaction, metadata and state entry of the recorded XRPL ledgers as ripple-binary-codec does, without falling back', () => {
    expect(blobs.length).toBeGreaterThan(900);
    const reference = codecOnly(xrpl);
    const decoder = singlePass(xrpl);
    for (const { name, hex } of blobs) {
      const expected = reference.decode(hex);
      const decoded = decoder.decode(Buffer.from(hex, 'hex'));
      expect(decoded, name).toStrictEqual(expected);
      expect(JSON.stringify(decoded), name).toBe(JSON.stringify(expected));
      expect(JSON.stringify(xrpl.codec.decode(hex)), name).toBe(JSON.stringify(expected));
      // The bytes themselves, as the store gives them (a Buffer, or a view inside a larger message), decode the same.
      const framed = Buffer.concat([Buffer.from('FFFF', 'hex'), Buffer.from(hex, 'hex'), Buffer.from('FF', 'hex')]);
      expect(JSON.stringify(xrpl.codec.decode(Buffer.from(hex, 'hex'))), name).toBe(JSON.stringify(expected));
      expect(JSON.stringify(xrpl.codec.decode(new Uint8Array(framed.buffer, framed.byteOffset + 2, framed.length - 3))), name).toBe(JSON.stringify(expected));
    }
  });

  it('renders every recorded Jingtum blob with Jingtum names and j addresses as the codec does, without falling back', () => {
    const reference = codecOnly(jingtum);
    const decoder = singlePass(jingtum);
    for (const [position, { tx_blob: hex }] of jingtumBlobs().entries()) {
      const expected = reference.decode(hex);
      const decoded = decoder.decode(Buffer.from(hex, 'hex'));
      expect(decoded, `blob #${position}`).toStrictEqual(expected);
      expect(JSON.stringify(decoded), `blob #${position}`).toBe(JSON.stringify(expected));
      expect(JSON.stringify(jingtum.codec.decode(hex)), `blob #${position}`).toBe(JSON.stringify(expected));
    }
  });

  it('renders Jingtum blobs with the legacy contract numbering as the codec does, and names the fields that numbering lacks by their type', () => {
    const reference = createChainCodec({
      alphabet: jingtum.addressAlphabet,
      definitions: jingtumLegacyContractDefinitions,
      longCurrencyCodes: true,
      singlePassDecode: false,
    });
    let unnamed = 0;
    for (const { tx_blob: hex } of jingtumBlobs()) {
      const expected = outcome(() => reference.decode(hex)) as object;
      if ('value' in expected) {
        expectSameOutcome(() => jingtum.legacyContractCodec!.decode(hex), () => reference.decode(hex));
        continue;
      }
      // The codec refuses a field its table does not name; the decoder reads it by its type code.
      unnamed++;
      expect(JSON.stringify(jingtum.legacyContractCodec!.decode(hex))).toMatch(/"Unknown_(UInt32|Blob|STArray|STObject)_\d+"/);
    }
    expect(unnamed).toBeGreaterThan(0);
  });

  it('reads a field of a known type that the table does not name as Unknown_<type>_<nth>, in a transaction and inside metadata', () => {
    // Hash256 nth 200 and UInt32 nth 200 name no field of the XRPL table.
    const tx = xrpl.codec.encode({ TransactionType: 'AccountSet', Account: xrpl.genesis.address, Fee: '10', Sequence: 1 });
    const withUnknown = tx + '50C8' + 'AB'.repeat(32) + '20C800000007';
    expect(() => codecOnly(xrpl).decode(withUnknown)).toThrow();
    expect(xrpl.codec.decode(withUnknown)).toMatchObject({ TransactionType: 'AccountSet', Unknown_Hash256_200: 'AB'.repeat(32), Unknown_UInt32_200: 7 });
    // A type code the table does not know cannot be measured: still refused.
    expect(() => xrpl.codec.decode(tx + '01FA00')).toThrow(/unknown field|cannot decode/);
  });

  it('leaves a field it does not render to the codec, whose answer decode returns', () => {
    // An MPT amount: the single-pass decoder refuses the blob, the codec renders it.
    const hex = xrpl.codec.encode({
      TransactionType: 'Payment',
      Account: xrpl.genesis.address,
      Destination: 'rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe',
      Amount: { mpt_issuance_id: '000004C463C52827307480341125DA0577DEFC38405B0E3E', value: '100' },
      Fee: '12',
      Sequence: 1,
    });
    expect(() => singlePass(xrpl).decode(Buffer.from(hex, 'hex'))).toThrow(UnreadableBinary);
    expectSameOutcome(() => xrpl.codec.decode(hex), () => codecOnly(xrpl).decode(hex));
    expect(xrpl.codec.decode(hex).Amount).toStrictEqual({ mpt_issuance_id: '000004C463C52827307480341125DA0577DEFC38405B0E3E', value: '100' });
    expectSameOutcome(() => xrpl.codec.decode(Buffer.from(hex, 'hex')), () => codecOnly(xrpl).decode(hex));
  });

  it('refuses bytes it cannot decode as it refuses their hex, and no bytes at all', () => {
    const truncated = xrpl.codec.encode({ TransactionType: 'AccountSet', Account: xrpl.genesis.address, Fee: '12', Sequence: 1 }).slice(0, 20);
    expectSameOutcome(() => xrpl.codec.decode(Buffer.from(truncated, 'hex')), () => xrpl.codec.decode(truncated));
    expect(() => xrpl.codec.decode(Buffer.alloc(0))).toThrow(expect.objectContaining({ kind: 'invalid_params', message: expect.stringContaining('binary input must be non-empty bytes') }));
    expect(() => xrpl.codec.decode(42 as never)).toThrow(expect.objectContaining({ kind: 'invalid_params' }));
  });

  it('renders every UInt64 field as the codec does: base 10 for the amounts it names, 16 hex digits for the rest', () => {
    const fields = Object.values(xrpl.definitions.field as unknown as Record<string, { name: string; type: { name: string }; header: Uint8Array }>).filter(
      (field) => field.type.name === 'UInt64',
    );
    expect(fields.map((field) => field.name)).toContain('MaximumAmount');
    for (const field of fields) {
      // 2^53 + 1: a value a double would round.
      const hex = Buffer.from(field.header).toString('hex') + '0020000000000001';
      expect(singlePass(xrpl).decode(Buffer.from(hex, 'hex')), field.name).toStrictEqual(codecOnly(xrpl).decode(hex));
    }
    expect(xrpl.codec.decode('3018' + '0020000000000001')).toStrictEqual({ MaximumAmount: '9007199254740993' });
  });

  it('renders issued amounts and currencies exactly as the codec does (random values)', () => {
    const decoder = singlePass(xrpl);
    const reference = codecOnly(xrpl);
    // Up to 16 significant digits with a normalized exponent (of the 16-digit mantissa) within -96..80: every value the codec encodes.
    const issuedValue = fc
      .tuple(fc.bigInt({ min: 1n, max: 9_999_999_999_999_999n }), fc.integer({ min: -96, max: 80 }), fc.boolean())
      .map(([digits, exponent, negative]) => `${negative ? '-' : ''}${digits}e${exponent + 16 - String(digits).length}`);
    const currency = fc.oneof(
      fc.stringMatching(/^[A-Za-z0-9?!@#$%^&*(){}[\]|<>]{3}$/).filter((code) => code !== 'XRP'),
      fc.uint8Array({ minLength: 20, maxLength: 20 }).map((bytes) => Buffer.from(bytes).toString('hex').toUpperCase()),
      fc.uint8Array({ minLength: 3, maxLength: 3 }).map((code) => `${'00'.repeat(12)}${Buffer.from(code).toString('hex')}${'00'.repeat(5)}`.toUpperCase()),
    );
    fc.assert(
      fc.property(issuedValue, currency, fc.uint8Array({ minLength: 20, maxLength: 20 }), (value, code, issuer) => {
        const hex = xrpl.codec.encode({ TakerPays: { value, currency: code, issuer: Buffer.from(issuer).toString('hex').toUpperCase() } });
        expectSameOutcome(() => decoder.decode(Buffer.from(hex, 'hex')), () => reference.decode(hex));
      }),
      { numRuns: 2000 },
    );
  });

  it('renders any 8-byte issued value the codec renders, and refuses the ones it refuses (random bytes)', () => {
    const decoder = singlePass(xrpl);
    const reference = codecOnly(xrpl);
    const issuer = '0'.repeat(38) + '01';
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: (1n << 63n) - 1n }), (bits) => {
        const amount = ((1n << 63n) | bits).toString(16).padStart(16, '0');
        const hex = `65${amount}${'00'.repeat(12)}555344${'00'.repeat(5)}${issuer}`.toUpperCase();
        const expected = outcome(() => reference.decode(hex));
        const decoded = outcome(() => decoder.decode(Buffer.from(hex, 'hex')));
        if ('value' in (expected as object)) expect(decoded).toStrictEqual(expected);
        else expect((decoded as { thrown: { name: string } }).thrown.name).toBe('UnreadableBinary');
      }),
      { numRuns: 5000 },
    );
  });
});

describe('ChainCodec.decode on malformed input', () => {
  const [, fixture] = ledgerFixtures('xrpl/ledgers/mainnet').find(([name]) => name.endsWith('11119600.json'))!;
  const { txBlob, metaBlob } = transactionFromLedgerJson(fixture.ledger.transactions![0]!, xrpl);

  const cases: [string, string][] = [
    ['a truncated transaction', txBlob.slice(0, -6)],
    ['truncated metadata (inside an array of nodes)', metaBlob.slice(0, metaBlob.length / 2)],
    ['metadata without its last end markers', metaBlob.slice(0, -4)],
    ['odd-length hex', txBlob.slice(0, -1)],
    ['non-hex text', 'zz' + txBlob],
    ['trailing bytes', txBlob + '00'],
    ['trailing bytes after a top-level end marker', txBlob + 'E1ABCD'],
    ['an unknown field code', txBlob + '2F01020304'],
    ['a field id written in two bytes though it fits in one', '0102' + txBlob],
    ['an empty AccountID', '8100'],
    ['a transaction type without a name', '12FFFE'],
  ];

  for (const [what, hex] of cases) {
    it(`behaves as the codec for ${what}`, () => {
      expectSameOutcome(() => xrpl.codec.decode(hex), () => codecOnly(xrpl).decode(hex));
      expectSameOutcome(() => jingtum.codec.decode(hex), () => codecOnly(jingtum).decode(hex));
    });
  }

  it('throws InvalidParams for truncated input', () => {
    expect(() => xrpl.codec.decode(txBlob.slice(0, -6))).toThrow(expect.objectContaining({ kind: 'invalid_params', message: expect.stringMatching(/^cannot decode: /) }));
  });
});
