import { defineMethod, param } from '../method';
import { hash32 } from '../params';
import { transactionProofSchema } from '../../format/schemas';
import { testnetProof } from '../../format/proof-example';
import { syncSkipLists, transactionProof } from '../../proofs/transaction-proof';

export const jt_getTransactionProof = defineMethod({
  name: 'jt_getTransactionProof',
  summary:
    "A proof that a stored transaction is in a ledger the network validated (XLS-41 XPOP), checkable offline with the publisher's key; for a ledger stored without validations of its own, through the headers up to the nearest later one that has them (ledger_proof header_chain, at most 256 headers), or past that through the headers up to the next 256th ledger and the skip list of a recent validated ledger (ledger_proof skip_list). Null when the transaction is not stored.",
  params: [param('transactionHash', hash32, 'DATA, 32-byte transaction hash')],
  result: transactionProofSchema.nullable(),
  // outOfRange: the ledger has no evidence and none within reach of a header chain has (or it was proven without a publisher's list).
  errors: ['outOfRange'],
  examples: [{ name: 'a transaction of XRP Ledger testnet ledger 39419653', params: [testnetProof.hash], result: testnetProof.xpop }],
  handler: async ([hash], { queries, profile, clients }) => (await transactionProof(hash, queries, profile, syncSkipLists(clients))) ?? null,
});
