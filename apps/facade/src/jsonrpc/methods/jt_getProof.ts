import { z } from 'zod';
import { accountProof } from '../../accounts/proof';
import { stateProofSchema } from '../../format/schemas';
import { ledger38129, stateProofExample } from '../../format/examples';
import { defineMethod, param } from '../method';
import { accountAddress, stateBlockSelector } from '../params';

const trustLine = z
  .object(
    {
      currency: z.string({ error: '"currency" (a 3-letter code or 40 hex digits) is required' }).min(1).describe('a 3-letter currency code or 40 hex digits'),
      issuer: accountAddress.describe("the account on the trust line's other side"),
    },
    { error: 'expected a trust line {currency, issuer}' },
  )
  .strict();

/** Most trust lines one proof names. */
const MAX_TRUST_LINES = 64;

/** The account's state proven from a recent ledger's state tree, checkable offline against a validator-list publisher key. */
export const jt_getProof = defineMethod({
  name: 'jt_getProof',
  summary:
    "A proof of an account's state at a recent ledger: its AccountRoot and the trust lines named, each with its path to the ledger's account_hash, and the validations that proved the ledger with the publisher's list (ledger-node verify-proof checks it). Served for the newest proven ledger and the -proof_window before it, each stored with its validations; a tag names the newest.",
  params: [
    param('address', accountAddress, 'DATA, account address'),
    param('block', stateBlockSelector, 'QUANTITY or TAG: ledger number, ledger hash, or current, validated, closed (the newest ledger a proof is served for)'),
    param(
      'trustLines',
      z.array(trustLine, { error: 'expected a list of trust lines [{currency, issuer}]' }).max(MAX_TRUST_LINES, `expected at most ${MAX_TRUST_LINES} trust lines`).default([]),
      'ARRAY of {currency, issuer}: the trust lines to prove beside the AccountRoot (default none)',
      { optional: true },
    ),
  ],
  result: stateProofSchema,
  // Out of the window, or a ledger stored without its validations; an account that does not exist
  // there (a proof of absence is not served); a trust line it does not have.
  errors: ['outOfRange', 'accountNotFound', 'notFound'],
  examples: [
    {
      name: "an account's AccountRoot and its USD trust line at ledger 38129",
      params: [ledger38129.lineHolder, '38129', [{ currency: 'USD', issuer: 'r9aRw8p1jHtR9XhDAE22TjtM7PdupNXhkx' }]],
      result: stateProofExample,
    },
  ],
  handler: ([address, ledger, trustLines], context) => accountProof(address, ledger, trustLines, context),
});
