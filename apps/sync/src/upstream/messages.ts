/**
 * The rippled WebSocket messages sync reads, validated before use: an upstream is not trusted to
 * send well-formed JSON, so a message that does not match is logged and counted, never acted on.
 */
import { z } from 'zod';

const hash256 = z.string().regex(/^[0-9A-Fa-f]{64}$/);
const hex = z.string().regex(/^(?:[0-9A-Fa-f]{2})*$/);
/** Older servers print ledger indexes as strings. */
const ledgerIndex = z.union([z.number().int().positive(), z.string().regex(/^\d+$/).transform(Number)]).pipe(z.number().int().positive().max(0xffffffff));

/** Any message: an answer to a request (by `id`) or a stream message (by `type`). */
export const incomingMessage = z.looseObject({
  id: z.union([z.number(), z.string()]).optional(),
  type: z.string().optional(),
  status: z.string().optional(),
});

export const errorAnswer = z.looseObject({
  status: z.literal('error'),
  error: z.string(),
  error_message: z.string().optional(),
});

export const successAnswer = z.looseObject({
  status: z.literal('success'),
  result: z.looseObject({}),
});

/** `ledgerClosed` on the `ledger` stream: a newly validated ledger. */
export const ledgerClosedMessage = z.looseObject({
  type: z.literal('ledgerClosed'),
  ledger_index: ledgerIndex,
  ledger_hash: hash256,
  validated_ledgers: z.string().optional(),
});
export type LedgerClosedMessage = z.infer<typeof ledgerClosedMessage>;

/** A validation from the `validations` stream; `data` is the serialized STValidation, which alone is trusted (once its signature checks). */
export const validationReceivedMessage = z.looseObject({
  type: z.literal('validationReceived'),
  data: hex.min(2).max(4096),
});
export type ValidationReceivedMessage = z.infer<typeof validationReceivedMessage>;

/** `subscribe` to `ledger`: the newest validated ledger, when the server has one. */
export const ledgerSubscribeResult = z.looseObject({
  ledger_index: ledgerIndex.optional(),
  ledger_hash: hash256.optional(),
  validated_ledgers: z.string().optional(),
});

/** `ledger` without transactions: the ledger's hash is all that is read (an endpoint's word on it). */
export const ledgerHeaderResult = z.looseObject({
  ledger_hash: hash256,
  validated: z.literal(true),
});

export const serverInfoResult = z.looseObject({
  info: z.looseObject({
    complete_ledgers: z.string(),
    validated_ledger: z.looseObject({ seq: ledgerIndex, hash: hash256 }).optional(),
  }),
});
export type ServerInfoResult = z.infer<typeof serverInfoResult>;

/** One transaction of a binary, expanded `ledger` answer: API v1 `meta`, API v2 `meta_blob` and `hash`. */
const binaryTransaction = z
  .looseObject({ tx_blob: hex, meta: hex.optional(), meta_blob: hex.optional(), hash: hash256.optional() })
  .refine((tx) => tx.meta !== undefined || tx.meta_blob !== undefined, 'a transaction without metadata');

/** `ledger` with `transactions`, `expand` and `binary`. */
export const binaryLedgerResult = z.looseObject({
  ledger: z.looseObject({
    ledger_data: hex,
    closed: z.boolean().optional(),
    transactions: z.array(binaryTransaction).default([]),
  }),
  ledger_hash: hash256,
  ledger_index: ledgerIndex,
  validated: z.boolean().optional(),
});
export type BinaryLedgerResult = z.infer<typeof binaryLedgerResult>;

/** `ledger_entry` with `binary`: one state object as the ledger holds it. */
export const binaryLedgerEntryResult = z.looseObject({
  index: hash256,
  node_binary: hex,
});
export type BinaryLedgerEntryResult = z.infer<typeof binaryLedgerEntryResult>;

/** `ledger_data` with `binary`: one page of the state objects of a ledger, ascending by key. */
export const binaryLedgerDataResult = z.looseObject({
  ledger_index: ledgerIndex,
  ledger_hash: hash256.optional(),
  state: z.array(z.looseObject({ data: hex, index: hash256 })),
  // rippled markers are object keys; they are passed back as given.
  marker: z.union([z.string(), z.number()]).optional(),
});
export type BinaryLedgerDataResult = z.infer<typeof binaryLedgerDataResult>;
