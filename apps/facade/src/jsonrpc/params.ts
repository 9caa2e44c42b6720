import { z } from 'zod';
import { LedgerTag, type LedgerSelector } from '@ledger-node/contracts';

/**
 * Parameter schemas shared by the `jt_*` methods (SPEC §2.1, §4.3). QUANTITY is a decimal string,
 * a `0x` hex string or a JSON integer; DATA hashes are 32 bytes of hex (an optional `0x` is accepted).
 */
const maxLedgerIndex = 0xffffffff;

const hex32 = /^(0x)?[0-9a-fA-F]{64}$/;

/** A 32-byte hash as bytes. */
export const hash32 = z
  .string({ error: 'expected a 32-byte hash as 64 hex digits' })
  .regex(hex32, 'expected a 32-byte hash as 64 hex digits')
  .transform((value) => Buffer.from(value.replace(/^0x/, ''), 'hex'));

/** The text forms of a QUANTITY: decimal digits, or `0x` and hex digits. */
const quantityText = /^(0x[0-9a-fA-F]{1,16}|\d{1,16})$/;

/**
 * A QUANTITY's JSON forms, each failing with `message`: an integer from 0 to `max`, or its decimal or
 * `0x` hex text. Declared as schemas (not only checked in code) so that the documents show them.
 */
function quantityForms(max: number, message: string) {
  return [
    z.number({ error: message }).int({ error: message }).min(0, { error: message }).max(max, { error: message }),
    z.string({ error: message }).regex(quantityText, { error: message }),
  ] as const;
}

/** A QUANTITY's value: the integer, or its text read as decimal or hex; undefined past `max`. */
function quantityValue(value: number | string, max: number): number | undefined {
  const parsed = typeof value === 'number' ? value : value.startsWith('0x') ? Number.parseInt(value.slice(2), 16) : Number(value);
  return Number.isSafeInteger(parsed) && parsed >= 0 && parsed <= max ? parsed : undefined;
}

/** QUANTITY: a non-negative integer up to `max`, as a JSON integer, a decimal string or a `0x` hex string. */
export const quantity = (max: number, what: string) => {
  const message = `expected ${what} as an integer from 0 to ${max}, a decimal string or a 0x hex string`;
  return z.union(quantityForms(max, message), { error: message }).transform((value, ctx) => {
    const parsed = quantityValue(value, max);
    if (parsed === undefined) {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    return parsed;
  });
};

export const ledgerIndexQuantity = quantity(maxLedgerIndex, 'a ledger number');
export const txIndexQuantity = quantity(maxLedgerIndex, 'a transaction index');

/**
 * Block tags and what each names in a store of validated ledgers (the node has no open ledger):
 * `latest`, `validated`, `closed`, `current` and `pending` all name the highest stored ledger;
 * `earliest` names the lowest stored one.
 */
export const blockTags = {
  earliest: LedgerTag.EARLIEST,
  latest: LedgerTag.LATEST,
  pending: LedgerTag.PENDING,
  current: LedgerTag.CURRENT,
  validated: LedgerTag.VALIDATED,
  closed: LedgerTag.CLOSED,
} as const;

type BlockTag = keyof typeof blockTags;
const tagNames = Object.keys(blockTags) as [BlockTag, ...BlockTag[]];
const blockNumberOrTagMessage = `expected a ledger number (decimal, 0x hex or integer) or one of ${tagNames.join(', ')}`;

/** QUANTITY or TAG (jt_getBlockByNumber, jt_getTransactionByBlockNumberAndIndex, jt_getBlockTransactionCountByNumber). */
export const blockNumberOrTag = z
  .union([...quantityForms(maxLedgerIndex, blockNumberOrTagMessage), z.enum(tagNames, { error: blockNumberOrTagMessage })], { error: blockNumberOrTagMessage })
  .transform((value, ctx): LedgerSelector => {
    if (typeof value === 'string' && Object.hasOwn(blockTags, value)) {
      return { selector: { $case: 'tag', tag: blockTags[value as BlockTag] } };
    }
    const index = quantityValue(value, maxLedgerIndex);
    if (index === undefined) {
      ctx.addIssue({ code: 'custom', message: blockNumberOrTagMessage });
      return z.NEVER;
    }
    return { selector: { $case: 'index', index } };
  })
  .describe(`a ledger number (integer, decimal string or 0x hex string, at most ${maxLedgerIndex}) or a tag: ${tagNames.join(', ')}`);

export const blockHash = hash32.transform((hash): LedgerSelector => ({ selector: { $case: 'hash', hash } }));

export const fullTransactions = z.boolean({ error: 'expected true (full transaction objects) or false (hashes only)' });

/** An integer amount of drops: a JSON integer or a decimal string, from `min` up to `max`. */
export const drops = (what: string, min: bigint, max: bigint) =>
  z
    .union([z.number(), z.string()], { error: `expected ${what} as an integer number of drops` })
    .transform((value, ctx) => {
      const text = typeof value === 'number' ? (Number.isSafeInteger(value) ? String(value) : '') : value.trim();
      if (!/^\d{1,20}$/.test(text) || BigInt(text) < min || BigInt(text) > max) {
        ctx.addIssue({ code: 'custom', message: `expected ${what} as an integer number of drops from ${min} to ${max}` });
        return z.NEVER;
      }
      return BigInt(text);
    });

/** All native currency there is: 10^17 drops. */
export const maxDrops = 10n ** 17n;

/** SPEC §4.2: the transaction request object of jt_sendTransaction and jt_signTransaction (a native Payment). */
export const transactionRequest = z
  .object(
    {
      from: z.string({ error: '"from" (a local account address or nickname) is required' }).min(1, '"from" must not be empty').describe('a local account address or nickname'),
      to: z.string({ error: '"to" (the destination address) is required for a payment' }).min(1, '"to" must not be empty').describe('the destination address'),
      fee: drops('"fee"', 0n, 1_000_000n).optional().describe('the fee in drops of the native currency, an integer (default 12)'),
      value: drops('"value"', 1n, maxDrops).describe('the amount to pay in drops of the native currency, an integer (1 unit is 1 000 000 drops)'),
    },
    { error: 'expected a transaction request object {from, to, value, fee?}' },
  )
  .strict();

/** DATA: hex bytes, with or without `0x`. */
export const hexData = (what: string) =>
  z
    .string({ error: `expected ${what} as hex` })
    .regex(/^(0x)?([0-9a-fA-F]{2})*$/, `expected ${what} as an even number of hex digits`)
    .transform((value) => Buffer.from(value.replace(/^0x/, ''), 'hex'));

/** An account address as text; checked against the chain profile's alphabet and checksum by `accountIdOf`. */
export const accountAddress = z
  .string({ error: 'expected an account address' })
  .regex(/^[1-9A-HJ-NP-Za-km-z]{25,35}$/, 'expected an account address (base58, 25 to 35 characters)');

const stateTags = { current: LedgerTag.CURRENT, validated: LedgerTag.VALIDATED, closed: LedgerTag.CLOSED } as const;
type StateTag = keyof typeof stateTags;
const stateTagNames = Object.keys(stateTags) as [StateTag, ...StateTag[]];
const stateBlockMessage = `expected a ledger number (decimal, 0x hex or integer), a 64-hex-digit ledger hash, or one of ${stateTagNames.join(', ')}`;

/** SPEC §4.3, for the account-state methods: a block number, a block hash, or current / validated / closed. */
export const stateBlockSelector = z
  .union(
    [
      ...quantityForms(maxLedgerIndex, stateBlockMessage),
      z.string({ error: stateBlockMessage }).regex(hex32, { error: stateBlockMessage }),
      z.enum(stateTagNames, { error: stateBlockMessage }),
    ],
    { error: stateBlockMessage },
  )
  .transform((value, ctx): LedgerSelector => {
    if (typeof value === 'string' && Object.hasOwn(stateTags, value)) return { selector: { $case: 'tag', tag: stateTags[value as StateTag] } };
    if (typeof value === 'string' && hex32.test(value)) return { selector: { $case: 'hash', hash: Buffer.from(value.replace(/^0x/, ''), 'hex') } };
    const index = quantityValue(value, maxLedgerIndex);
    if (index === undefined) {
      ctx.addIssue({ code: 'custom', message: stateBlockMessage });
      return z.NEVER;
    }
    return { selector: { $case: 'index', index } };
  })
  .describe(`a ledger number (integer, decimal string or 0x hex string, at most ${maxLedgerIndex}), a 64-hex-digit ledger hash, or a tag: ${stateTagNames.join(', ')}`);
