import { z } from 'zod';

/** Result schemas of SPEC §2: they document the methods and check answers in the conformance tests. */
const hexHash = z.string().regex(/^[0-9A-F]{64}$/);
const decimalString = z.string().regex(/^\d+$/);

export const transactionSchema = z
  .looseObject({
    Account: z.string(),
    Fee: decimalString,
    Flags: z.number().int().optional(),
    Sequence: z.number().int(),
    SigningPubKey: z.string().optional(),
    TransactionType: z.string(),
    TxnSignature: z.string().optional(),
    date: z.number().int(),
    hash: hexHash,
    inLedger: z.number().int(),
    ledger_hash: hexHash,
    ledger_index: z.number().int(),
    validated: z.boolean(),
  })
  .describe('Transaction object (SPEC §2.5): every field of the transaction plus date, hash, inLedger, ledger_hash, ledger_index, validated');

const affectedNode = z.looseObject({ LedgerEntryType: z.string(), LedgerIndex: hexHash });

export const receiptSchema = z
  .looseObject({
    AffectedNodes: z.array(
      z.union([z.strictObject({ CreatedNode: affectedNode }), z.strictObject({ ModifiedNode: affectedNode }), z.strictObject({ DeletedNode: affectedNode })]),
    ),
    TransactionIndex: z.number().int(),
    TransactionResult: z.string(),
    hash: hexHash,
  })
  .describe('Transaction receipt (SPEC §2.6): the metadata as the chain recorded it, plus the hash');

export const blockSchema = z
  .object({
    ledger: z.object({
      accepted: z.boolean(),
      account_hash: hexHash,
      close_time: z.number().int(),
      close_time_human: z.string().regex(/^\d{4}-[A-Z][a-z]{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      close_time_resolution: z.number().int(),
      closed: z.boolean(),
      hash: hexHash,
      ledger_hash: hexHash,
      ledger_index: decimalString,
      parent_hash: hexHash,
      seqNum: decimalString,
      totalCoins: decimalString,
      total_coins: decimalString,
      transaction_hash: hexHash,
      transactions: z.union([z.array(hexHash), z.array(z.looseObject({ hash: hexHash, metaData: z.looseObject({}) }))]),
    }),
    ledger_hash: hexHash,
    ledger_index: z.number().int(),
    validated: z.boolean(),
  })
  .describe('Block object (SPEC §2.4)');

export const syncStatusSchema = z
  .union([
    z.literal(false),
    z.object({
      startingBlock: z.number().int(),
      currentBlock: z.number().int(),
      highestBlock: z.number().int(),
      status: z.string().optional().describe('"stopped at ledger N: <reason>" while a verified ledger cannot be stored'),
    }),
  ])
  .describe('Sync status object (SPEC §2.2), or false when in sync');
