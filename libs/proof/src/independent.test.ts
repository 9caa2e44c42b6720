/**
 * A second verifier, written here from the public format (XLS-41 and rippled's hashing rules)
 * with node:crypto, ripple-binary-codec and ripple-keypairs alone, accepts what the builders make
 * and refuses what they should not: the builders are not checked only by their own verifier.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decode, encode } from 'ripple-binary-codec';
import { verify as verifySignature } from 'ripple-keypairs';
import { readFixture } from '@ledger-node/test-utils';
import { buildStateProof, buildTransactionProof } from './build';
import { proofLedgerOf } from './document';
import { asJson, fixtureLedger, testNetwork, xrpl } from './test-network';

type Json = Record<string, unknown>;
type Branches = (string | Branches)[];

const sha512Half = (...parts: Buffer[]) => createHash('sha512').update(Buffer.concat(parts)).digest().subarray(0, 32);
const prefix = (letters: string) => Buffer.from(`${letters}\0`, 'latin1');
const hex = (text: unknown) => Buffer.from(String(text), 'hex');
const upper = (bytes: Buffer) => bytes.toString('hex').toUpperCase();

function u32(value: unknown): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(Number(value));
  return bytes;
}

function ledgerHash(ledger: Json): string {
  const coins = Buffer.alloc(8);
  coins.writeBigUInt64BE(BigInt(String(ledger.coins)));
  return upper(sha512Half(prefix('LWR'), u32(ledger.index), coins, hex(ledger.phash), hex(ledger.txroot), hex(ledger.acroot), u32(ledger.pclose), u32(ledger.close), Buffer.of(Number(ledger.cres)), Buffer.of(Number(ledger.flags))));
}

/** rippled's variable-length prefix, for blobs under 12481 bytes. */
function lengthPrefix(length: number): Buffer {
  return length <= 192 ? Buffer.of(length) : Buffer.of(193 + ((length - 193) >> 8), (length - 193) & 0xff);
}

function innerHash(branches: Branches): Buffer {
  return sha512Half(prefix('MIN'), ...branches.map((branch) => (typeof branch === 'string' ? hex(branch) : innerHash(branch))));
}

/** The hash the key's nibbles lead to in a list-form proof. */
function leafOnPath(branches: Branches, key: string): string {
  let node: string | Branches = branches;
  for (let depth = 0; typeof node !== 'string'; depth++) node = node[Number.parseInt(key[depth]!, 16)]!;
  return node;
}

function pathHolds(proof: unknown, key: string, leaf: Buffer, root: unknown): boolean {
  const branches = proof as Branches;
  return leafOnPath(branches, key) === upper(leaf) && upper(innerHash(branches)) === root;
}

/** A manifest's master and signing keys, when both its signatures verify over 'MAN\0' + its other fields. */
function manifestKeys(base64: string): { master: string; signing: string } | undefined {
  const { Signature: signature, MasterSignature: masterSignature, ...fields } = decode(Buffer.from(base64, 'base64').toString('hex')) as Json;
  const signed = upper(prefix('MAN')) + encode(fields as never);
  const master = String(fields.PublicKey);
  const signing = String(fields.SigningPubKey);
  return verifySignature(signed, String(signature), signing) && verifySignature(signed, String(masterSignature), master) ? { master, signing } : undefined;
}

/** What the document fails, in the verifier's own words; empty when it proves what it carries. */
function independentProblems(document: Json, publisherKey: string): string[] {
  const problems: string[] = [];
  const ledger = document.ledger as Json;
  let validated = ledger;
  const provenHash = ledgerHash(ledger);
  const link = document.ledger_proof as Json | undefined;
  /** The last of `headers` (the proven ledger when none) and its hash, each header naming the one before as phash. */
  const chainUp = (headers: Json[]) => {
    let [last, lastHash] = [ledger, provenHash];
    for (const header of headers) {
      if (header.phash !== lastHash || Number(header.index) !== Number(last.index) + 1) problems.push('header chain');
      [last, lastHash] = [header, ledgerHash(header)];
    }
    return { last, lastHash };
  };
  if (link?.kind === 'header_chain') {
    validated = chainUp(link.headers as Json[]).last;
  } else if (link?.kind === 'skip_list') {
    // With headers, the list names the last header: the proven ledger's descendant.
    const { last: listed, lastHash: listedHash } = chainUp((link.headers ?? []) as Json[]);
    validated = link.ledger as Json;
    const entry = link.state as Json;
    const key = String(entry.key);
    const leaf = sha512Half(prefix('MLN'), hex(entry.blob), hex(key));
    if (!pathHolds(entry.proof, key, leaf, validated.acroot)) problems.push('skip list path');
    const { LastLedgerSequence: last, Hashes: hashes } = decode(String(entry.blob)) as { LastLedgerSequence: number; Hashes: string[] };
    const shortList = upper(sha512Half(Buffer.of(0, 0x73)));
    const spacing = key === shortList ? 1 : 256;
    if (key !== shortList && key !== upper(sha512Half(Buffer.of(0, 0x73), u32(Math.floor(Number(listed.index) / 65536))))) problems.push('skip list key');
    if (hashes[hashes.length - 1 - (last - Number(listed.index)) / spacing] !== listedHash) problems.push('skip list hash');
  }
  const validatedHash = ledgerHash(validated);

  const unl = (document.validation as Json).unl as Json;
  const publisher = manifestKeys(String(unl.manifest));
  if (publisher?.master !== publisherKey || !verifySignature(Buffer.from(String(unl.blob), 'base64').toString('hex'), String(unl.signature), publisher.signing)) {
    return [...problems, 'list signature'];
  }
  const blob = JSON.parse(Buffer.from(String(unl.blob), 'base64').toString('utf8')) as { effective?: number; expiration: number; validators: { validation_public_key: string; manifest: string }[] };
  if (!((blob.effective ?? 0) <= Number(validated.close) && Number(validated.close) < blob.expiration)) problems.push('list not in force');
  const signingKeys = new Set(blob.validators.map((validator) => manifestKeys(validator.manifest)).filter((keys) => keys !== undefined).map((keys) => keys.signing));

  const counted = new Set<string>();
  for (const blobHex of Object.values((document.validation as Json).data as Record<string, string>)) {
    const { Signature: signature, ...fields } = decode(blobHex) as Json;
    const signingKey = String(fields.SigningPubKey);
    const good = verifySignature(upper(prefix('VAL')) + encode(fields as never), String(signature), signingKey) && (Number(fields.Flags) & 1) === 1 && fields.LedgerHash === validatedHash;
    if (!good) problems.push('validation');
    else if (signingKeys.has(signingKey)) counted.add(signingKey);
  }
  if (counted.size < Math.ceil((blob.validators.length * 4) / 5)) problems.push('quorum');

  const transaction = document.transaction as Json | undefined;
  if (transaction) {
    const txId = sha512Half(prefix('TXN'), hex(transaction.blob));
    const [blobBytes, metaBytes] = [hex(transaction.blob), hex(transaction.meta)];
    const leaf = sha512Half(prefix('SND'), lengthPrefix(blobBytes.length), blobBytes, lengthPrefix(metaBytes.length), metaBytes, txId);
    if (!pathHolds(transaction.proof, upper(txId), leaf, ledger.txroot)) problems.push('transaction path');
  }
  for (const entry of (document.state ?? []) as Json[]) {
    const leaf = sha512Half(prefix('MLN'), hex(entry.blob), hex(entry.key));
    if (!pathHolds(entry.proof, String(entry.key), leaf, ledger.acroot)) problems.push('state path');
  }
  return problems;
}

describe('an independent verifier', () => {
  const network = testNetwork();
  const ledger = fixtureLedger('xrpl/ledgers/mainnet/11119603.json');
  const stateLedger = fixtureLedger('xrpl/ledgers/mainnet/38129-full-state.json');
  const xpop = (hash: string, validations = network.validate(ledger.header)) =>
    asJson(buildTransactionProof({ profile: xrpl, header: ledger.header, transactions: ledger.transactions, hash, validations, list: network.list }));

  it('accepts a recorded XPOP in the list form (mainnet ledger 83576782), so that it is a verifier of the real format', () => {
    const recorded = readFixture<Json>('xrpl/trust/xpop-mainnet-83576782.json');
    expect(independentProblems(recorded, 'ED45D1840EE724BE327ABE9146503D5848EFD5F38B6D5FEDE71E80ACCE5E6E738B')).toEqual([]);
  });

  it('accepts the XPOP of every transaction of ledger 11119603', () => {
    for (const { hash } of ledger.transactions) expect(independentProblems(xpop(hash), network.publisherKey)).toEqual([]);
  });

  it('accepts a state proof of ledger 38129', () => {
    const keys = [...stateLedger.state!.entries()].slice(0, 3).map((entry) => entry.index);
    const proof = buildStateProof({ profile: xrpl, header: stateLedger.header, state: stateLedger.state!, keys, validations: network.validate(stateLedger.header), list: network.list });
    expect(independentProblems(asJson(proof), network.publisherKey)).toEqual([]);
  });

  it('accepts a transaction of ledger 11119600 proven through the header chain up to validated ledger 11119604', () => {
    const [proven, ...later] = [11119600, 11119601, 11119602, 11119603, 11119604].map((index) => fixtureLedger(`xrpl/ledgers/mainnet/${index}.json`));
    const proof = buildTransactionProof({
      profile: xrpl,
      header: proven!.header,
      transactions: proven!.transactions,
      hash: proven!.transactions[2]!.hash,
      validations: network.validate(later[3]!.header),
      list: network.list,
      later: { kind: 'header_chain', headers: later.map((entry) => entry.header) },
    });
    expect(independentProblems(asJson(proof), network.publisherKey)).toEqual([]);
  });

  it('accepts a ledger proven by the skip list of a later one', () => {
    const state = stateLedger.state!.snapshot();
    const headerHash = ledgerHash(asJson(xpop(ledger.transactions[0]!.hash)).ledger as Json);
    state.set(upper(sha512Half(Buffer.of(0, 0x73))), encode({ LedgerEntryType: 'LedgerHashes', Flags: 0, LastLedgerSequence: 11119603, Hashes: ['0'.repeat(64), headerHash] } as never));
    const laterHeader = { ...ledger.header, ledgerIndex: 11119604, accountHash: state.root(), closeTime: ledger.header.closeTime + 4 };
    const proof = buildTransactionProof({
      profile: xrpl,
      header: ledger.header,
      transactions: ledger.transactions,
      hash: ledger.transactions[0]!.hash,
      validations: network.validate(laterHeader),
      list: network.list,
      later: { kind: 'skip_list', header: laterHeader, state },
    });
    expect(independentProblems(asJson(proof), network.publisherKey)).toEqual([]);
  });

  it('accepts a ledger far below, chained by its headers to the next 256th ledger, which the skip list of every 256th ledger of a later one lists', () => {
    // 11119600..11119604 re-indexed as 11119612..11119616 (a 256th ledger), each naming the one before.
    let parentHash = '';
    const headers = [11119600, 11119601, 11119602, 11119603, 11119604].map((index, position) => {
      const { header } = fixtureLedger(`xrpl/ledgers/mainnet/${index}.json`);
      const shifted = { ...header, ledgerIndex: 11119612 + position, ...(position > 0 ? { parentHash } : {}) };
      parentHash = ledgerHash(proofLedgerOf(shifted) as unknown as Json);
      return shifted;
    });
    const [proven, ...chain] = headers;
    const state = stateLedger.state!.snapshot();
    const key = upper(sha512Half(Buffer.of(0, 0x73), u32(Math.floor(11119616 / 65536))));
    state.set(key, encode({ LedgerEntryType: 'LedgerHashes', Flags: 0, LastLedgerSequence: 11119616 + 256, Hashes: [parentHash, '0'.repeat(64)] } as never));
    const laterHeader = { ...ledger.header, ledgerIndex: 11119616 + 600, accountHash: state.root(), closeTime: ledger.header.closeTime + 4 };
    const build = (later: typeof chain) =>
      asJson(
        buildTransactionProof({
          profile: xrpl,
          header: proven!,
          transactions: fixtureLedger('xrpl/ledgers/mainnet/11119600.json').transactions,
          hash: fixtureLedger('xrpl/ledgers/mainnet/11119600.json').transactions[0]!.hash,
          validations: network.validate(laterHeader),
          list: network.list,
          later: { kind: 'skip_list', header: laterHeader, headers: later, state },
        }),
      );
    expect(independentProblems(build(chain), network.publisherKey)).toEqual([]);
    const tampered = build(chain) as Json & { ledger_proof: { headers: Json[] } };
    tampered.ledger_proof.headers[1] = { ...tampered.ledger_proof.headers[1]!, close: Number(tampered.ledger_proof.headers[1]!.close) + 1 };
    expect(independentProblems(tampered, network.publisherKey)).toEqual(['header chain']);
  });

  it('refuses below the quorum, under another publisher, and with a changed transaction', () => {
    const hash = ledger.transactions[0]!.hash;
    expect(independentProblems(xpop(hash, network.validate(ledger.header, 3)), network.publisherKey)).toEqual(['quorum']);
    expect(independentProblems(xpop(hash), 'ED' + '22'.repeat(32))).toEqual(['list signature']);
    const document = xpop(hash);
    const transaction = document.transaction as Json;
    const blob = String(transaction.blob);
    expect(independentProblems({ ...document, transaction: { ...transaction, blob: blob.slice(0, -2) + (blob.endsWith('00') ? '01' : '00') } }, network.publisherKey)).toEqual(['transaction path']);
  });
});
