/** rippled `server_info`: the ledgers the server holds (`complete_ledgers`) and its newest validated one. */
import { z } from 'zod';
import { hash256, ledgerIndex, type CommonParams } from './fields';

export type ServerInfoParams = CommonParams;

export const serverInfoResult = z.looseObject({
  info: z.looseObject({
    complete_ledgers: z.string(),
    validated_ledger: z.looseObject({ seq: ledgerIndex, hash: hash256 }).optional(),
  }),
});
export type ServerInfoResult = z.infer<typeof serverInfoResult>;
