import { z } from 'zod';
import { defineMethod } from '../method';
import { genesisSigned } from '../../format/examples';

export const jt_accounts = defineMethod({
  name: 'jt_accounts',
  summary: "Addresses of the node's local accounts (the keys the keystore holds).",
  params: [],
  result: z.array(z.string()),
  errors: [],
  examples: [{ name: 'one local account', params: [], result: [genesisSigned.address] }],
  async handler(_params, { clients }) {
    const { accounts } = await clients.keystore.listAccounts({});
    return accounts.map((account) => account.address);
  },
});
