/**
 * Proofs built for a devnet-like network (its publisher's list and validators' manifests and
 * validations) of real recorded ledgers verify; what is not proven is refused, naming the step.
 */
import { describe, expect, it } from 'vitest';
import { InvalidParams } from '@ledger-node/errors';
import { devnetNetworkKeys, getProfile, hashLedgerHeader, keylet, signManifest, signPublishedList, StateTree, ZERO_HASH, type LedgerHeader } from '@ledger-node/chain';
import { assembleStateProof, buildStateProof, buildTransactionProof, MalformedProof, proofQuorum, verifyProof, type ProofVerdict } from './index';
import { asJson, fixtureLedger, testNetwork, xrpl } from './test-network';

const network = testNetwork();
const verify = (document: unknown, keys = [network.publisherKey], profile = xrpl) => verifyProof(asJson(document), { publisherKeys: keys, profile });
const failed = (verdict: ProofVerdict) => verdict.steps.filter((step) => !step.ok).map((step) => step.name);
const detail = (verdict: ProofVerdict, name: string) => verdict.steps.find((step) => step.name === name)?.detail;

const ledger11119603 = fixtureLedger('xrpl/ledgers/mainnet/11119603.json');
const ledger38129 = fixtureLedger('xrpl/ledgers/mainnet/38129-full-state.json');

function transactionProof(options: { validations?: string[]; list?: Record<string, unknown>; hash?: string } = {}) {
  const { header, transactions } = ledger11119603;
  return buildTransactionProof({
    profile: xrpl,
    header,
    transactions,
    hash: options.hash ?? transactions[0]!.hash,
    validations: options.validations ?? network.validate(header),
    list: options.list ?? network.list,
  });
}

describe('buildTransactionProof', () => {
  it('proves each of the 49 transactions of ledger 11119603, paths of more than one inner node among them', () => {
    const { header, transactions } = ledger11119603;
    const validations = network.validate(header);
    const depths = transactions.map(({ hash }) => {
      const verdict = verify(transactionProof({ hash, validations }));
      expect(failed(verdict)).toEqual([]);
      expect(detail(verdict, 'transaction')).toContain(`transaction ${hash} with its metadata is in the transaction tree of ledger 11119603`);
      return Number(/\((\d+) inner nodes/.exec(detail(verdict, 'transaction')!)![1]);
    });
    expect(Math.max(...depths)).toBeGreaterThan(1);
  });

  it('writes the XPOP fields Xahau reads: the header, the blob and metadata, a 16-branch proof, validations keyed by n… keys, a version 1 list', () => {
    const xpop = transactionProof();
    expect(Object.keys(xpop)).toEqual(['ledger', 'transaction', 'validation']);
    expect(xpop.ledger).toEqual({
      index: 11119603,
      coins: ledger11119603.header.totalCoins.toString(),
      phash: ledger11119603.header.parentHash,
      txroot: ledger11119603.header.transactionHash,
      acroot: ledger11119603.header.accountHash,
      pclose: ledger11119603.header.parentCloseTime,
      close: ledger11119603.header.closeTime,
      cres: ledger11119603.header.closeTimeResolution,
      flags: ledger11119603.header.closeFlags,
    });
    expect(xpop.transaction.proof).toHaveLength(16);
    expect(Object.keys(xpop.validation.data)).toHaveLength(5);
    for (const key of Object.keys(xpop.validation.data)) expect(key).toMatch(/^n[1-9A-HJ-NP-Za-km-z]{51}$/);
    expect(Object.keys(xpop.validation.unl).sort()).toEqual(['blob', 'manifest', 'public_key', 'signature', 'version']);
  });

  it('refuses to build for a transaction not in the ledger, or transactions that are not the ledger', () => {
    expect(() => transactionProof({ hash: 'AB'.repeat(32) })).toThrow(InvalidParams);
    const { header, transactions } = ledger11119603;
    const build = () => buildTransactionProof({ profile: xrpl, header, transactions: transactions.slice(1), hash: transactions[1]!.hash, validations: [], list: network.list });
    expect(build).toThrow(/not ledger 11119603's/);
  });
});

describe('the list of a proof', () => {
  const { header } = ledger11119603;

  it("is the blob of a version 2 document in force at the ledger's close, written as version 1", () => {
    const keys = devnetNetworkKeys();
    const validators = keys.validators.map((holder) => ({ masterKey: holder.master.publicKey, manifest: Buffer.from(signManifest({ master: holder.master, signing: holder.signing, sequence: 1 }), 'hex').toString('base64') }));
    const document = signPublishedList({
      manifest: signManifest({ master: keys.publisher.master, signing: keys.publisher.signing, sequence: 1 }),
      signing: keys.publisher.signing,
      publisherKey: keys.publisher.master.publicKey,
      blobs: [
        { sequence: 8, expiration: header.closeTime, validators },
        { sequence: 9, effective: header.closeTime, expiration: header.closeTime + 1000, validators },
        { sequence: 10, effective: header.closeTime + 1, expiration: header.closeTime + 2000, validators },
      ],
      version: 2,
    });
    const proof = transactionProof({ list: document });
    expect(proof.validation.unl.version).toBe(1);
    expect(JSON.parse(Buffer.from(proof.validation.unl.blob, 'base64').toString('utf8')).sequence).toBe(9);
    const verdict = verify(proof);
    expect(failed(verdict)).toEqual([]);
    expect(detail(verdict, 'list_in_force')).toContain('list sequence 9 was in force');
  });

  it("needs rippled's quorum, 80% of the listed validators rounded up, never less than Xahau's (80% rounded down, at least 1)", () => {
    for (const [listed, quorum] of [[1, 1], [2, 2], [3, 3], [5, 4], [6, 5], [10, 8], [35, 28], [36, 29]] as const) {
      expect(proofQuorum(listed)).toBe(quorum);
      expect(proofQuorum(listed)).toBeGreaterThanOrEqual(Math.max(1, Math.floor(listed * 0.8)));
    }
  });
});

describe('verifyProof refuses what is not proven', () => {
  const { header } = ledger11119603;

  it('below the quorum: 3 of 5 validators (quorum 4)', () => {
    const verdict = verify(transactionProof({ validations: network.validate(header, 3) }));
    expect(failed(verdict)).toEqual(['quorum']);
    expect(detail(verdict, 'quorum')).toBe('3 of the 5 listed validators validated ledger 11119603 (quorum 4, 80% rounded up)');
    expect(failed(verify(transactionProof({ validations: network.validate(header, 4) })))).toEqual([]);
  });

  it('a list that had expired at the ledger close time', () => {
    const expired = testNetwork({ expiration: header.closeTime });
    const verdict = verify(transactionProof({ validations: expired.validate(header), list: expired.list }), [expired.publisherKey]);
    expect(failed(verdict)).toEqual(['list_in_force', 'validations']);
    expect(detail(verdict, 'list_in_force')).toContain(`no list was in force at ledger 11119603's close time ${header.closeTime}`);
  });

  it('a list under a publisher key not given', () => {
    const verdict = verify(transactionProof(), ['ED' + '11'.repeat(32)]);
    expect(failed(verdict)).toEqual(['list', 'validations']);
    expect(detail(verdict, 'list')).toMatch(/is not a trusted -validator_list_keys key/);
  });

  it('one validation whose signature fails among a quorum of good ones', () => {
    const validations = network.validate(header);
    const bytes = Buffer.from(validations[4]!, 'hex');
    bytes[bytes.length - 2]! ^= 0x01;
    const verdict = verify(transactionProof({ validations: [...validations.slice(0, 4), bytes.toString('hex')] }));
    expect(failed(verdict)).toEqual(['validations']);
    expect(detail(verdict, 'validations')).toMatch(/^1 of 5 validations fail: n\w+: its signature does not verify$/);
  });

  it('a validation of another ledger among a quorum of good ones', () => {
    const other = network.validate({ ...header, closeTime: header.closeTime + 10 });
    const verdict = verify(transactionProof({ validations: [...network.validate(header, 4), other[4]!] }));
    expect(failed(verdict)).toEqual(['validations']);
    expect(detail(verdict, 'validations')).toContain(`validates ledger 11119603 ${hashLedgerHeader({ ...header, closeTime: header.closeTime + 10 }).slice(0, 8)}…`);
  });

  it('validations signed by a validator the list does not name count for nothing', () => {
    const stranger = testNetwork({ validatorCount: 6 }).validate(header)[5]!;
    const verdict = verify(transactionProof({ validations: [...network.validate(header, 3), stranger] }));
    expect(failed(verdict)).toEqual(['quorum']);
    expect(detail(verdict, 'validations')).toContain('1 from validators not listed with a verified manifest count for nothing');
  });
});

function entryOfType(state: StateTree, type: string): string {
  for (const { index, blob } of state.entries()) if (xrpl.codec.decode(blob.toString('hex')).LedgerEntryType === type) return index;
  throw new Error(`no ${type} in the state`);
}

describe('buildStateProof', () => {
  const { header, state } = ledger38129;
  const accountRoot = entryOfType(state!, 'AccountRoot');
  const trustLine = entryOfType(state!, 'RippleState');

  it('proves an AccountRoot and a trust line of ledger 38129 against its account_hash', () => {
    const proof = buildStateProof({ profile: xrpl, header, state: state!, keys: [accountRoot, trustLine], validations: network.validate(header), list: network.list });
    expect(proof.state.map((entry) => entry.key)).toEqual([accountRoot, trustLine]);
    const verdict = verify(proof);
    expect(failed(verdict)).toEqual([]);
    expect(verdict.steps.filter((step) => step.name === 'state').map((step) => step.detail.split(' ')[0])).toEqual(['AccountRoot', 'RippleState']);
    expect(detail(verdict, 'state')).toContain(`AccountRoot ${accountRoot} is in the state tree of ledger 38129`);
  });

  it('reads a single state entry given as an object, and refuses one whose bytes changed', () => {
    const proof = asJson(buildStateProof({ profile: xrpl, header, state: state!, keys: [accountRoot], validations: network.validate(header), list: network.list }));
    const [entry] = proof.state as { key: string; blob: string; proof: unknown }[];
    expect(failed(verify({ ...proof, state: entry }))).toEqual([]);
    const blob = entry!.blob.slice(0, -2) + (entry!.blob.endsWith('00') ? '01' : '00');
    expect(failed(verify({ ...proof, state: { ...entry, blob } }))).toEqual(['state']);
  });

  it('refuses to build for an entry the state does not hold, or a tree that is not the ledger state', () => {
    const source = { profile: xrpl, header, validations: [], list: network.list };
    expect(() => buildStateProof({ ...source, state: state!, keys: ['CD'.repeat(32)] })).toThrow(/holds no entry/);
    expect(() => buildStateProof({ ...source, state: new StateTree(), keys: [accountRoot] })).toThrow(/not ledger 38129's/);
  });
});

describe('assembleStateProof', () => {
  const { header, state } = ledger38129;
  const accountRoot = entryOfType(state!, 'AccountRoot');
  const entry = { key: accountRoot, blob: state!.get(accountRoot)!.toString('hex').toUpperCase(), proof: state!.proof(accountRoot)! };

  it('makes of entries taken from the tree elsewhere the proof buildStateProof makes', () => {
    const source = { profile: xrpl, header, validations: network.validate(header), list: network.list };
    const proof = assembleStateProof({ ...source, entries: [entry] });
    expect(proof).toEqual(buildStateProof({ ...source, state: state!, keys: [accountRoot] }));
    expect(failed(verify(proof))).toEqual([]);
  });

  it('refuses no entry, and an entry whose path does not hash to the ledger account_hash', () => {
    const source = { profile: xrpl, header, validations: [], list: network.list };
    expect(() => assembleStateProof({ ...source, entries: [] })).toThrow('name at least one entry to prove');
    const otherPath = state!.proof(entryOfType(state!, 'RippleState'))!.map((branch) => (typeof branch === 'string' ? branch : '00'.repeat(32)));
    expect(() => assembleStateProof({ ...source, entries: [{ ...entry, proof: otherPath }] })).toThrow(`the path of entry ${accountRoot} does not hash to ledger 38129's account_hash`);
  });
});

describe('a ledger proven by a later validated ledger (ledger_proof)', () => {
  const run = [11119600, 11119601, 11119602, 11119603, 11119604].map((index) => fixtureLedger(`xrpl/ledgers/mainnet/${index}.json`));
  const [proven, ...later] = run;

  it('header_chain: a transaction of 11119600 proven by the validations of 11119604 and the headers between', () => {
    const validated = later[later.length - 1]!.header;
    const proof = buildTransactionProof({
      profile: xrpl,
      header: proven!.header,
      transactions: proven!.transactions,
      hash: proven!.transactions[0]!.hash,
      validations: network.validate(validated),
      list: network.list,
      later: { kind: 'header_chain', headers: later.map((ledger) => ledger.header) },
    });
    const verdict = verify(proof);
    expect(failed(verdict)).toEqual([]);
    expect(verdict.steps.map((step) => step.name)).toEqual(['ledger', 'ledger_proof', 'list', 'list_in_force', 'manifests', 'validations', 'quorum', 'transaction']);
    expect(detail(verdict, 'ledger_proof')).toBe('ledger 11119600 is the ancestor of validated ledger 11119604 through 4 headers, each naming the one before as its parent');
    expect(detail(verdict, 'quorum')).toContain('validated ledger 11119604');

    const json = asJson(proof) as { ledger_proof: { headers: Record<string, unknown>[] } };
    const headers = json.ledger_proof.headers.map((entry, position) => (position === 1 ? { ...entry, close: Number(entry.close) + 1 } : entry));
    expect(failed(verify({ ...json, ledger_proof: { ...json.ledger_proof, headers } }))).toEqual(['ledger_proof', 'validations', 'quorum']);
    // Without the chain, the validations name another ledger than the one proven.
    const { ledger_proof: _chain, ...alone } = json;
    expect(failed(verify(alone))).toEqual(['validations', 'quorum']);
  });

  /** A later ledger whose state holds a LedgerHashes entry at `key` listing the proven ledger's hash. */
  function laterLedgerListing(provenHeader: LedgerHeader, laterIndex: number, key: string, list: { last: number; hashes: string[] }) {
    const state = ledger38129.state!.snapshot();
    state.set(key, xrpl.codec.encode({ LedgerEntryType: 'LedgerHashes', Flags: 0, LastLedgerSequence: list.last, Hashes: list.hashes }));
    const header: LedgerHeader = { ...provenHeader, ledgerIndex: laterIndex, parentHash: ZERO_HASH, accountHash: state.root(), closeTime: provenHeader.closeTime + 600 };
    return { header, state };
  }

  it('skip_list: a transaction proven by the last-256 skip list of a later validated ledger', () => {
    const provenHeader = ledger11119603.header;
    const provenHash = hashLedgerHeader(provenHeader);
    const next = laterLedgerListing(provenHeader, 11119604, keylet.ledgerHashes(), { last: 11119603, hashes: [ZERO_HASH, provenHash] });
    const build = (header: LedgerHeader, nextLedger: typeof next) =>
      buildTransactionProof({
        profile: xrpl,
        header,
        transactions: ledger11119603.transactions,
        hash: ledger11119603.transactions[5]!.hash,
        validations: network.validate(nextLedger.header),
        list: network.list,
        later: { kind: 'skip_list', ...nextLedger },
      });
    const verdict = verify(build(provenHeader, next));
    expect(failed(verdict)).toEqual([]);
    expect(detail(verdict, 'ledger_proof')).toContain("the skip list of validated ledger 11119604 (entry ");
    // A skip list naming another hash for the ledger proves nothing of it.
    const wrong = laterLedgerListing(provenHeader, 11119604, keylet.ledgerHashes(), { last: 11119603, hashes: [provenHash, ZERO_HASH] });
    const refused = verify(build(provenHeader, wrong));
    expect(failed(refused)).toEqual(['ledger_proof']);
    expect(detail(refused, 'ledger_proof')).toContain(`names ${ZERO_HASH} for ledger 11119603`);
  });

  it('skip_list: a ledger more than 256 before the validated one, by the skip list of every 256th ledger', () => {
    const provenHeader = { ...ledger11119603.header, ledgerIndex: 11119616 };
    const provenHash = hashLedgerHeader(provenHeader);
    const key = keylet.ledgerHashesOf(11119616);
    const next = laterLedgerListing(provenHeader, 11119616 + 600, key, { last: 11119616 + 512, hashes: [ZERO_HASH, provenHash, ZERO_HASH, ZERO_HASH] });
    const proof = buildStateProof({
      profile: xrpl,
      header: { ...provenHeader, accountHash: ledger38129.header.accountHash },
      state: ledger38129.state!,
      keys: [entryOfType(ledger38129.state!, 'AccountRoot')],
      validations: network.validate(next.header),
      list: network.list,
      later: { kind: 'skip_list', ...next },
    });
    expect((proof.ledger_proof as { state: { key: string } }).state.key).toBe(key);
    const otherHash = hashLedgerHeader({ ...provenHeader, accountHash: ledger38129.header.accountHash });
    const listed = laterLedgerListing(provenHeader, 11119616 + 600, key, { last: 11119616 + 512, hashes: [ZERO_HASH, otherHash, ZERO_HASH, ZERO_HASH] });
    const good = buildStateProof({
      profile: xrpl,
      header: { ...provenHeader, accountHash: ledger38129.header.accountHash },
      state: ledger38129.state!,
      keys: [entryOfType(ledger38129.state!, 'AccountRoot')],
      validations: network.validate(listed.header),
      list: network.list,
      later: { kind: 'skip_list', ...listed },
    });
    expect(failed(verify(good))).toEqual([]);
    expect(failed(verify(proof))).toEqual(['ledger_proof']);
  });

  it('skip_list with headers: a ledger far below, chained to the next 256th ledger, which the skip list of every 256th ledger lists (its entry given with its path)', () => {
    // 11119600..11119604 re-indexed as 11119612..11119616: 11119616 is a 256th ledger, the chain's last.
    const offset = 11119616 - 11119604;
    const headers: LedgerHeader[] = [];
    let parentHash = proven!.header.parentHash;
    for (const { header } of run) {
      const shifted = { ...header, ledgerIndex: header.ledgerIndex + offset, parentHash };
      parentHash = hashLedgerHeader(shifted);
      headers.push(shifted);
    }
    const [provenHeader, ...chain] = headers;
    const flag = chain.at(-1)!;
    const key = keylet.ledgerHashesOf(flag.ledgerIndex);
    const validated = laterLedgerListing(flag, flag.ledgerIndex + 600, key, { last: flag.ledgerIndex + 512, hashes: [ZERO_HASH, hashLedgerHeader(flag), ZERO_HASH, ZERO_HASH] });
    const entry = { key, blob: validated.state.get(key)!.toString('hex').toUpperCase(), proof: validated.state.proof(key)! };
    const build = (later: { headers: LedgerHeader[]; entry: typeof entry }) =>
      asJson(
        buildTransactionProof({
          profile: xrpl,
          header: provenHeader!,
          transactions: proven!.transactions,
          hash: proven!.transactions[0]!.hash,
          validations: network.validate(validated.header),
          list: network.list,
          later: { kind: 'skip_list', header: validated.header, ...later },
        }),
      ) as { ledger_proof: { headers: Record<string, unknown>[] } };
    const proof = build({ headers: chain, entry });
    const verdict = verify(proof);
    expect(failed(verdict)).toEqual([]);
    expect(detail(verdict, 'ledger_proof')).toMatch(/^the skip list of validated ledger 11120216 \(entry [0-9A-F]{8}…, in its state tree\) names ledger 11119616's hash, whose ancestor ledger 11119612 is through 4 headers, each naming the one before as its parent$/);
    // A header of the chain changed, or the chain cut short of the listed ledger: refused.
    const changed = proof.ledger_proof.headers.map((header, position) => (position === 2 ? { ...header, close: Number(header.close) + 1 } : header));
    expect(failed(verify({ ...proof, ledger_proof: { ...proof.ledger_proof, headers: changed } }))).toEqual(['ledger_proof']);
    expect(failed(verify({ ...proof, ledger_proof: { ...proof.ledger_proof, headers: proof.ledger_proof.headers.slice(0, -1) } }))).toEqual(['ledger_proof']);
    // The builder takes only the entry that can hold the chain's last ledger, with a path to the validated ledger's account_hash.
    const accountRoot = entryOfType(validated.state, 'AccountRoot');
    expect(() => build({ headers: chain, entry: { ...entry, key: accountRoot } })).toThrow(`the entry given is ${accountRoot}, not the skip list ${key} that can hold ledger 11119616`);
    expect(() => build({ headers: chain, entry: { ...entry, proof: ledger38129.state!.proof(accountRoot)! } })).toThrow("the path of the skip list does not hash to ledger 11120216's account_hash");
  });
});

describe('malformed documents are refused naming the field', () => {
  const xpop = asJson(transactionProof()) as Record<string, Record<string, unknown>>;
  const field = (document: unknown) => {
    try {
      verifyProof(document, { publisherKeys: [network.publisherKey], profile: xrpl });
    } catch (error) {
      expect(error).toBeInstanceOf(MalformedProof);
      return (error as MalformedProof).details.param;
    }
    return 'accepted';
  };

  it('names the missing or wrong field', () => {
    expect(field([])).toBe('document');
    expect(field({ ...xpop, ledger: undefined })).toBe('ledger');
    const { coins: _coins, ...noCoins } = xpop.ledger!;
    expect(field({ ...xpop, ledger: noCoins })).toBe('ledger.coins');
    expect(field({ ...xpop, ledger: { ...xpop.ledger, cres: 256 } })).toBe('ledger.cres');
    expect(field({ ...xpop, ledger: { ...xpop.ledger, phash: 'XYZ' } })).toBe('ledger.phash');
    expect(field({ ...xpop, transaction: { ...xpop.transaction, blob: 'ABC' } })).toBe('transaction.blob');
    expect(field({ ...xpop, transaction: { ...xpop.transaction, proof: (xpop.transaction!.proof as unknown[]).slice(1) } })).toBe('transaction.proof');
    expect(field({ ...xpop, transaction: { ...xpop.transaction, proof: { hash: ZERO_HASH, key: ZERO_HASH, children: { g: {} } } } })).toBe('transaction.proof.children');
    expect(field({ ...xpop, transaction: undefined })).toBe('transaction');
    expect(field({ ...xpop, validation: { ...xpop.validation, data: { abc: '00' } } })).toBe('validation.data.abc');
    expect(field({ ...xpop, validation: { ...xpop.validation, unl: { ...(xpop.validation!.unl as object), manifest: '***' } } })).toBe('validation.unl.manifest');
    expect(field({ ...xpop, state: [{ key: 'short', blob: '00', proof: [] }] })).toBe('state[0].key');
    expect(field({ ...xpop, ledger_proof: { kind: 'chain' } })).toBe('ledger_proof.kind');
    expect(field({ ...xpop, ledger_proof: { kind: 'header_chain', headers: [{}] } })).toBe('ledger_proof.headers[0].index');
    expect(field(xpop)).toBe('accepted');
  });
});

describe('a Jingtum proof', () => {
  const jingtum = getProfile('jingtum');
  const jingtumNetwork = testNetwork({ profile: jingtum });
  const state = ledger38129.state!;
  const header: LedgerHeader = { ...ledger38129.header, transactionHash: ZERO_HASH };
  const proof = buildStateProof({ profile: jingtum, header, state, keys: [entryOfType(state, 'AccountRoot')], validations: jingtumNetwork.validate(header), list: jingtumNetwork.list });

  it("keys its validations in Jingtum's alphabet and verifies under the Jingtum profile", () => {
    expect(failed(verifyProof(asJson(proof), { publisherKeys: [jingtumNetwork.publisherKey], profile: jingtum }))).toEqual([]);
  });

  it('is not read as an XRP Ledger proof: its validator keys are not in that alphabet', () => {
    expect(() => verifyProof(asJson(proof), { publisherKeys: [jingtumNetwork.publisherKey], profile: xrpl })).toThrow(MalformedProof);
  });
});
