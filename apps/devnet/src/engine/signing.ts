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
  return signingFieldsWith(HashPrefix.transactionSig, txBlobHex, definitions);
}

/** What one multi-signer signs: 'SMT\0', the signing fields, then the signer's AccountID (rippled `buildMultiSigningData`). */
export function multiSigningDataOf(txBlobHex: string, definitions: XrplDefinitionsBase, signerAccountIdHex: string): string {
  return signingFieldsWith(HashPrefix.transactionMultiSig, txBlobHex, definitions) + signerAccountIdHex.toUpperCase();
}

function signingFieldsWith(prefix: Uint8Array, txBlobHex: string, definitions: XrplDefinitionsBase): string {
  const parser = new BinaryParser(txBlobHex, definitions);
  const signingFields = new BytesList();
  const serializer = new BinarySerializer(signingFields);
  signingFields.put(prefix);
  while (!parser.end()) {
    const field = parser.readField();
    const value = parser.readFieldValue(field);
    if (field.isSigningField) serializer.writeFieldAndValue(field, value);
  }
  return Buffer.from(signingFields.toBytes()).toString('hex').toUpperCase();
}
