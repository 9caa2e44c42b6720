import { z } from 'zod';
import type { ProofTree } from '@ledger-node/proof';

/** Result schemas of SPEC §2: they document the methods and check answers in the conformance tests. */
const hexHash = z.string().regex(/^[0-9A-F]{64}$/);
const decimalString = z.string().regex(/^\d+$/);
/** An integer amount of drops of the native currency, as a decimal string (SPEC: "string, integer amount"). */
const dropsString = decimalString.describe('drops of the native currency, an integer as a decimal string');
/** SPEC: "integer (seconds)": seconds since the Ripple epoch, 2000-01-01T00:00:00Z (Unix seconds minus 946684800). */
const rippleEpochSeconds = z.number().int().describe('seconds since the Ripple epoch, 2000-01-01T00:00:00Z (Unix seconds minus 946684800)');

export const transactionSchema = z
  .looseObject({
    Account: z.string(),
    Fee: dropsString.describe('the fee in drops of the native currency, an integer as a decimal string'),
    Flags: z.number().int().optional(),
    Sequence: z.number().int(),
    SigningPubKey: z.string().optional(),
    TransactionType: z.string(),
    TxnSignature: z.string().optional(),
    date: rippleEpochSeconds.describe("when the transaction's ledger closed, in seconds since the Ripple epoch (2000-01-01T00:00:00Z)"),
    hash: hexHash,
    inLedger: z.number().int(),
    ledger_hash: hexHash,
    ledger_index: z.number().int(),
    validated: z.boolean(),
  })
  .describe(
    'Transaction object (SPEC §2.5): every field of the transaction plus date, hash, inLedger, ledger_hash, ledger_index, validated. Native amounts (Amount, Fee…) are drops as decimal strings; an issued amount is {currency, issuer, value} with value in units of the currency; times (date, Expiration…) are Ripple-epoch seconds.',
  );

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
  .describe('Transaction receipt (SPEC §2.6): the metadata as the chain recorded it, plus the hash; native amounts (Balance, delivered_amount…) in drops as decimal strings');

export const blockSchema = z
  .object({
    ledger: z.object({
      accepted: z.boolean(),
      account_hash: hexHash,
      close_time: rippleEpochSeconds.describe('when the ledger closed, in seconds since the Ripple epoch (2000-01-01T00:00:00Z)'),
      close_time_human: z
        .string()
        .regex(/^\d{4}-[A-Z][a-z]{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
        .describe('close_time as YYYY-Mon-DD HH:MM:SS, UTC'),
      close_time_resolution: z.number().int().describe('how finely close_time was rounded, in seconds'),
      closed: z.boolean(),
      hash: hexHash,
      ledger_hash: hexHash,
      ledger_index: decimalString,
      parent_hash: hexHash,
      seqNum: decimalString,
      totalCoins: dropsString.describe('all native currency in existence, in drops (an integer as a decimal string)'),
      total_coins: dropsString.describe('the same as totalCoins'),
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
      startingBlock: z.number().int().describe('ledger index the import started at'),
      currentBlock: z.number().int().describe('ledger index stored last (jt_blockNumber)'),
      highestBlock: z.number().int().describe("the upstream's highest validated ledger index"),
      status: z.string().optional().describe('"stopped at ledger N: <reason>" while a verified ledger cannot be stored'),
    }),
  ])
  .describe('Sync status object (SPEC §2.2), or false when in sync');

const hexBytes = z.string().regex(/^(?:[0-9A-F]{2})+$/);

/** A header as XLS-41 names its fields, from which the ledger hash is recomputed. */
const proofLedgerSchema = z.object({
  index: z.number().int(),
  coins: dropsString,
  phash: hexHash,
  txroot: hexHash,
  acroot: hexHash,
  pclose: rippleEpochSeconds,
  close: rippleEpochSeconds,
  cres: z.number().int(),
  flags: z.number().int(),
});

/**
 * A path from a leaf to a tree's root: this node writes the list form (each inner node its 16
 * branch hashes, the branch toward the leaf holding the next inner node, the leaf hash at the
 * bottom); Xahau's tree form ({hash, key, children}) reads the same. Typed as libs/proof's (the list
 * form nests readonly lists, which zod does not type).
 */
const proofPathSchema = z.union([
  z.array(z.unknown()).length(16),
  z.looseObject({ hash: hexHash, key: hexHash, children: z.record(z.string(), z.unknown()) }),
]) as unknown as z.ZodType<ProofTree>;

/** The validations of the proven (or the later validated) ledger and the list they were checked against. */
const proofValidationSchema = z.object({
  data: z.record(z.string(), hexBytes).describe("signed validations (STValidation, hex) keyed by the validator's n… key"),
  unl: z
    .object({ public_key: hexBytes, manifest: z.string(), blob: z.string(), signature: hexBytes, version: z.number().int() })
    .describe("the publisher's list the validations were checked against (version 1: the blob in force at the validated ledger's close)"),
});

export const transactionProofSchema = z
  .object({
    ledger: proofLedgerSchema.describe("the proven ledger's header"),
    transaction: z.object({
      blob: hexBytes.describe('the transaction, hex'),
      meta: hexBytes.describe('its metadata, hex'),
      proof: proofPathSchema.describe("the inner nodes from the transaction's leaf up to txroot"),
    }),
    validation: proofValidationSchema,
    ledger_proof: z
      .union([
        z.object({ kind: z.literal('header_chain'), headers: z.array(proofLedgerSchema) }),
        z.object({ kind: z.literal('skip_list'), headers: z.array(proofLedgerSchema).optional(), ledger: proofLedgerSchema, state: z.object({ key: hexHash, blob: hexBytes, proof: z.unknown() }) }),
      ])
      .optional()
      .describe(
        "present when the ledger is proven by a later one (it was stored without validations of its own); `validation` then holds that later ledger's validations. header_chain: the headers from the proven ledger's child up to the validated ledger, each naming the one before as phash; skip_list: the validated ledger's header and its LedgerHashes entry listing the proven ledger's hash (with headers: the hash of the last of the headers from the proven ledger's child up, a ledger the list holds)",
      ),
  })
  .describe(
    "Proof of a transaction (XLS-41 XPOP, what Xahau's Import reads; with ledger_proof an extension it does not): verifies offline with the publisher's key, e.g. ledger-node verify-proof FILE -validator_list_keys KEY",
  );

/** libs/proof's state proof document: XLS-41's `ledger` and `validation` with the `state` extension. */
export const stateProofSchema = z
  .object({
    ledger: proofLedgerSchema.describe('the header fields of the ledger, from which its hash is recomputed'),
    state: z
      .array(z.object({ key: hexHash.describe('the ledger entry index'), blob: hexBytes.describe('the serialized ledger entry, hex'), proof: proofPathSchema.describe("the inner nodes from the entry's leaf up to acroot") }))
      .describe('the AccountRoot, then each trust line asked for, in that order'),
    validation: proofValidationSchema,
  })
  .describe('A proof document (XLS-41 with the state extension): check it with `ledger-node verify-proof FILE` against the publisher key, trusting nothing else.');
