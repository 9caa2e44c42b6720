/** rippled `subscribe`: streams of messages (`ledger`, `validations`…) on this connection from now on. */
import { z } from 'zod';
import { hash256, ledgerIndex, type CommonParams } from './fields';

export interface SubscribeParams extends CommonParams {
  streams?: readonly string[];
  accounts?: readonly string[];
}

/** A `ledger` subscription is answered with the newest validated ledger, when the server has one. */
export const subscribeResult = z.looseObject({
  ledger_index: ledgerIndex.optional(),
  ledger_hash: hash256.optional(),
  validated_ledgers: z.string().optional(),
  /** rippled 1.11 and later: the server's network id. */
  network_id: z.number().int().min(0).max(4_294_967_295).optional(),
});
export type SubscribeResult = z.infer<typeof subscribeResult>;
