/** REST: the node's local accounts (keys the keystore holds). */
import { z } from 'zod';
import { defineRoute, noParams, noQuery } from '../define';

export const localAccountRoutes = [
  defineRoute({
    method: 'get',
    path: '/local-accounts',
    summary: "The node's local accounts (keys held by the keystore): address, nickname, key type, creation time.",
    params: noParams,
    query: noQuery,
    response: z.object({ accounts: z.array(z.object({ address: z.string(), nickname: z.string().nullable(), key_type: z.enum(['secp256k1', 'ed25519']), created: z.string() })) }),
    errors: {},
    async handler(_input, { clients }) {
      const { accounts } = await clients.keystore.listAccounts({});
      return {
        accounts: accounts.map((account) => ({
          address: account.address,
          nickname: account.nickname === '' ? null : account.nickname,
          key_type: account.keyType === 2 ? ('ed25519' as const) : ('secp256k1' as const),
          created: new Date(Number(account.createdAtUnixMs)).toISOString(),
        })),
      };
    },
  }),
];
