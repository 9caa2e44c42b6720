/**
 * The envelopes of rippled WebSocket messages, and the stream messages this node reads. An
 * upstream is not trusted to send well-formed JSON: a message that does not match is reported
 * (ConnectionEvents.onMalformed), never acted on.
 */
import { z } from 'zod';
import { hash256, hex, ledgerIndex } from './methods/fields';

/** Any message: an answer to a request (by `id`) or a stream message (by `type`). */
export const incomingMessage = z.looseObject({
  id: z.union([z.number(), z.string()]).optional(),
  type: z.string().optional(),
  status: z.string().optional(),
});

/** rippled `status: "error"`: `error` is the token (e.g. `lgrNotFound`); some errors explain in `error_exception` instead of `error_message`. */
export const errorAnswer = z.looseObject({
  status: z.literal('error'),
  error: z.string(),
  error_message: z.string().optional(),
  error_exception: z.string().optional(),
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
  /** The validator's master key (`n…`), when it signs with another key its manifest names. */
  master_key: z.string().max(128).optional(),
});
export type ValidationReceivedMessage = z.infer<typeof validationReceivedMessage>;

/** A stream message as it arrived: any JSON object with a `type` other than `response`. */
export type StreamMessage = z.infer<typeof incomingMessage>;
