/** REST: the node's local accounts (keys the keystore holds). */
import { z } from 'zod';
import { genesisSigned } from '../../format/examples';
import { defineRoute, noParams, noQuery, type RestTag } from '../define';

const tag: RestTag = { name: 'local accounts', description: "The node's own accounts: the keys its keystore holds." };

export const localAccountRoutes = [
  defineRoute({
    method: 'get',
    path: '/local-accounts',
    operationId: 'listLocalAccounts',
    tag,
    summary: "The node's local accounts (keys held by the keystore): address, nickname, key type, creation time.",
    params: noParams,
    query: noQuery,
    response: z.object({
      accounts: z.array(
        z.object({
          address: z.string(),
          nickname: z.string().nullable(),
          key_type: z.enum(['secp256k1', 'ed25519']),
          created: z.string().describe('when the key was made, ISO 8601 in UTC'),
        }),
      ),
    }),
    // A read-only node (-read_only) holds no keys.
    errors: { unimplemented: 501 },
    example: { response: { accounts: [{ address: genesisSigned.address, nickname: 'treasury', key_type: 'secp256k1', created: '2026-03-02T10:12:45.031Z' }] } },
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
