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

/** QUANTITY: a non-negative integer up to `max`, as a JSON integer, a decimal string or a `0x` hex string. */
export const quantity = (max: number, what: string) =>
  z
    .union([z.number(), z.string()], { error: `expected ${what} as an integer, a decimal string or a 0x hex string` })
    .transform((value, ctx) => {
      const parsed =
        typeof value === 'number'
          ? value
          : /^0x[0-9a-fA-F]{1,16}$/.test(value)
            ? Number.parseInt(value.slice(2), 16)
            : /^\d{1,16}$/.test(value)
              ? Number(value)
              : NaN;
      if (!Number.isSafeInteger(parsed) || parsed < 0 || parsed > max) {
        ctx.addIssue({ code: 'custom', message: `expected ${what} as an integer from 0 to ${max}, a decimal string or a 0x hex string` });
        return z.NEVER;
      }
      return parsed;
    });

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

const tagNames = Object.keys(blockTags).join(', ');

/** QUANTITY or TAG (jt_getBlockByNumber, jt_getTransactionByBlockNumberAndIndex, jt_getBlockTransactionCountByNumber). */
export const blockNumberOrTag = z
  .union([z.number(), z.string()], { error: `expected a ledger number or one of ${tagNames}` })
  .transform((value, ctx): LedgerSelector => {
    if (typeof value === 'string' && value in blockTags) {
      return { selector: { $case: 'tag', tag: blockTags[value as keyof typeof blockTags] } };
    }
    const parsed = ledgerIndexQuantity.safeParse(value);
    if (!parsed.success) {
      ctx.addIssue({ code: 'custom', message: `expected a ledger number (decimal, 0x hex or integer) or one of ${tagNames}` });
      return z.NEVER;
    }
    return { selector: { $case: 'index', index: parsed.data } };
  });

export const blockHash = hash32.transform((hash): LedgerSelector => ({ selector: { $case: 'hash', hash } }));

export const fullTransactions = z.boolean({ error: 'expected true (full transaction objects) or false (hashes only)' });
