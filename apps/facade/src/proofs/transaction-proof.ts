/**
 * Proofs of stored transactions (XLS-41 XPOP, libs/proof), the same document for every API: the
 * ledger's header and all its transactions (the path to `txroot`), and the evidence the store kept
 * of the ledger (its signed validations and the publisher's list they were checked against). A
 * ledger stored without evidence of its own (backfilled, or stored before evidence was kept) is
 * proven by the nearest later ledger that has it, through the headers between them (the
 * `header_chain` extension). Proofs are not verified here: that costs every validation's signature
 * check on each answer, and the client verifies anyway; the tests verify what is built.
 */
import { decodeLedgerHeader, listDocumentOf, type ChainProfile, type LedgerHeader } from '@ledger-node/chain';
import { TxDetail, type LedgerEvidence, type LedgerSelector, type TransactionRecord } from '@ledger-node/contracts';
import { Internal, isLedgerNodeError, NotFound, OutOfRange } from '@ledger-node/errors';
import { buildTransactionProof, type LaterLedger, type TransactionProof } from '@ledger-node/proof';
import type { Queries } from '../queries/queries';
import type { RenderedJson } from '../queries/rendered-json';

/**
 * Most headers a `header_chain` proof lists (the proven ledger's child up to the validated ledger):
 * the window of rippled's skip list, the last 256 ledgers, past which a `skip_list` proof (one
 * LedgerHashes entry of the validated ledger) is the short one.
 */
export const MAX_HEADER_CHAIN = 256;
/** How far above a ledger without evidence the nearest one with evidence is looked for, to name it when it is past MAX_HEADER_CHAIN. */
const EVIDENCE_SEARCH = 16 * MAX_HEADER_CHAIN;
/** Ledgers asked for their evidence at once during that search. */
const EVIDENCE_LOOKUPS_AT_ONCE = 32;

/** The evidence that proves a ledger: its own, or a later ledger's with the link to it. */
interface ProvenBy {
  evidence: LedgerEvidence;
  /** The ledger the validations are of. */
  validatedIndex: number;
  later?: LaterLedger;
}

const atIndex = (index: number): LedgerSelector => ({ selector: { $case: 'index', index } });

/**
 * The proof of a stored transaction; undefined when it is not stored. A proof by the ledger's own
 * evidence never changes and is kept; one through a later ledger is not (a shorter one may come).
 */
export function transactionProof(hash: Buffer, queries: Queries, profile: ChainProfile): Promise<RenderedJson<TransactionProof> | undefined> {
  return queries.kept(
    `tx-proof:${hash.toString('hex')}`,
    async () => {
      const record = await queries.transaction(hash);
      return record && proofOf(record, queries, profile);
    },
    (proof) => proof.ledger_proof === undefined,
  );
}

async function proofOf(record: TransactionRecord, queries: Queries, profile: ChainProfile): Promise<TransactionProof | undefined> {
  const [ledger, own] = await Promise.all([queries.wholeLedger(record.ledgerIndex), queries.ledgerEvidence(record.ledgerIndex)]);
  // Removed by bounded history between the reads: no longer stored.
  if (ledger === undefined) return undefined;
  const header = decodeLedgerHeader(ledger.headerBlob);
  const { evidence, validatedIndex, later } = own.evidence ? { evidence: own.evidence, validatedIndex: header.ledgerIndex } : await laterLedger(header, queries);
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
 * The nearest later ledger with evidence, and the headers that chain the proven ledger to it
 * (`header_chain`). A `skip_list` proof (LaterLedger's other kind: the validated ledger's
 * LedgerHashes entry and its path to `acroot`) would reach past MAX_HEADER_CHAIN; it is not built
 * here, so such ledgers answer OutOfRange naming the bound and the nearest evidenced ledger.
 */
async function laterLedger(header: LedgerHeader, queries: Queries): Promise<ProvenBy> {
  const provenIndex = header.ledgerIndex;
  const nearest = await nearestEvidenced(provenIndex, Math.min(provenIndex + EVIDENCE_SEARCH, await queries.highestLedgerIndex()), queries);
  const data = { ledger_index: provenIndex, max_header_chain: MAX_HEADER_CHAIN, ...(nearest ? { nearest_evidenced_ledger: nearest.ledgerIndex } : {}) };
  if (nearest === undefined) {
    throw new OutOfRange(`ledger ${provenIndex} has no evidence of its own and no stored ledger chained above it (searched up to ${EVIDENCE_SEARCH} ledgers) has any: it cannot be proven`, data);
  }
  if (nearest.ledgerIndex - provenIndex > MAX_HEADER_CHAIN) {
    throw new OutOfRange(
      `ledger ${provenIndex} has no evidence of its own and the nearest stored ledger with evidence, ${nearest.ledgerIndex}, is ${nearest.ledgerIndex - provenIndex} ledgers above it: a header chain proof lists at most ${MAX_HEADER_CHAIN} headers`,
      data,
    );
  }
  const headers = await Promise.all(
    Array.from({ length: nearest.ledgerIndex - provenIndex }, async (_, offset) => {
      const ledger = await queries.ledger(atIndex(provenIndex + offset + 1), TxDetail.NONE);
      if (ledger === undefined) throw new NotFound(`ledger ${provenIndex + offset + 1}, of the header chain proving ledger ${provenIndex}, is no longer stored`);
      return decodeLedgerHeader(ledger.headerBlob);
    }),
  );
  return { evidence: nearest.evidence, validatedIndex: nearest.ledgerIndex, later: { kind: 'header_chain', headers } };
}

/** The lowest stored ledger above `ledgerIndex`, up to `highest`, that has evidence; undefined when the stored chain ends (a gap, the tip) before one. */
async function nearestEvidenced(ledgerIndex: number, highest: number, queries: Queries): Promise<{ ledgerIndex: number; evidence: LedgerEvidence } | undefined> {
  for (let from = ledgerIndex + 1; from <= highest; from += EVIDENCE_LOOKUPS_AT_ONCE) {
    const count = Math.min(EVIDENCE_LOOKUPS_AT_ONCE, highest - from + 1);
    const answers = await Promise.all(Array.from({ length: count }, (_, offset) => queries.ledgerEvidence(from + offset).catch(undefinedWhenNotStored)));
    for (const answer of answers) {
      if (answer === undefined) return undefined;
      if (answer.evidence) return { ledgerIndex: answer.ledgerIndex, evidence: answer.evidence };
    }
  }
  return undefined;
}

function undefinedWhenNotStored(error: unknown): undefined {
  if (isLedgerNodeError(error) && error.kind === 'not_found') return undefined;
  throw error;
}
