/**
 * An account's state proof (jt_getProof, GET /v1/accounts/{address}/proof): its AccountRoot and the
 * trust lines asked for, each with its path in the ledger's proven state tree (sync's GetStateProof:
 * the ledger-store holds the entries but not the tree), and the validations that proved that ledger
 * (GetLedgerEvidence), in libs/proof's document form.
 */
import { decodeLedgerHeader, keylet, listDocumentOf, proofPathOfFlat, type ProofPath } from '@ledger-node/chain';
import { TxDetail, type LedgerSelector } from '@ledger-node/contracts';
import { AccountNotFound, NotFound, OutOfRange } from '@ledger-node/errors';
import { assembleStateProof, type StateEntry, type StateProof } from '@ledger-node/proof';
import { issuedCurrencyBytes } from '@ledger-node/rippled-api';
import type { MethodContext } from '../jsonrpc/method';
import { accountIdOf } from './address';

/** A trust line of the account: its currency (a 3-letter code or 40 hex digits) and the issuer on its other side. */
export interface TrustLineName {
  currency: string;
  issuer: string;
}

/** A state proof whose paths are in the list form. */
export type AccountProof = StateProof & { state: (StateEntry & { proof: ProofPath })[] };

/** The ledger sync is asked for: a tag names the newest whose state tree sync holds; a hash, the stored ledger it names. */
async function proofLedgerIndex(ledger: LedgerSelector, { queries }: MethodContext): Promise<number | undefined> {
  const selector = ledger.selector;
  if (selector?.$case === 'index') return selector.index;
  if (selector?.$case !== 'hash') return undefined;
  const record = await queries.ledger(ledger, TxDetail.NONE);
  if (!record) throw new OutOfRange(`ledger ${selector.hash.toString('hex').toUpperCase()} is not stored`);
  return record.ledgerIndex;
}

export async function accountProof(address: string, ledger: LedgerSelector, trustLines: readonly TrustLineName[], context: MethodContext): Promise<AccountProof> {
  const { clients, profile } = context;
  const accountId = accountIdOf(address, profile);
  const lineKeys = trustLines.map((line, position) => keylet.rippleState(accountId, accountIdOf(line.issuer, profile, `trustLines[${position}].issuer`, 3), issuedCurrencyBytes(line.currency, profile)));
  const keys = [keylet.account(accountId), ...lineKeys];
  const answer = await clients.sync.getStateProof({ ledgerIndex: await proofLedgerIndex(ledger, context), keys: keys.map((key) => Buffer.from(key, 'hex')) });
  const { ledgerIndex } = answer;
  const [root, ...lines] = answer.entries;
  // A proof of absence would need the neighbouring leaves: not served.
  if (!root?.blob) throw new AccountNotFound(`account ${address} not found at ledger ${ledgerIndex}: only the state of an account that exists is proven`, { ledger_index: ledgerIndex });
  const missing = lines.findIndex((line) => !line.blob);
  if (missing >= 0) {
    const line = trustLines[missing]!;
    throw new NotFound(`account ${address} has no trust line in ${line.currency} with ${line.issuer} at ledger ${ledgerIndex}`, { ledger_index: ledgerIndex });
  }
  const { evidence } = await context.queries.ledgerEvidence(ledgerIndex);
  if (!evidence) {
    throw new NotFound(`ledger ${ledgerIndex} is stored without its own validations (proven by its child, or by agreeing endpoints): its state cannot be proven; ask for a ledger followed live, such as "validated"`, {
      ledger_index: ledgerIndex,
    });
  }
  const list = evidence.validatorLists[0];
  if (!list) throw new NotFound(`ledger ${ledgerIndex} was proven by -validators keys alone: a proof document needs a published validator list`, { ledger_index: ledgerIndex });
  const entries = answer.entries.map((entry) => ({
    key: Buffer.from(entry.key).toString('hex').toUpperCase(),
    blob: Buffer.from(entry.blob!).toString('hex').toUpperCase(),
    proof: proofPathOfFlat(entry.innerNodes, entry.key),
  }));
  const proof = assembleStateProof({
    profile,
    header: decodeLedgerHeader(answer.headerBlob),
    validations: evidence.validations.map((blob) => Buffer.from(blob).toString('hex').toUpperCase()),
    list: listDocumentOf(list),
    entries,
  });
  // The same entries, typed as the list form they are in.
  return { ...proof, state: entries };
}
