/** rippled `subscribe` / `unsubscribe`: streams and accounts for this connection. */
import type { JsonObject } from '../../engine/types';
import type { LedgerSource } from '../ledger-source';
import { readStreamAccounts, RpcError } from '@ledger-node/rippled-api';
import { isStreamName, ledgerStreamFields, type StreamName } from '../subscriptions';
import type { MethodHandler } from './context';

interface SubscriptionRequest {
  streams: StreamName[];
  accounts: string[];
}

function readSubscription(request: JsonObject, source: LedgerSource): SubscriptionRequest {
  const streams: StreamName[] = [];
  if (request.streams !== undefined) {
    if (!Array.isArray(request.streams)) throw new RpcError('invalidParams');
    for (const stream of request.streams) {
      if (!isStreamName(stream)) throw new RpcError('malformedStream');
      streams.push(stream);
    }
  }
  const accounts = readStreamAccounts(request, source.profile);
  if (request.books !== undefined) throw new RpcError('notSupported', 'Order book streams are not served by the devnet.');
  return { streams, accounts };
}

export const subscribe: MethodHandler = ({ request, source, subscriber, apiVersion }) => {
  const { streams, accounts } = readSubscription(request, source);
  subscriber.subscribe(streams, accounts, apiVersion);
  // rippled answers a `ledger` subscription with the newest validated ledger.
  const ledger = source.validatedLedger();
  return streams.includes('ledger') && ledger ? ledgerStreamFields(source, ledger) : {};
};

export const unsubscribe: MethodHandler = ({ request, source, subscriber }) => {
  const { streams, accounts } = readSubscription(request, source);
  subscriber.unsubscribe(streams, accounts);
  return {};
};
