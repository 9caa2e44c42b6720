/**
 * Published validator lists (rippled ValidatorList::verify, ValidatorSite): the JSON document a
 * publisher serves at its site, naming the validators the network should trust.
 *
 * - `public_key`: the publisher's master key; `manifest`: its manifest (base64), naming the key
 *   that signs the blobs.
 * - version 1: `blob` (base64 of a JSON object) and `signature` (hex, the blob's bytes signed by
 *   the publisher's signing key);
 * - version 2: `blobs_v2`, 1 to 5 entries of `{blob, signature, manifest?}` (a list to come may be
 *   published beside the current one, each blob optionally signed under a manifest of its own).
 *
 * A blob holds `sequence`, `expiration` and optionally `effective` (seconds since the XRP Ledger
 * epoch), and `validators`: `{validation_public_key, manifest}` of each listed master key.
 *
 * This module checks what a document says by itself; what it means next to the lists already
 * held (sequence, effective, expiration) is validator-trust.ts's.
 */
import type { ValidatorListDocument } from '@ledger-node/contracts';
import { XRPL_ALPHABET } from '../base58';
import { createChainKeys, isPublicKeyHex } from '../keys';
import { manifestIdentity, readManifest, type KeyPair, type Manifest } from './manifest';

const keys = createChainKeys(XRPL_ALPHABET);
/** rippled maxSupportedBlobs. */
const MAX_BLOBS = 5;
/** rippled reads sequence, expiration and effective as JSON integers (Json::Value::isInt). */
const MAX_JSON_INT = 2_147_483_647;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const HEX = /^(?:[0-9A-Fa-f]{2})+$/;

export interface ListedValidator {
  /** Master public key, uppercase hex. */
  masterKey: string;
  /** Its manifest as the list carries it (base64), when it does. */
  manifest?: string;
}

export interface ListBlob {
  sequence: number;
  /** Seconds since the XRP Ledger epoch; 0 when the blob names none (in force at once). */
  effective: number;
  expiration: number;
  validators: ListedValidator[];
  /** The manifest the blob is signed under (the document's, or a v2 blob's own). */
  manifest: Manifest;
}

/** A blob refused on its own (another blob of a v2 document may still be good). */
export interface RefusedBlob {
  position: number;
  reason: string;
}

export interface PublishedList {
  version: 1 | 2;
  /** The publisher's master key, uppercase hex. */
  publisherKey: string;
  publisherManifest: Manifest;
  blobs: ListBlob[];
  refused: RefusedBlob[];
}

/** rippled ListDisposition words, for a whole document that cannot be used. */
export type ListRefusal = 'unsupported_version' | 'untrusted' | 'invalid';

export class InvalidList extends Error {
  constructor(
    readonly disposition: ListRefusal,
    message: string,
  ) {
    super(message);
    this.name = 'InvalidList';
  }
}

interface RawBlob {
  blob: string;
  signature: string;
  manifest?: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function jsonInt(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= MAX_JSON_INT;
}

/** The signed blobs of a document, in rippled's shape rules per version (ValidatorList::parseBlobs). */
function rawBlobs(document: Record<string, unknown>, version: 1 | 2): RawBlob[] {
  if (version === 1) {
    if (typeof document.blob !== 'string' || typeof document.signature !== 'string' || 'blobs_v2' in document) {
      throw new InvalidList('invalid', 'a version 1 list needs "blob" and "signature" and no "blobs_v2"');
    }
    return [{ blob: document.blob, signature: document.signature }];
  }
  const entries = document.blobs_v2;
  if (!Array.isArray(entries) || entries.length === 0 || entries.length > MAX_BLOBS || 'blob' in document || 'signature' in document) {
    throw new InvalidList('invalid', `a version 2 list needs 1 to ${MAX_BLOBS} "blobs_v2" entries and no top-level "blob" or "signature"`);
  }
  return entries.map((entry, position) => {
    if (!isRecord(entry) || typeof entry.blob !== 'string' || typeof entry.signature !== 'string' || (entry.manifest !== undefined && typeof entry.manifest !== 'string')) {
      throw new InvalidList('invalid', `blobs_v2 entry ${position} needs string "blob" and "signature" (and "manifest", when given)`);
    }
    return { blob: entry.blob, signature: entry.signature, ...(entry.manifest === undefined ? {} : { manifest: entry.manifest }) };
  });
}

/** A blob's content, once its signature by the manifest's signing key checks out. */
function readBlob(raw: RawBlob, manifest: Manifest): ListBlob {
  if (manifest.signingKey === undefined) throw new Error('its manifest revokes the publisher key');
  if (!BASE64.test(raw.blob)) throw new Error('"blob" is not base64');
  if (!HEX.test(raw.signature)) throw new Error('"signature" is not hex');
  const data = Buffer.from(raw.blob, 'base64');
  if (!keys.verify(data.toString('hex'), raw.signature, manifest.signingKey)) throw new Error(`its signature is not the publisher's (signing key ${manifest.signingKey})`);
  let content: unknown;
  try {
    content = JSON.parse(data.toString('utf8'));
  } catch {
    throw new Error('the signed blob is not JSON');
  }
  if (!isRecord(content)) throw new Error('the signed blob is not a JSON object');
  const { sequence, expiration, effective, validators } = content;
  if (!jsonInt(sequence) || sequence === 0) throw new Error('"sequence" must be an integer from 1 to 2147483647');
  if (!jsonInt(expiration)) throw new Error('"expiration" must be an integer (seconds since the XRP Ledger epoch)');
  if (effective !== undefined && !jsonInt(effective)) throw new Error('"effective" must be an integer (seconds since the XRP Ledger epoch)');
  if (!Array.isArray(validators)) throw new Error('"validators" must be an array');
  if (expiration <= (effective ?? 0)) throw new Error(`it expires (${expiration}) before it takes effect (${effective ?? 0})`);
  const listed: ListedValidator[] = [];
  const seen = new Set<string>();
  for (const [index, entry] of validators.entries()) {
    const key = isRecord(entry) && typeof entry.validation_public_key === 'string' ? entry.validation_public_key.toUpperCase() : undefined;
    if (key === undefined || !isPublicKeyHex(key)) throw new Error(`validator ${index} has no valid "validation_public_key"`);
    if (seen.has(key)) continue;
    seen.add(key);
    const validatorManifest = (entry as Record<string, unknown>).manifest;
    listed.push({ masterKey: key, ...(typeof validatorManifest === 'string' ? { manifest: validatorManifest } : {}) });
  }
  return { sequence, effective: effective ?? 0, expiration, validators: listed, manifest };
}

/**
 * Reads and verifies a published document against the trusted publisher keys: the publisher's
 * manifest (master key trusted, both signatures, not revoked), then each blob's signature and
 * content. InvalidList when the document as a whole cannot be used (no good blob among them
 * included); blobs refused on their own are listed in `refused`.
 */
export function readPublishedList(document: unknown, trustedPublishers: ReadonlySet<string>): PublishedList {
  if (!isRecord(document)) throw new InvalidList('invalid', 'a validator list is a JSON object');
  const version = document.version;
  if (version !== 1 && version !== 2) throw new InvalidList('unsupported_version', `list version ${JSON.stringify(version)} is not supported (1 or 2)`);
  if (typeof document.manifest !== 'string') throw new InvalidList('invalid', 'the list has no publisher "manifest"');
  let publisherManifest: Manifest;
  try {
    publisherManifest = readManifest(document.manifest);
  } catch (error) {
    throw new InvalidList('untrusted', `the publisher manifest: ${(error as Error).message}`);
  }
  const publisherKey = publisherManifest.masterKey;
  if (!trustedPublishers.has(publisherKey)) throw new InvalidList('untrusted', `publisher ${publisherKey} is not a trusted -validator_list_keys key`);
  if (typeof document.public_key === 'string' && document.public_key.toUpperCase() !== publisherKey) {
    throw new InvalidList('invalid', `"public_key" ${document.public_key} is not the master key of the list's manifest (${publisherKey})`);
  }
  if (publisherManifest.revoked) throw new InvalidList('untrusted', `publisher ${publisherKey} revoked its key`);
  const blobs: ListBlob[] = [];
  const refused: RefusedBlob[] = [];
  for (const [position, raw] of rawBlobs(document, version).entries()) {
    try {
      let manifest = publisherManifest;
      if (raw.manifest !== undefined) {
        manifest = readManifest(raw.manifest);
        if (manifest.masterKey !== publisherKey) throw new Error(`its manifest is of ${manifest.masterKey}, not the publisher`);
      }
      blobs.push(readBlob(raw, manifest));
    } catch (error) {
      refused.push({ position, reason: `blob ${position}: ${(error as Error).message}` });
    }
  }
  if (blobs.length === 0) throw new InvalidList('invalid', refused.map((entry) => entry.reason).join('; '));
  return { version, publisherKey, publisherManifest, blobs, refused };
}

export interface BlobToSign {
  sequence: number;
  effective?: number;
  expiration: number;
  validators: ListedValidator[];
}

/**
 * A list document signed by a publisher (as its tooling makes them): version 1 with one blob, or
 * version 2 with each blob given. Used by the devnet's publisher site and the tests.
 */
export function signPublishedList(options: { manifest: string; signing: KeyPair; publisherKey: string; blobs: BlobToSign[]; version: 1 | 2 }): Record<string, unknown> {
  const signed = options.blobs.map((blob) => {
    const content = {
      sequence: blob.sequence,
      ...(blob.effective === undefined ? {} : { effective: blob.effective }),
      expiration: blob.expiration,
      validators: blob.validators.map((validator) => ({ validation_public_key: validator.masterKey, ...(validator.manifest === undefined ? {} : { manifest: validator.manifest }) })),
    };
    const data = Buffer.from(JSON.stringify(content), 'utf8');
    return { blob: data.toString('base64'), signature: keys.sign(data.toString('hex'), options.signing.privateKey) };
  });
  const manifest = Buffer.from(options.manifest, 'hex').toString('base64');
  if (options.version === 1) {
    if (signed.length !== 1) throw new Error('a version 1 list holds one blob');
    return { public_key: options.publisherKey.toUpperCase(), manifest, blob: signed[0]!.blob, signature: signed[0]!.signature, version: 1 };
  }
  return { public_key: options.publisherKey.toUpperCase(), manifest, blobs_v2: signed, version: 2 };
}

/** Of a publisher's blobs, the one in force at `time` (effective ≤ time < expiration) with the highest sequence; undefined when none is. */
export function inForceAt<T extends { sequence: number; effective?: number; expiration: number }>(blobs: readonly T[], time: number): T | undefined {
  return blobs.filter((blob) => (blob.effective ?? 0) <= time && time < blob.expiration).sort((a, b) => b.sequence - a.sequence)[0];
}

/**
 * A verified document of `publisherKey` as the store keeps it (ledgerstore.proto
 * ValidatorListDocument): its keys, blobs, signatures and manifests as bytes, with the sequence of
 * the list in force.
 */
export function listDocumentParts(document: unknown, publisherKey: string, sequence: number): ValidatorListDocument {
  if (!isRecord(document) || (document.version !== 1 && document.version !== 2) || typeof document.manifest !== 'string') {
    throw new InvalidList('invalid', 'a validator list is a JSON object with a version (1 or 2) and its publisher "manifest"');
  }
  return {
    publicKey: Buffer.from(publisherKey, 'hex'),
    manifest: Buffer.from(document.manifest, 'base64'),
    version: document.version,
    blobs: rawBlobs(document, document.version).map((raw) => ({
      blob: Buffer.from(raw.blob, 'base64'),
      signature: Buffer.from(raw.signature, 'hex'),
      ...(raw.manifest === undefined ? {} : { manifest: Buffer.from(raw.manifest, 'base64') }),
    })),
    sequence,
  };
}

/** The document a publisher serves, from its parts as the store keeps them (listDocumentParts); readPublishedList reads it. */
export function listDocumentOf(parts: ValidatorListDocument): Record<string, unknown> {
  const blobs = parts.blobs.map((part) => ({
    blob: part.blob.toString('base64'),
    signature: part.signature.toString('hex').toUpperCase(),
    ...(part.manifest === undefined ? {} : { manifest: part.manifest.toString('base64') }),
  }));
  const document = { public_key: parts.publicKey.toString('hex').toUpperCase(), manifest: parts.manifest.toString('base64'), version: parts.version };
  return parts.version === 1 && blobs.length === 1 ? { ...document, blob: blobs[0]!.blob, signature: blobs[0]!.signature } : { ...document, blobs_v2: blobs };
}

/**
 * The sequence of each blob of a document as the store keeps it (listDocumentParts), its shape
 * checked and its signatures not (a document verified when it was taken): InvalidList when it is
 * not a list of the publisher it names.
 */
export function listSequences(parts: ValidatorListDocument): number[] {
  const publisherKey = parts.publicKey.toString('hex').toUpperCase();
  let publisher: string;
  try {
    publisher = manifestIdentity(parts.manifest).masterKey;
  } catch (error) {
    throw new InvalidList('invalid', `the publisher manifest: ${(error as Error).message}`);
  }
  if (publisher !== publisherKey) throw new InvalidList('invalid', `its manifest is of ${publisher}, not of its public_key ${publisherKey}`);
  if (parts.version !== 1 && parts.version !== 2) throw new InvalidList('unsupported_version', `list version ${parts.version} is not supported (1 or 2)`);
  const most = parts.version === 1 ? 1 : MAX_BLOBS;
  if (parts.blobs.length === 0 || parts.blobs.length > most) throw new InvalidList('invalid', `a version ${parts.version} list holds 1 to ${most} blobs, not ${parts.blobs.length}`);
  return parts.blobs.map((part, position) => {
    let content: unknown;
    try {
      content = JSON.parse(part.blob.toString('utf8'));
    } catch {
      throw new InvalidList('invalid', `blob ${position} is not JSON`);
    }
    const sequence = isRecord(content) ? content.sequence : undefined;
    if (!jsonInt(sequence) || sequence === 0) throw new InvalidList('invalid', `blob ${position} has no "sequence" from 1 to 2147483647`);
    if (part.signature.length === 0) throw new InvalidList('invalid', `blob ${position} has no signature`);
    return sequence;
  });
}
