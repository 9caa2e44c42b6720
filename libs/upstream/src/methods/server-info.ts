/** rippled `server_info`: the ledgers the server holds (`complete_ledgers`) and its newest validated one. */
import { z } from 'zod';
import { hash256, ledgerIndex, type CommonParams } from './fields';

export type ServerInfoParams = CommonParams;

export const serverInfoResult = z.looseObject({
  info: z.looseObject({
    complete_ledgers: z.string(),
    /** The server's node identity (`n…`): two URLs of one server state the same. */
    pubkey_node: z.string().max(128).optional(),
    validated_ledger: z.looseObject({ seq: ledgerIndex, hash: hash256 }).optional(),
  }),
});
export type ServerInfoResult = z.infer<typeof serverInfoResult>;
