/** rippled `ledger_entry`: one state object, by `index`, `account_root` or `ripple_state`. */
import { currencyToBytes, keylet } from '@ledger-node/chain';
import { isLedgerNodeError } from '@ledger-node/errors';
import type { JsonObject } from '../../engine/types';
import type { LedgerSource } from '../ledger-source';
import { isHash256, ledgerFields, readBoolean, resolveLedger, stateLedgerIndex } from '../params';
import { RpcError } from '../rpc-error';
import type { MethodHandler } from './context';

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Converts a bad-input error of the codec into rippled's invalidParams with its token. */
function orInvalid<T>(token: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (isLedgerNodeError(error) && error.kind === 'invalid_params') throw new RpcError('invalidParams', token);
    throw error;
  }
}

function entryIndexOf(request: JsonObject, source: LedgerSource): string {
  const { codec } = source.profile;
  if (request.index !== undefined) {
    if (!isHash256(request.index)) throw new RpcError('invalidParams', 'malformedRequest');
    return request.index.toUpperCase();
  }
  if (request.account_root !== undefined) {
    const address = request.account_root;
    if (typeof address !== 'string' || !codec.isValidAddress(address)) throw new RpcError('invalidParams', 'malformedAddress');
    return keylet.account(codec.decodeAccountId(address));
  }
  if (request.ripple_state !== undefined) {
    const line = request.ripple_state;
    if (!isObject(line) || !Array.isArray(line.accounts) || line.accounts.length !== 2 || typeof line.currency !== 'string') {
      throw new RpcError('invalidParams', 'malformedRequest');
    }
    const [first, second] = line.accounts as unknown[];
    if (typeof first !== 'string' || typeof second !== 'string' || !codec.isValidAddress(first) || !codec.isValidAddress(second) || first === second) {
      throw new RpcError('invalidParams', 'malformedAddress');
    }
    const currency = orInvalid('malformedCurrency', () => currencyToBytes(line.currency as string, source.profile.nativeCurrency));
    return keylet.rippleState(codec.decodeAccountId(first), codec.decodeAccountId(second), currency);
  }
  throw new RpcError('invalidParams', 'unknownOption');
}

export const ledgerEntry: MethodHandler = ({ request, source }) => {
  const binary = readBoolean(request, 'binary');
  const entryIndex = entryIndexOf(request, source);
  const ref = resolveLedger(request, source);
  const ledgerIndex = stateLedgerIndex(ref);
  if (!source.holdsState(ledgerIndex)) throw new RpcError('notSupported', 'The state objects of this ledger are not held.');
  const entry = source.stateEntry(entryIndex, ledgerIndex);
  if (!entry) throw new RpcError('entryNotFound');
  return binary
    ? { index: entry.index, ...ledgerFields(ref), node_binary: entry.blob }
    : { index: entry.index, ...ledgerFields(ref), node: { ...entry.json, index: entry.index } };
};
