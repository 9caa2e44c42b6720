/**
 * Forged copies of the binary `ledger` and `ledger_data` answers (rippled API v1, as sync asks for
 * them) that the hostile upstream serves. Each forgery is aimed at one check of sync and says
 * which ledger and transaction hashes it made up, so that a test can look for them in the store.
 */
import { decodeLedgerHeader, encodeLedgerHeader, hashLedgerHeader, hashTransaction, type ChainProfile, type LedgerHeader } from '@ledger-node/chain';

export type LedgerForgeryKind =
  /** The served ledger_hash, or a header field, changed: the header no longer hashes to it. */
  | 'forged_header_hash'
  /** parent_hash changed and the header hashed again: self-consistent, but another ledger. */
  | 'wrong_parent'
  /** account_hash changed and the header hashed again. */
  | 'wrong_account_hash'
  /** One payment's Amount changed: the transaction tree no longer has the header's root. */
  | 'changed_amount'
  | 'dropped_transaction'
  /** A transaction listed twice, or one of another ledger added. */
  | 'added_transaction'
  /** One transaction's metadata changed (its result, index or delivered amount). */
  | 'changed_metadata';

export const ledgerForgeryKinds: readonly LedgerForgeryKind[] = [
  'forged_header_hash',
  'wrong_parent',
  'wrong_account_hash',
  'changed_amount',
  'dropped_transaction',
  'added_transaction',
  'changed_metadata',
];

export interface BinaryTransaction {
  tx_blob: string;
  meta?: string;
  meta_blob?: string;
  hash?: string;
}

export interface ForgedAnswer {
  answer: Record<string, any>;
  variant: string;
  /** Hashes of ledgers the forgery made up (a served hash, or what the changed header hashes to). */
  ledgerHashes: string[];
  /** Hashes of transactions the forgery made up. */
  txHashes: string[];
}

type Random = () => number;

export function randomHash(random: Random): string {
  let hex = '';
  for (let position = 0; position < 64; position++) hex += Math.floor(random() * 16).toString(16);
  return hex.toUpperCase();
}

const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

/** The header (bytes, or hex as an answer prints it) with `change` applied, as hex, and the hash it has then. */
export function changedHeader(served: Uint8Array | string, change: (header: LedgerHeader) => void): { headerHex: string; ledgerHash: string } {
  const header = decodeLedgerHeader(served);
  change(header);
  return { headerHex: encodeLedgerHeader(header).toString('hex').toUpperCase(), ledgerHash: hashLedgerHeader(header) };
}

function metaOf(tx: BinaryTransaction): string {
  return (tx.meta ?? tx.meta_blob)!;
}

function withMeta(tx: BinaryTransaction, meta: string): BinaryTransaction {
  return tx.meta !== undefined ? { ...tx, meta } : { ...tx, meta_blob: meta };
}

/** The answer with its ledger part replaced. */
function withLedger(answer: Record<string, any>, ledger: Record<string, any>, ledgerHash?: string): Record<string, any> {
  return { ...answer, result: { ...answer.result, ledger: { ...answer.result.ledger, ...ledger }, ...(ledgerHash ? { ledger_hash: ledgerHash } : {}) } };
}

/**
 * A forged copy of a binary `ledger` answer (with transactions), or undefined when this ledger
 * offers nothing to forge that way (e.g. no payment to change). `foreign` is a transaction of
 * another ledger, for adding.
 */
export function forgeLedgerAnswer(
  kind: LedgerForgeryKind,
  answer: Record<string, any>,
  context: { profile: ChainProfile; random: Random; foreign?: BinaryTransaction },
): ForgedAnswer | undefined {
  const { profile, random } = context;
  const headerHex: string = answer.result.ledger.ledger_data;
  const transactions: BinaryTransaction[] = answer.result.ledger.transactions ?? [];
  const position = Math.floor(random() * transactions.length);
  switch (kind) {
    case 'forged_header_hash': {
      if (random() < 0.5) {
        const served = randomHash(random);
        return { answer: { ...answer, result: { ...answer.result, ledger_hash: served } }, variant: 'served hash replaced', ledgerHashes: [served], txHashes: [] };
      }
      // A header field changed under the real hash: the header hashes to something else.
      const changed = changedHeader(headerHex, (header) => (header.totalCoins -= 1n));
      return { answer: withLedger(answer, { ledger_data: changed.headerHex }), variant: 'total_coins changed', ledgerHashes: [changed.ledgerHash], txHashes: [] };
    }
    case 'wrong_parent':
    case 'wrong_account_hash': {
      const forgedHash = randomHash(random);
      const changed = changedHeader(headerHex, (header) => {
        if (kind === 'wrong_parent') header.parentHash = forgedHash;
        else header.accountHash = forgedHash;
      });
      return { answer: withLedger(answer, { ledger_data: changed.headerHex }, changed.ledgerHash), variant: 'header hashed again', ledgerHashes: [changed.ledgerHash], txHashes: [] };
    }
    case 'changed_amount': {
      const payments = transactions.map((tx, index) => ({ index, fields: profile.codec.decode(tx.tx_blob) })).filter(({ fields }) => fields.Amount !== undefined);
      if (payments.length === 0) return undefined;
      const { index, fields } = pick(random, payments);
      const amount = fields.Amount;
      fields.Amount = typeof amount === 'string' ? String(BigInt(amount) + 1n) : { ...amount, value: String(Number(amount.value) + 1) };
      const txBlob = profile.codec.encode(fields);
      const txHash = hashTransaction(txBlob);
      // A hash served with the transaction is changed too, so that the tree (not the hash) must catch it.
      const forged = transactions.map((tx, at) => (at === index ? { ...tx, tx_blob: txBlob, ...(tx.hash !== undefined ? { hash: txHash } : {}) } : tx));
      return { answer: withLedger(answer, { transactions: forged }), variant: 'Amount + 1', ledgerHashes: [], txHashes: [txHash] };
    }
    case 'dropped_transaction': {
      if (transactions.length === 0) return undefined;
      return { answer: withLedger(answer, { transactions: transactions.filter((_, at) => at !== position) }), variant: 'one left out', ledgerHashes: [], txHashes: [] };
    }
    case 'added_transaction': {
      const duplicate = transactions.length > 0 && (context.foreign === undefined || random() < 0.5);
      if (!duplicate && context.foreign === undefined) return undefined;
      const extra = duplicate ? transactions[position]! : context.foreign!;
      const forged = [...transactions];
      forged.splice(Math.floor(random() * (forged.length + 1)), 0, extra);
      return { answer: withLedger(answer, { transactions: forged }), variant: duplicate ? 'listed twice' : 'one of another ledger added', ledgerHashes: [], txHashes: [] };
    }
    case 'changed_metadata': {
      if (transactions.length === 0) return undefined;
      const tx = transactions[position]!;
      const meta = profile.codec.decode(metaOf(tx));
      const change = pick(random, ['result', 'index', ...(meta.DeliveredAmount !== undefined && typeof meta.DeliveredAmount === 'string' ? ['delivered'] : [])]);
      if (change === 'result') meta.TransactionResult = meta.TransactionResult === 'tesSUCCESS' ? 'tecPATH_DRY' : 'tesSUCCESS';
      else if (change === 'index') meta.TransactionIndex = Number(meta.TransactionIndex) + transactions.length;
      else meta.DeliveredAmount = String(BigInt(meta.DeliveredAmount) + 1n);
      const forged = transactions.map((item, at) => (at === position ? withMeta(item, profile.codec.encode(meta)) : item));
      return { answer: withLedger(answer, { transactions: forged }), variant: `metadata ${change} changed`, ledgerHashes: [], txHashes: [] };
    }
  }
}

/** rippled LedgerEntryType codes (definitions.json): the objects a forged state page changes or copies. */
const ACCOUNT_ROOT = 0x0061;

function entryType(dataHex: string): number | undefined {
  // LedgerEntryType is serialized first: field code 0x11, then the type as a u16.
  return dataHex.slice(0, 2).toUpperCase() === '11' ? parseInt(dataHex.slice(2, 6), 16) : undefined;
}

/**
 * A forged copy of a binary `ledger_data` page: an account's balance changed, an object left out,
 * or an account copied under a made-up key. Every object stays decodable, so that only the state
 * root (not a parse error) can refuse it.
 */
export function forgeStatePage(answer: Record<string, any>, context: { profile: ChainProfile; random: Random }): ForgedAnswer | undefined {
  const { profile, random } = context;
  const state: { data: string; index: string }[] = answer.result?.state ?? [];
  const accounts = state.map((entry, index) => ({ entry, index })).filter(({ entry }) => entryType(entry.data) === ACCOUNT_ROOT);
  if (accounts.length === 0) return undefined;
  const { entry, index } = pick(random, accounts);
  const variant = pick(random, ['balance changed', 'object left out', 'account copied']);
  let forged: typeof state;
  if (variant === 'balance changed') {
    const fields = profile.codec.decode(entry.data);
    fields.Balance = String(BigInt(fields.Balance) + 1_000_000n);
    forged = state.map((item, at) => (at === index ? { ...item, data: profile.codec.encode(fields) } : item));
  } else if (variant === 'object left out') {
    forged = state.filter((_, at) => at !== index);
  } else {
    forged = [...state, { data: entry.data, index: randomHash(random) }].sort((a, b) => a.index.localeCompare(b.index));
  }
  return { answer: { ...answer, result: { ...answer.result, state: forged } }, variant, ledgerHashes: [], txHashes: [] };
}

/** A self-consistent ledger header other than the real one at its index: a fork, with the parent kept or changed. */
export function forkHeader(served: Uint8Array | string, variant: 'same parent' | 'other parent', random: Random): { headerHex: string; ledgerHash: string } {
  return changedHeader(served, (header) => {
    if (variant === 'same parent') header.closeTime += 1;
    else header.parentHash = randomHash(random);
  });
}
