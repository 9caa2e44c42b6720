/**
 * Proofs of stored transactions (XLS-41 XPOP, libs/proof), the same document for every API: the
 * ledger's header and all its transactions (the path to `txroot`), and the evidence the store kept
 * of the ledger (its signed validations and the publisher's list they were checked against). A
 * ledger stored without evidence of its own (backfilled, or stored before evidence was kept) is
 * proven by the nearest later ledger that has it, through the headers between them (the
 * `header_chain` extension) when it is at most MAX_HEADER_CHAIN ledgers above; farther, through the
 * headers up to the next 256th ledger and the skip list of a recent validated ledger whose state
 * tree sync holds, which lists that 256th ledger's hash (`skip_list` with `headers`). Proofs are
 * not verified here: that costs every validation's signature check on each answer, and the client
 * verifies anyway; the tests verify what is built.
 */
import { decodeLedgerHeader, hashLedgerHeader, keylet, listDocumentOf, proofPathOfFlat, type ChainProfile, type LedgerHeader } from '@ledger-node/chain';
import type { LedgerEvidence, TransactionRecord } from '@ledger-node/contracts';
import { Internal, isLedgerNodeError, NotFound, OutOfRange } from '@ledger-node/errors';
import { buildTransactionProof, skipListHash, type LaterLedger, type StateEntry, type TransactionProof } from '@ledger-node/proof';
import type { Clients } from '../clients';
import type { Queries } from '../queries/queries';
import type { RenderedJson } from '../queries/rendered-json';

/**
 * Most headers a `header_chain` proof lists (the proven ledger's child up to the validated ledger):
 * the window of rippled's skip list, the last 256 ledgers, past which a `skip_list` proof (one
 * LedgerHashes entry of the validated ledger) is the short one.
 */
export const MAX_HEADER_CHAIN = 256;

/** rippled adds every 256th ledger's hash to the skip list of its 65 536 (keylet::skip(ledger)). */
const SKIP_LIST_SPACING = 256;

/**
 * The skip lists of the newest validated ledger whose state tree sync holds: its header, and each
 * LedgerHashes entry asked for (by index, hex) with its path to account_hash, absent when that
 * ledger holds none at the key. Undefined when sync holds no tree (or cannot be asked).
 */
export type SkipLists = (keys: readonly string[]) => Promise<{ header: LedgerHeader; entries: (StateEntry | undefined)[] } | undefined>;

/** SkipLists from sync's proven state trees (GetStateProof). */
export function syncSkipLists(clients: Pick<Clients, 'sync'>): SkipLists {
  return async (keys) => {
    let answer;
    try {
      answer = await clients.sync.getStateProof({ keys: keys.map((key) => Buffer.from(key, 'hex')) });
    } catch (error) {
      // No tree held (sync starting, -sync=false) or sync not answering: no skip list to offer.
      if (isLedgerNodeError(error)) return undefined;
      throw error;
    }
    const entries = answer.entries.map((entry) =>
      entry.blob ? { key: Buffer.from(entry.key).toString('hex').toUpperCase(), blob: Buffer.from(entry.blob).toString('hex').toUpperCase(), proof: proofPathOfFlat(entry.innerNodes, entry.key) } : undefined,
    );
    return { header: decodeLedgerHeader(answer.headerBlob), entries };
  };
}

/** The evidence that proves a ledger: its own, or a later ledger's with the link to it. */
interface ProvenBy {
  evidence: LedgerEvidence;
  /** The ledger the validations are of. */
  validatedIndex: number;
  later?: LaterLedger;
}

/**
 * The proof of a stored transaction; undefined when it is not stored. A proof by the ledger's own
 * evidence never changes and is kept; one through a later ledger is not (a shorter one may come).
 */
export function transactionProof(hash: Buffer, queries: Queries, profile: ChainProfile, skipLists?: SkipLists): Promise<RenderedJson<TransactionProof> | undefined> {
  return queries.kept(
    `tx-proof:${hash.toString('hex')}`,
    async () => {
      const record = await queries.transaction(hash);
      return record && proofOf(record, queries, profile, skipLists);
    },
    (proof) => proof.ledger_proof === undefined,
  );
}

async function proofOf(record: TransactionRecord, queries: Queries, profile: ChainProfile, skipLists: SkipLists | undefined): Promise<TransactionProof | undefined> {
  const [ledger, own] = await Promise.all([queries.wholeLedger(record.ledgerIndex), queries.ledgerEvidence(record.ledgerIndex)]);
  // Removed by bounded history between the reads: no longer stored.
  if (ledger === undefined) return undefined;
  const header = decodeLedgerHeader(ledger.headerBlob);
  const { evidence, validatedIndex, later } = own.evidence ? { evidence: own.evidence, validatedIndex: header.ledgerIndex } : await laterLedger(header, queries, profile, skipLists);
  const hash = record.hash.toString('hex').toUpperCase();
  try {
    return buildTransactionProof({
      profile,
      header,
      transactions: ledger.transactions.map((entry) => ({ hash: entry.hash.toString('hex'), txBlob: entry.txBlob, metaBlob: entry.metaBlob })),
      hash,
      validations: evidence.validations.map((blob) => blob.toString('hex')),
      list: publishedList(evidence, validatedIndex),
      ...(later ? { later } : {}),
    });
  } catch (error) {
    // The store's records do not make a proof (the builder's consistency checks): the node's fault, not the caller's.
    throw new Internal(`the stored ledger ${header.ledgerIndex} does not make a proof of transaction ${hash}: ${(error as Error).message}`, { cause: error });
  }
}

/**
 * The publisher's list the validations were checked against. An XPOP carries one: the first
 * publisher's when several made the validators trusted.
 */
function publishedList(evidence: LedgerEvidence, validatedIndex: number): Record<string, unknown> {
  const [parts] = evidence.validatorLists;
  if (parts === undefined) {
    throw new OutOfRange(`ledger ${validatedIndex} was proven by validators trusted by their keys alone (-validators): a proof needs a publisher's list`, { validated_ledger: validatedIndex });
  }
  return listDocumentOf(parts);
}

/**
 * A later validated ledger and the link to it: the nearest later ledger with evidence and the
 * headers between (`header_chain`), when at most MAX_HEADER_CHAIN; else the headers up to the next
 * 256th ledger and the skip list that lists it (`skip_list`, skipListProof). OutOfRange, naming the
 * bound and the nearest evidenced ledger, when neither is at hand.
 */
async function laterLedger(header: LedgerHeader, queries: Queries, profile: ChainProfile, skipLists: SkipLists | undefined): Promise<ProvenBy> {
  const provenIndex = header.ledgerIndex;
  const nearest = await nearestEvidenced(provenIndex, Math.min(provenIndex + MAX_HEADER_CHAIN, await queries.highestLedgerIndex()), queries);
  if (nearest !== undefined) return { evidence: nearest.evidence, validatedIndex: nearest.ledgerIndex, later: { kind: 'header_chain', headers: nearest.headers } };
  const bySkipList = skipLists && (await skipListProof(header, queries, profile, skipLists));
  if (bySkipList) return bySkipList;
  throw new OutOfRange(
    `ledger ${provenIndex} has no evidence of its own, no stored ledger chained up to ${MAX_HEADER_CHAIN} above it (the most headers a header chain proof lists) has any, ` +
      'and no skip list of a validated ledger whose state the node holds lists it: it cannot be proven',
    { ledger_index: provenIndex, max_header_chain: MAX_HEADER_CHAIN },
  );
}

/** The stored headers from `provenIndex + 1` up to `last`, ascending; NotFound when one is no longer stored. */
async function headersAbove(provenIndex: number, last: number, queries: Queries): Promise<LedgerHeader[]> {
  if (last <= provenIndex) return [];
  const { ledgers } = await queries.ledgerRange(provenIndex + 1, last);
  if (ledgers.length < last - provenIndex) {
    throw new NotFound(`ledger ${provenIndex + ledgers.length + 1}, of the header chain proving ledger ${provenIndex}, is no longer stored`);
  }
  return ledgers.map((ledger) => decodeLedgerHeader(ledger.headerBlob));
}

/**
 * The proof of a ledger through the next 256th ledger at or above it (the headers between) and
 * the skip list of the newest validated ledger whose state tree sync holds: its last-256 list
 * when that ledger is at most 256 above the 256th one, else its list of every 256th ledger.
 * Undefined when sync holds no such tree, the list does not hold the ledger, or the validated
 * ledger has no evidence of its own.
 */
async function skipListProof(header: LedgerHeader, queries: Queries, profile: ChainProfile, skipLists: SkipLists): Promise<ProvenBy | undefined> {
  const provenIndex = header.ledgerIndex;
  const listedIndex = Math.ceil(provenIndex / SKIP_LIST_SPACING) * SKIP_LIST_SPACING;
  const found = await skipLists([keylet.ledgerHashes(), keylet.ledgerHashesOf(listedIndex)]);
  if (!found) return undefined;
  const validated = found.header;
  const distance = validated.ledgerIndex - listedIndex;
  const entry = found.entries[distance > 0 && distance <= SKIP_LIST_SPACING ? 0 : 1];
  if (!entry) return undefined;
  const headers = await headersAbove(provenIndex, listedIndex, queries);
  const listed = headers.at(-1) ?? header;
  const { hash } = skipListHash({ key: entry.key, blob: Buffer.from(entry.blob, 'hex'), proof: entry.proof }, listedIndex, validated, profile);
  if (hash === undefined || hash !== hashLedgerHeader(listed)) return undefined;
  const { evidence } = await queries.ledgerEvidence(validated.ledgerIndex).catch(() => ({ evidence: undefined }));
  if (!evidence) return undefined;
  return { evidence, validatedIndex: validated.ledgerIndex, later: { kind: 'skip_list', header: validated, headers, entry } };
}

/**
 * The lowest stored ledger above `ledgerIndex`, up to `highest`, that has evidence, with the
 * headers up to it (one GetLedgerRange for all); undefined when the stored chain ends (a gap, the
 * tip) before one.
 */
async function nearestEvidenced(ledgerIndex: number, highest: number, queries: Queries): Promise<{ ledgerIndex: number; evidence: LedgerEvidence; headers: LedgerHeader[] } | undefined> {
  if (highest <= ledgerIndex) return undefined;
  const { ledgers, evidenced } = await queries.ledgerRange(ledgerIndex + 1, highest);
  const [nearest] = evidenced;
  if (nearest === undefined) return undefined;
  const { evidence } = await queries.ledgerEvidence(nearest);
  if (!evidence) return undefined;
  return { ledgerIndex: nearest, evidence, headers: ledgers.slice(0, nearest - ledgerIndex).map((ledger) => decodeLedgerHeader(ledger.headerBlob)) };
}
