/**
 * SignerListSet, after rippled SetSignerList.cpp: a SignerQuorum with SignerEntries replaces the
 * account's signer list; a zero quorum without entries removes it. With MultiSignReserve a list
 * costs one owner reserve (lsfOneOwnerCount); entries are kept sorted by AccountID.
 */
import { dirInsert, dirRemove, u64Hex, u64Of } from '../directory';
import type { ResultToken } from '../results';
import { adjustOwnerCount } from '../trustLines';
import type { JsonObject } from '../types';
import { accountReserve, type ChainSettings, type RuleContext, type TransactionRule } from './context';

/** rippled `STTx::maxMultiSigners` with ExpandedSignerList. */
export const MAX_SIGNERS = 32;
/** rippled lsfOneOwnerCount: the list counts one owner object (MultiSignReserve). */
const ONE_OWNER_COUNT = 0x00010000;

interface SignerEntry {
  account: string;
  weight: number;
}

/** The entries as written in the transaction, or undefined when their form is wrong. */
export function signerEntriesOf(value: unknown): SignerEntry[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const entries: SignerEntry[] = [];
  for (const wrapped of value) {
    const entry = (wrapped as JsonObject | null)?.SignerEntry as JsonObject | undefined;
    if (entry === undefined || entry === null || typeof entry !== 'object') return undefined;
    if (typeof entry.Account !== 'string' || typeof entry.SignerWeight !== 'number') return undefined;
    entries.push({ account: entry.Account, weight: entry.SignerWeight });
  }
  return entries;
}

function preflight(tx: JsonObject, settings: ChainSettings): ResultToken {
  const quorum = tx.SignerQuorum;
  const entries = tx.SignerEntries;
  if (typeof quorum !== 'number') return 'temMALFORMED';
  if (quorum === 0 && entries === undefined) return 'tesSUCCESS';
  if (quorum === 0 || entries === undefined) return 'temMALFORMED';
  const parsed = signerEntriesOf(entries);
  if (parsed === undefined || parsed.length < 1 || parsed.length > MAX_SIGNERS) return 'temMALFORMED';
  const seen = new Set<string>();
  let total = 0;
  for (const { account, weight } of parsed) {
    if (!settings.keys.isValidAddress(account)) return 'temBAD_SIGNER';
    if (weight <= 0) return 'temBAD_WEIGHT';
    if (account === tx.Account || seen.has(account)) return 'temBAD_SIGNER';
    seen.add(account);
    total += weight;
  }
  return total < quorum ? 'temBAD_QUORUM' : 'tesSUCCESS';
}

/** Takes the account's list out of the ledger, if it has one. */
function removeList(context: RuleContext): void {
  const { sandbox, settings, account, scope } = context;
  const index = settings.keys.signers(account);
  const list = sandbox.peek(index);
  if (list === undefined) return;
  dirRemove(sandbox, settings.keys, settings.keys.ownerDir(account), u64Of(list.OwnerNode), index, false);
  // A list written before MultiSignReserve counted 2 owner objects plus one per entry.
  const count = (Number(list.Flags ?? 0) & ONE_OWNER_COUNT) !== 0 ? 1 : 2 + (list.SignerEntries as unknown[]).length;
  sandbox.erase(index);
  adjustOwnerCount(scope, account, -count);
}

function apply(context: RuleContext): ResultToken {
  const { tx, sandbox, settings, account, scope } = context;
  if (tx.SignerQuorum === 0) {
    removeList(context);
    return 'tesSUCCESS';
  }
  removeList(context);
  const root = sandbox.read(settings.keys.account(account))!;
  const ownerCount = Number(root.OwnerCount ?? 0);
  if (context.priorBalance < accountReserve(settings.fees, ownerCount + 1)) return 'tecINSUFFICIENT_RESERVE';
  const index = settings.keys.signers(account);
  const entries = signerEntriesOf(tx.SignerEntries)!.sort((left, right) => settings.keys.compareAccounts(left.account, right.account));
  const list: Record<string, unknown> = {
    LedgerEntryType: 'SignerList',
    Flags: ONE_OWNER_COUNT,
    OwnerNode: u64Hex(0n),
    PreviousTxnID: '0'.repeat(64),
    PreviousTxnLgrSeq: 0,
    SignerEntries: entries.map(({ account: signer, weight }) => ({ SignerEntry: { Account: signer, SignerWeight: weight } })),
    SignerListID: 0,
    SignerQuorum: tx.SignerQuorum,
  };
  sandbox.insert(index, list);
  const page = dirInsert(sandbox, settings.keys, settings.keys.ownerDir(account), index, (created) => (created.Owner = account));
  if (page === undefined) return 'tecDIR_FULL';
  list.OwnerNode = u64Hex(page);
  adjustOwnerCount(scope, account, 1);
  return 'tesSUCCESS';
}

export const signerListSetRule: TransactionRule = {
  allowedFlags: 0,
  preflight,
  preclaim: () => 'tesSUCCESS',
  apply,
};
