/**
 * Transaction proofs from what the store holds, over a store of a devnet-like network (its
 * publisher's list and validators' signed validations): mainnet ledger 11119603 (49 transactions)
 * followed by ledgers chained to it. What is built verifies with verifyProof.
 */
import { describe, expect, it, vi } from 'vitest';
import { encodeLedgerHeader, hashLedgerHeader, keylet, listDocumentParts, StateTree, ZERO_HASH, type LedgerHeader } from '@ledger-node/chain';
import type { LedgerEvidence, LedgerSelector, TransactionRecord } from '@ledger-node/contracts';
import { Internal, NotFound, OutOfRange } from '@ledger-node/errors';
import { verifyProof, type TransactionProof } from '@ledger-node/proof';
import { fixtureLedger, testNetwork, xrpl } from '@ledger-node/proof/testing';
import { rejectionOf } from '@ledger-node/test-utils';
import type { Clients } from '../clients';
import { AnswerCache } from '../queries/answer-cache';
import { Queries } from '../queries/queries';
import type { TipCache } from '../tip';
import { MAX_HEADER_CHAIN, transactionProof, type SkipLists } from './transaction-proof';

const network = testNetwork();
const proven = fixtureLedger('xrpl/ledgers/mainnet/11119603.json');
const provenIndex = proven.header.ledgerIndex;
const fromHex = (hex: string) => Buffer.from(hex, 'hex');

interface StoredLedger {
  header: LedgerHeader;
  transactions: TransactionRecord[];
  evidence?: LedgerEvidence;
}

function evidenceOf(header: LedgerHeader, list: Record<string, unknown>[] = [network.list]): LedgerEvidence {
  return {
    validations: network.validate(header).map(fromHex),
    quorum: 4,
    validatorLists: list.map((document) => listDocumentParts(document, network.publisherKey, 7)),
    manifests: [],
  };
}

/** Ledger 11119603 and `above` empty ledgers chained to it; `evidenced` names those stored with evidence. */
function chain(above: number, evidenced: (ledgerIndex: number) => boolean): Map<number, StoredLedger> {
  const ledgerHash = fromHex(hashLedgerHeader(proven.header));
  const transactions = proven.transactions.map((entry, txIndex) => ({
    hash: fromHex(entry.hash),
    txBlob: fromHex(entry.txBlob),
    metaBlob: fromHex(entry.metaBlob),
    ledgerIndex: provenIndex,
    txIndex,
    ledgerHash,
    closeTimeRippleEpoch: proven.header.closeTime,
  }));
  const ledgers = new Map<number, StoredLedger>([[provenIndex, { header: proven.header, transactions }]]);
  let parent = proven.header;
  for (let offset = 1; offset <= above; offset++) {
    const header = { ...parent, ledgerIndex: provenIndex + offset, parentHash: hashLedgerHeader(parent), transactionHash: ZERO_HASH, parentCloseTime: parent.closeTime, closeTime: parent.closeTime + 4 };
    ledgers.set(header.ledgerIndex, { header, transactions: [] });
    parent = header;
  }
  for (const [ledgerIndex, ledger] of ledgers) if (evidenced(ledgerIndex)) ledger.evidence = evidenceOf(ledger.header);
  return ledgers;
}

/** Queries over a ledger-store holding `ledgers`, counting its reads. */
function queriesOver(ledgers: Map<number, StoredLedger>) {
  const indexOf = (ledger: LedgerSelector) => (ledger.selector?.$case === 'index' ? ledger.selector.index : -1);
  const ledgerStore = {
    getTransactions: vi.fn(async ({ hashes }: { hashes: Buffer[] }) => ({
      transactions: [...ledgers.values()].flatMap((ledger) => ledger.transactions).filter((record) => hashes.some((hash) => hash.equals(record.hash))),
    })),
    getLedger: vi.fn(async ({ ledger }: { ledger: LedgerSelector }) => {
      const stored = ledgers.get(indexOf(ledger));
      return { ledger: stored && { ledgerIndex: stored.header.ledgerIndex, headerBlob: encodeLedgerHeader(stored.header), transactions: stored.transactions } };
    }),
    // ledgerstore.proto GetLedgerRange: consecutive from `first`, ending before a ledger not stored (at most 256).
    getLedgerRange: vi.fn(async ({ first, last }: { first: number; last: number }) => {
      expect(last - first).toBeLessThan(256);
      const answered: StoredLedger[] = [];
      for (let ledgerIndex = first; ledgerIndex <= last && ledgers.has(ledgerIndex); ledgerIndex++) answered.push(ledgers.get(ledgerIndex)!);
      return {
        ledgers: answered.map((stored) => ({ ledgerIndex: stored.header.ledgerIndex, headerBlob: encodeLedgerHeader(stored.header), transactions: [] })),
        truncated: false,
        evidenced: answered.filter((stored) => stored.evidence).map((stored) => stored.header.ledgerIndex),
      };
    }),
    getLedgerEvidence: vi.fn(async ({ ledger }: { ledger: LedgerSelector }) => {
      const stored = ledgers.get(indexOf(ledger));
      if (!stored) throw new NotFound(`ledger ${indexOf(ledger)} is not stored`);
      return { ledgerIndex: stored.header.ledgerIndex, ledgerHash: fromHex(hashLedgerHeader(stored.header)), evidence: stored.evidence };
    }),
  };
  const tip = { highestLedgerIndex: async () => Math.max(...ledgers.keys()) } as TipCache;
  return { queries: new Queries({ ledgerStore } as unknown as Clients, tip, new AnswerCache(10_000_000)), ledgerStore };
}

const txHash = fromHex(proven.transactions[5]!.hash);
const verified = (document: unknown) => verifyProof(JSON.parse(JSON.stringify(document)), { publisherKeys: [network.publisherKey], profile: xrpl });

async function proofOf(ledgers: Map<number, StoredLedger>, hash = txHash) {
  const { queries } = queriesOver(ledgers);
  const answer = await transactionProof(hash, queries, xrpl);
  return answer && (JSON.parse(answer.json) as TransactionProof);
}

describe('transactionProof', () => {
  it("proves a transaction by its ledger's own evidence (an XPOP without ledger_proof), and keeps the answer", async () => {
    const { queries, ledgerStore } = queriesOver(chain(0, () => true));
    const answer = await transactionProof(txHash, queries, xrpl);
    const proof = JSON.parse(answer!.json) as TransactionProof;
    expect(proof.ledger.index).toBe(provenIndex);
    expect(proof.ledger_proof).toBeUndefined();
    expect(verified(proof).ok).toBe(true);
    expect((await transactionProof(txHash, queries, xrpl))!.json).toBe(answer!.json);
    expect(ledgerStore.getLedger).toHaveBeenCalledTimes(1);
  });

  it("reads a ledger and its evidence once for the proofs of its transactions asked together", async () => {
    const { queries, ledgerStore } = queriesOver(chain(0, () => true));
    const proofs = await Promise.all(proven.transactions.slice(0, 10).map((entry) => transactionProof(fromHex(entry.hash), queries, xrpl)));
    expect(proofs.map((answer) => (JSON.parse(answer!.json) as TransactionProof).ledger.index)).toEqual(Array(10).fill(provenIndex));
    expect(ledgerStore.getLedger).toHaveBeenCalledTimes(1);
    expect(ledgerStore.getLedgerEvidence).toHaveBeenCalledTimes(1);
  });

  it('answers undefined for a transaction not stored', async () => {
    expect(await proofOf(chain(0, () => true), Buffer.alloc(32, 0xab))).toBeUndefined();
  });

  it('proves a ledger without evidence through the headers up to the nearest later ledger with evidence (header_chain), and does not keep it', async () => {
    const ledgers = chain(5, (ledgerIndex) => ledgerIndex >= provenIndex + 3);
    const { queries, ledgerStore } = queriesOver(ledgers);
    const proof = JSON.parse((await transactionProof(txHash, queries, xrpl))!.json) as TransactionProof;
    expect(proof.ledger_proof).toEqual({ kind: 'header_chain', headers: [1, 2, 3].map((offset) => expect.objectContaining({ index: provenIndex + offset })) });
    const verdict = verified(proof);
    expect(verdict.steps.filter((step) => !step.ok)).toEqual([]);
    expect(verdict.ok).toBe(true);
    // The validations are of the later ledger.
    const unchained = verified({ ...proof, ledger_proof: undefined });
    expect(unchained.ok).toBe(false);
    // The headers of the chain in one read, not one read each; not kept (a shorter proof may come), built again.
    expect(ledgerStore.getLedgerRange).toHaveBeenCalledTimes(1);
    expect(ledgerStore.getLedgerRange).toHaveBeenCalledWith(expect.objectContaining({ first: provenIndex + 1 }));
    await transactionProof(txHash, queries, xrpl);
    expect(ledgerStore.getLedgerRange).toHaveBeenCalledTimes(2);
    expect(ledgerStore.getLedger.mock.calls.filter(([{ ledger }]) => ledger.selector?.$case === 'index' && ledger.selector.index !== provenIndex)).toEqual([]);
  });

  it(`refuses a header chain longer than ${MAX_HEADER_CHAIN} headers without a skip list at hand (OutOfRange naming the bound)`, async () => {
    const nearest = provenIndex + MAX_HEADER_CHAIN + 1;
    const { queries } = queriesOver(chain(MAX_HEADER_CHAIN + 2, (ledgerIndex) => ledgerIndex >= nearest));
    const refusal = await rejectionOf<OutOfRange>(transactionProof(txHash, queries, xrpl));
    expect(refusal).toBeInstanceOf(OutOfRange);
    expect(refusal.message).toBe(
      `ledger ${provenIndex} has no evidence of its own, no stored ledger chained up to ${MAX_HEADER_CHAIN} above it (the most headers a header chain proof lists) has any, and no skip list of a validated ledger whose state the node holds lists it: it cannot be proven`,
    );
    expect(refusal.details.data).toEqual({ ledger_index: provenIndex, max_header_chain: MAX_HEADER_CHAIN });
    expect((await proofOf(chain(MAX_HEADER_CHAIN, (ledgerIndex) => ledgerIndex === provenIndex + MAX_HEADER_CHAIN)))!.ledger_proof).toMatchObject({ kind: 'header_chain' });
  });

  it('proves a ledger farther than the header chain reaches through the headers up to the next 256th ledger and the skip list of a validated ledger listing it (skip_list)', async () => {
    // 11119616 is the next 256th ledger; the one ledger with evidence, 600 above, holds the list of every 256th ledger naming it.
    const listedIndex = 11119616;
    const validatedIndex = provenIndex + 600;
    const ledgers = chain(600, (ledgerIndex) => ledgerIndex === validatedIndex);
    const key = keylet.ledgerHashesOf(listedIndex);
    const state = new StateTree();
    state.set(key, Buffer.from(xrpl.codec.encode({ LedgerEntryType: 'LedgerHashes', Flags: 0, LastLedgerSequence: listedIndex, Hashes: [hashLedgerHeader(ledgers.get(listedIndex)!.header)] }), 'hex'));
    const validated = ledgers.get(validatedIndex)!;
    validated.header = { ...validated.header, accountHash: state.root() };
    validated.evidence = evidenceOf(validated.header);
    const asked: string[][] = [];
    const skipLists: SkipLists = async (keys) => {
      asked.push([...keys]);
      return { header: validated.header, entries: keys.map((wanted) => (wanted === key ? { key, blob: state.get(key)!.toString('hex').toUpperCase(), proof: state.proof(key)! } : undefined)) };
    };
    const { queries } = queriesOver(ledgers);
    const proof = JSON.parse((await transactionProof(txHash, queries, xrpl, skipLists))!.json) as TransactionProof;
    expect(asked).toEqual([[keylet.ledgerHashes(), key]]);
    expect(proof.ledger_proof).toMatchObject({ kind: 'skip_list', ledger: { index: validatedIndex }, state: { key } });
    expect((proof.ledger_proof as { headers: { index: number }[] }).headers.map((header) => header.index)).toEqual(Array.from({ length: listedIndex - provenIndex }, (_, offset) => provenIndex + offset + 1));
    const verdict = verified(proof);
    expect(verdict.steps.filter((step) => !step.ok)).toEqual([]);
    expect(verdict.ok).toBe(true);

    // No tree at hand, or a list that does not name the 256th ledger: out of range, as before.
    for (const none of [async () => undefined, async (keys: readonly string[]) => ({ header: validated.header, entries: keys.map(() => undefined) })] as SkipLists[]) {
      const refusal = await rejectionOf<OutOfRange>(transactionProof(txHash, queriesOver(ledgers).queries, xrpl, none));
      expect(refusal).toBeInstanceOf(OutOfRange);
      expect(refusal.message).toContain('(the most headers a header chain proof lists) has any, and no skip list of a validated ledger whose state the node holds lists it: it cannot be proven');
    }
  });

  it('refuses a ledger when no stored ledger chained above it has evidence', async () => {
    const { queries } = queriesOver(chain(3, () => false));
    const refusal = await rejectionOf<OutOfRange>(transactionProof(txHash, queries, xrpl));
    expect(refusal).toBeInstanceOf(OutOfRange);
    expect(refusal.message).toContain(`ledger ${provenIndex} has no evidence of its own, no stored ledger chained up to ${MAX_HEADER_CHAIN} above it`);
  });

  it("refuses a ledger whose validators were trusted by their keys alone: there is no publisher's list to carry", async () => {
    const ledgers = chain(0, () => true);
    ledgers.get(provenIndex)!.evidence = evidenceOf(proven.header, []);
    const { queries } = queriesOver(ledgers);
    await expect(transactionProof(txHash, queries, xrpl)).rejects.toThrow(/a proof needs a publisher's list/);
  });

  it('answers an internal error, not bad params, when the stored records do not make a proof', async () => {
    const ledgers = chain(0, () => true);
    ledgers.get(provenIndex)!.transactions.pop();
    const { queries } = queriesOver(ledgers);
    const refusal = await rejectionOf(transactionProof(txHash, queries, xrpl));
    expect(refusal).toBeInstanceOf(Internal);
    expect((refusal as Internal).message).toContain(`the stored ledger ${provenIndex} does not make a proof of transaction`);
  });
});
