/**
 * Single-signature checks on the bytes that were submitted. The signing data is 'STX\0' followed
 * by the blob's signing fields exactly as serialized (rippled `STTx::getSigningData` over the
 * deserialized object), so amounts that ripple-binary-codec refuses to encode from JSON — a
 * negative native amount — still verify and reach the rules that reject them.
 */
import { HashPrefix } from '@ledger-node/chain';
import type { XrplDefinitionsBase } from 'ripple-binary-codec';
import { BinaryParser } from 'ripple-binary-codec/dist/serdes/binary-parser';
import { BinarySerializer, BytesList } from 'ripple-binary-codec/dist/serdes/binary-serializer';

/** Uppercase hex of the bytes a single signer signs; throws when the blob does not parse. */
export function signingDataOf(txBlobHex: string, definitions: XrplDefinitionsBase): string {
  const parser = new BinaryParser(txBlobHex, definitions);
  const signingFields = new BytesList();
  const serializer = new BinarySerializer(signingFields);
  signingFields.put(HashPrefix.transactionSig);
  while (!parser.end()) {
    const field = parser.readField();
    const value = parser.readFieldValue(field);
    if (field.isSigningField) serializer.writeFieldAndValue(field, value);
  }
  return Buffer.from(signingFields.toBytes()).toString('hex').toUpperCase();
}
