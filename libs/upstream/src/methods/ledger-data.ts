/** rippled `ledger_data`: one page of a ledger's state objects, ascending by key, from `marker` on. */
import { z } from 'zod';
import { hash256, hex, ledgerIndex, type CommonParams, type LedgerSelector } from './fields';

/** rippled markers are opaque: passed back as given. */
const marker = z.union([z.string(), z.number()]);

export interface LedgerDataParams extends CommonParams, LedgerSelector {
  binary?: boolean;
  limit?: number;
  marker?: string | number;
  /** Only objects of this type (e.g. `account`). */
  type?: string;
}

/** `ledger_data` with `binary`: each object as the ledger holds it. */
export const binaryLedgerDataResult = z.looseObject({
  ledger_index: ledgerIndex,
  ledger_hash: hash256.optional(),
  state: z.array(z.looseObject({ data: hex, index: hash256 })),
  marker: marker.optional(),
});
export type BinaryLedgerDataResult = z.infer<typeof binaryLedgerDataResult>;

export const jsonLedgerDataResult = z.looseObject({
  ledger_index: ledgerIndex,
  ledger_hash: hash256.optional(),
  state: z.array(z.looseObject({ LedgerEntryType: z.string(), index: hash256 })),
  marker: marker.optional(),
});
export type JsonLedgerDataResult = z.infer<typeof jsonLedgerDataResult>;

export type LedgerDataResult<P> = P extends { binary: true } ? BinaryLedgerDataResult : JsonLedgerDataResult;

export function ledgerDataResultSchema(params: LedgerDataParams) {
  return params.binary ? binaryLedgerDataResult : jsonLedgerDataResult;
}
