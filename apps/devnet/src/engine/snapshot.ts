/**
 * A devnet chain as it is kept between runs (-devnet_chain): every closed ledger (its header and
 * its transactions with their metadata) and the state of the last, as JSON. Enough to continue
 * the chain where it stopped: the same ledgers, hashes and accounts; the state of an earlier
 * ledger is not kept, so a restored devnet answers state reads from its last saved ledger up.
 */
import { decodeLedgerHeader, encodeLedgerHeader, hashLedgerHeader, StateTree, transactionTreeRoot, ZERO_HASH, type ChainProfile, type LedgerHeader } from '@ledger-node/chain';
import { InvalidParams } from '@ledger-node/errors';

export const SNAPSHOT_FORMAT = 1;

export interface ChainSnapshot {
  format: typeof SNAPSHOT_FORMAT;
  /** The chain profile's id: a snapshot is restored on its own chain only. */
  chain: string;
  /** From the genesis ledger up, each ledger's binary header (hex) and its transactions: hash, blob, metadata (hex). */
  ledgers: { header: string; transactions: [hash: string, txBlob: string, metaBlob: string][] }[];
  /** The last ledger's state: each entry's index and serialized form (hex). */
  state: [index: string, blob: string][];
}

/** A restored chain: the ledgers with their headers decoded and hashed, and the last ledger's state tree. */
export interface RestoredChain {
  ledgers: { header: LedgerHeader; hash: string; transactions: { hash: string; txBlob: string; metaBlob: string }[] }[];
  state: StateTree;
}

const HEX = /^(?:[0-9A-F]{2})*$/;

/**
 * Reads a snapshot back, checking what the chain will build on: each header's parent is the
 * ledger before it, each transaction tree hashes to its header's, and the state hashes to the last
 * header's account_hash. InvalidParams naming what does not hold.
 */
export function restoreSnapshot(value: unknown, profile: ChainProfile): RestoredChain {
  const snapshot = value as Partial<ChainSnapshot> | null;
  if (snapshot === null || typeof snapshot !== 'object' || snapshot.format !== SNAPSHOT_FORMAT || !Array.isArray(snapshot.ledgers) || !Array.isArray(snapshot.state)) {
    throw new InvalidParams(`is not a devnet chain of format ${SNAPSHOT_FORMAT}`, 'devnet_chain');
  }
  if (snapshot.chain !== profile.id) throw new InvalidParams(`holds a chain of ${String(snapshot.chain)}, not ${profile.id}`, 'devnet_chain');
  if (snapshot.ledgers.length === 0) throw new InvalidParams('holds no ledger', 'devnet_chain');
  const ledgers: RestoredChain['ledgers'] = [];
  let parentHash = ZERO_HASH;
  for (const [position, entry] of snapshot.ledgers.entries()) {
    const where = `ledger ${position + 1} of the file`;
    if (typeof entry?.header !== 'string' || !HEX.test(entry.header) || !Array.isArray(entry.transactions)) throw new InvalidParams(`${where} is not a header with transactions`, 'devnet_chain');
    const header = decodeLedgerHeader(Buffer.from(entry.header, 'hex'));
    if (header.ledgerIndex !== position + 1 || header.parentHash.toUpperCase() !== parentHash) {
      throw new InvalidParams(`${where} is ledger ${header.ledgerIndex} naming parent ${header.parentHash}, not ledger ${position + 1} after ${parentHash}`, 'devnet_chain');
    }
    const transactions = entry.transactions.map((tx) => {
      if (!Array.isArray(tx) || tx.some((part) => typeof part !== 'string' || !HEX.test(part))) throw new InvalidParams(`${where} holds a transaction that is not hash, blob and metadata in hex`, 'devnet_chain');
      const [hash, txBlob, metaBlob] = tx;
      return { hash, txBlob, metaBlob };
    });
    const root = transactions.length === 0 ? ZERO_HASH : transactionTreeRoot(transactions);
    if (root !== header.transactionHash.toUpperCase()) throw new InvalidParams(`${where}: its transactions hash to ${root}, not its header's ${header.transactionHash}`, 'devnet_chain');
    parentHash = hashLedgerHeader(header);
    ledgers.push({ header, hash: parentHash, transactions });
  }
  const state = new StateTree();
  for (const entry of snapshot.state) {
    if (!Array.isArray(entry) || typeof entry[0] !== 'string' || typeof entry[1] !== 'string' || !HEX.test(entry[1])) throw new InvalidParams('holds a state entry that is not an index and a blob in hex', 'devnet_chain');
    state.set(entry[0], entry[1]);
  }
  const last = ledgers.at(-1)!;
  if (state.root() !== last.header.accountHash.toUpperCase()) {
    throw new InvalidParams(`its state hashes to ${state.root()}, not ledger ${last.header.ledgerIndex}'s account_hash ${last.header.accountHash}`, 'devnet_chain');
  }
  return { ledgers, state };
}

/** The snapshot of `ledgers` (from genesis up) and the last one's `state`. */
export function chainSnapshot(
  profile: ChainProfile,
  ledgers: readonly { header: LedgerHeader; transactions: readonly { hash: string; txBlob: string; metaBlob: string }[] }[],
  state: StateTree,
): ChainSnapshot {
  return {
    format: SNAPSHOT_FORMAT,
    chain: profile.id,
    ledgers: ledgers.map(({ header, transactions }) => ({
      header: encodeLedgerHeader(header).toString('hex').toUpperCase(),
      transactions: transactions.map((tx) => [tx.hash, tx.txBlob, tx.metaBlob]),
    })),
    state: [...state.entries()].map((entry) => [entry.index, entry.blob.toString('hex').toUpperCase()]),
  };
}
