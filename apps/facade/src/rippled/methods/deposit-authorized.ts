/**
 * rippled `deposit_authorized` (DepositAuthorized.cpp): whether `source_account` may send to
 * `destination_account` at a stored ledger — always, unless the destination set DepositAuth and
 * is another account, then only with its preauthorization of the source. `credentials` (XLS-70)
 * are not read yet: a request naming them is notSupported, never answered wrongly.
 */
import { keylet } from '@ledger-node/chain';
import { invalidField, readAccount, RpcError, type JsonObject } from '@ledger-node/rippled-api';
import type { RippledMethod } from '../method';
import { ledgerFields, resolveLedger } from './ledgers';
import { StateView } from './state';

/** lsfDepositAuth of AccountRoot. */
const LSF_DEPOSIT_AUTH = 0x01000000;

function readAccountField(params: JsonObject, field: string, codec: Parameters<typeof readAccount>[1]): string {
  if (params[field] !== undefined && typeof params[field] !== 'string') throw invalidField(field, 'a string');
  return readAccount(params, codec, field);
}

export const depositAuthorized: RippledMethod = async ({ params }, context) => {
  const { codec } = context.profile;
  const source = readAccountField(params, 'source_account', codec);
  const destination = readAccountField(params, 'destination_account', codec);
  if (params.credentials !== undefined) throw new RpcError('notSupported', 'credentials are not read by this server yet.');
  const resolved = await resolveLedger(params, context);
  const fields = ledgerFields(resolved.place);
  const [sourceId, destinationId] = [source, destination].map((address) => Buffer.from(codec.decodeAccountId(address)));
  const state = new StateView(context, resolved.header.ledgerIndex);
  const [sourceRoot, destinationRoot] = await state.read([keylet.account(sourceId!), keylet.account(destinationId!)]);
  if (!sourceRoot) throw new RpcError('srcActNotFound', undefined, fields);
  if (!destinationRoot) throw new RpcError('dstActNotFound', undefined, fields);
  const flags = typeof destinationRoot.json.Flags === 'number' ? destinationRoot.json.Flags : 0;
  const needsAuthorization = (flags & LSF_DEPOSIT_AUTH) !== 0 && source !== destination;
  const authorized = !needsAuthorization || (await state.readOne(keylet.depositPreauth(destinationId!, sourceId!))) !== undefined;
  return { ...fields, source_account: source, destination_account: destination, deposit_authorized: authorized };
};
