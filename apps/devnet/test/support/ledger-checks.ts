/** Independent readers of rippled's binary forms, so tests do not check the devnet with its own code. */

export interface HeaderFields {
  ledger_index: number;
  total_coins: string;
  parent_hash: string;
  transaction_hash: string;
  account_hash: string;
  parent_close_time: number;
  close_time: number;
  close_time_resolution: number;
  close_flags: number;
}

/** rippled addRaw(LedgerInfo): u32 seq, u64 drops, 3 × 32-byte hashes, u32, u32, u8, u8. */
export function parseLedgerHeader(hex: string): HeaderFields {
  const bytes = Buffer.from(hex, 'hex');
  if (bytes.length !== 118) throw new Error(`a ledger header is 118 bytes, got ${bytes.length}`);
  const hashAt = (offset: number) => bytes.subarray(offset, offset + 32).toString('hex').toUpperCase();
  return {
    ledger_index: bytes.readUInt32BE(0),
    total_coins: bytes.readBigUInt64BE(4).toString(),
    parent_hash: hashAt(12),
    transaction_hash: hashAt(44),
    account_hash: hashAt(76),
    parent_close_time: bytes.readUInt32BE(108),
    close_time: bytes.readUInt32BE(112),
    close_time_resolution: bytes.readUInt8(116),
    close_flags: bytes.readUInt8(117),
  };
}

/** The header fields of a JSON `ledger` object, typed like parseLedgerHeader's result. */
export function headerFieldsOfJson(ledger: Record<string, any>): HeaderFields {
  return {
    ledger_index: Number(ledger.ledger_index),
    total_coins: String(ledger.total_coins),
    parent_hash: ledger.parent_hash,
    transaction_hash: ledger.transaction_hash,
    account_hash: ledger.account_hash,
    parent_close_time: ledger.parent_close_time,
    close_time: ledger.close_time,
    close_time_resolution: ledger.close_time_resolution,
    close_flags: ledger.close_flags,
  };
}

/** A JSON object without the response-only keys rippled adds (lowercase, never serialized). */
export function serializedFields(json: Record<string, any>): Record<string, any> {
  return Object.fromEntries(Object.entries(json).filter(([key]) => /^[A-Z]/.test(key)));
}
