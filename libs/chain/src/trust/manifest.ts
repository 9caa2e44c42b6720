/**
 * Manifests (rippled Manifest.cpp): a validator's or a list publisher's long-lived master key naming
 * the ephemeral signing key it signs with now. A manifest is a serialized object holding PublicKey
 * (the master key), SigningPubKey, Sequence, optionally Domain and Version (0), signed twice over
 * 'MAN\0' + the object without its two signature fields: Signature by the signing key and
 * MasterSignature by the master key. A higher Sequence replaces a lower one; Sequence 0xFFFFFFFF
 * revokes the master key for good (no signing key, no Signature).
 *
 * The format is the same on every chain of the family, so it is read with the XRP Ledger's field
 * definitions whatever the profile.
 */
import { decode as decodeBinary, encode as encodeBinary } from 'ripple-binary-codec';
import { XRPL_ALPHABET } from '../base58';
import { createChainKeys, isPublicKeyHex } from '../keys';

/** HashPrefix::manifest, 'MAN\0'. */
const MANIFEST_PREFIX = '4D414E00';
/** The sequence of a revocation: no later manifest can supersede it. */
export const REVOKED_SEQUENCE = 0xffffffff;
/** rippled reads at most this many bytes as one manifest (a revocation is ~110, a full one ~250). */
const MAX_MANIFEST_BYTES = 1024;
const ALLOWED_FIELDS = new Set(['PublicKey', 'MasterSignature', 'Sequence', 'Version', 'Domain', 'SigningPubKey', 'Signature']);
/** rippled isProperlyFormedTomlDomain: a host name of 4 to 128 characters with a dot. */
const DOMAIN = /^(?=.{4,128}$)(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z][a-z0-9-]*[a-z0-9]$/i;

const keys = createChainKeys(XRPL_ALPHABET);

export interface Manifest {
  /** The master public key, 33 bytes as uppercase hex. */
  masterKey: string;
  /** The current signing key (absent in a revocation), uppercase hex. */
  signingKey?: string;
  sequence: number;
  domain?: string;
  revoked: boolean;
  /** The manifest as received, uppercase hex: what is kept and handed on. */
  serialized: string;
}

/** A manifest that is not well formed or whose signatures do not check out. */
export class InvalidManifest extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidManifest';
  }
}

/** Bytes of a manifest given as base64 (how lists and the `manifest` command carry it), hex, or bytes. */
function manifestBytes(input: string | Uint8Array): Buffer {
  if (typeof input !== 'string') return Buffer.from(input);
  if (/^[0-9A-Fa-f]+$/.test(input) && input.length % 2 === 0) return Buffer.from(input, 'hex');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(input)) throw new InvalidManifest('a manifest must be base64 or hex');
  return Buffer.from(input, 'base64');
}

function signingData(fields: Record<string, unknown>): string {
  const { Signature: _signature, MasterSignature: _masterSignature, ...signed } = fields;
  return MANIFEST_PREFIX + encodeBinary(signed as never);
}

/**
 * The manifest, once its form (rippled's manifest template, canonical encoding) and both its
 * signatures check out; InvalidManifest saying what is wrong otherwise.
 */
export function readManifest(input: string | Uint8Array): Manifest {
  const bytes = manifestBytes(input);
  if (bytes.length === 0 || bytes.length > MAX_MANIFEST_BYTES) throw new InvalidManifest(`a manifest of ${bytes.length} bytes is not one`);
  const hex = bytes.toString('hex').toUpperCase();
  let fields: Record<string, unknown>;
  try {
    fields = decodeBinary(hex) as Record<string, unknown>;
  } catch (error) {
    throw new InvalidManifest(`the manifest does not decode: ${(error as Error).message}`);
  }
  const unknown = Object.keys(fields).filter((name) => !ALLOWED_FIELDS.has(name));
  if (unknown.length > 0) throw new InvalidManifest(`the manifest holds fields a manifest cannot: ${unknown.join(', ')}`);
  // Signatures are checked over the re-encoded fields: bytes in any other order would be a second form of one manifest.
  if (encodeBinary(fields as never) !== hex) throw new InvalidManifest('the manifest is not in canonical form');
  const { PublicKey: masterKey, SigningPubKey: signingKey, Sequence: sequence, Version: version, Domain: domainHex, Signature: signature, MasterSignature: masterSignature } = fields;
  if (typeof masterKey !== 'string' || !isPublicKeyHex(masterKey)) throw new InvalidManifest('the manifest has no valid master public key');
  if (typeof sequence !== 'number') throw new InvalidManifest('the manifest has no sequence');
  if (typeof masterSignature !== 'string') throw new InvalidManifest('the manifest has no master signature');
  if (version !== undefined && version !== 0) throw new InvalidManifest(`manifest version ${String(version)} is not understood (only 0)`);
  let domain: string | undefined;
  if (domainHex !== undefined) {
    domain = Buffer.from(String(domainHex), 'hex').toString('latin1');
    if (!DOMAIN.test(domain)) throw new InvalidManifest('the manifest domain is not a domain name');
  }
  const revoked = sequence === REVOKED_SEQUENCE;
  const data = signingData(fields);
  if (revoked) {
    if (signingKey !== undefined || signature !== undefined) throw new InvalidManifest('a revocation names no signing key and carries no signature');
  } else {
    if (typeof signingKey !== 'string' || !isPublicKeyHex(signingKey)) throw new InvalidManifest('the manifest has no valid signing key');
    if (signingKey === masterKey) throw new InvalidManifest('the manifest signing key is its master key');
    if (typeof signature !== 'string' || !keys.verify(data, signature, signingKey)) throw new InvalidManifest('the manifest is not signed by its signing key');
  }
  if (!keys.verify(data, masterSignature, masterKey)) throw new InvalidManifest('the manifest is not signed by its master key');
  return {
    masterKey,
    ...(revoked ? {} : { signingKey: signingKey as string }),
    sequence,
    ...(domain === undefined ? {} : { domain }),
    revoked,
    serialized: hex,
  };
}

/** The identities of the manifests read lately, by their bytes: every followed ledger's evidence names the same few. */
const identities = new Map<string, { masterKey: string; sequence: number }>();
const KEPT_IDENTITIES = 1024;

/**
 * Whose manifest it is and its sequence, read without checking its signatures: for a manifest
 * already verified (readManifest) when it was taken, to key it by. InvalidManifest when it does not decode.
 */
export function manifestIdentity(bytes: Uint8Array): { masterKey: string; sequence: number } {
  const hex = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex').toUpperCase();
  const known = identities.get(hex);
  if (known) return { ...known };
  let fields: Record<string, unknown>;
  try {
    fields = decodeBinary(hex) as Record<string, unknown>;
  } catch (error) {
    throw new InvalidManifest(`the manifest does not decode: ${(error as Error).message}`);
  }
  const { PublicKey: masterKey, Sequence: sequence } = fields;
  if (typeof masterKey !== 'string' || !isPublicKeyHex(masterKey) || typeof sequence !== 'number') throw new InvalidManifest('the manifest has no master public key or sequence');
  if (identities.size >= KEPT_IDENTITIES) identities.clear();
  identities.set(hex, { masterKey, sequence });
  return { masterKey, sequence };
}

export interface KeyPair {
  publicKey: string;
  privateKey: string;
}

/**
 * A manifest signed with the master key pair (and the signing key pair unless it revokes), as hex:
 * what a validator or publisher makes with validator-keys-tool. Used by the devnet and the tests.
 */
export function signManifest(options: { master: KeyPair; signing?: KeyPair; sequence: number; domain?: string }): string {
  const revoked = options.sequence === REVOKED_SEQUENCE;
  if (!revoked && options.signing === undefined) throw new Error('a manifest that does not revoke needs a signing key');
  const fields: Record<string, unknown> = {
    PublicKey: options.master.publicKey.toUpperCase(),
    Sequence: options.sequence,
    ...(revoked ? {} : { SigningPubKey: options.signing!.publicKey.toUpperCase() }),
    ...(options.domain === undefined ? {} : { Domain: Buffer.from(options.domain, 'latin1').toString('hex').toUpperCase() }),
  };
  const data = signingData(fields);
  if (!revoked) fields.Signature = keys.sign(data, options.signing!.privateKey);
  fields.MasterSignature = keys.sign(data, options.master.privateKey);
  return encodeBinary(fields as never);
}

/** What a cache makes of a manifest it is offered (rippled ManifestDisposition). */
export type ManifestDisposition = 'accepted' | 'stale' | 'invalid' | 'badMasterKey' | 'badEphemeralKey';

/**
 * The newest manifest of each master key (rippled ManifestCache): which signing key speaks for
 * which master key now. A signing key maps to its master key only while it is that master key's
 * current one, so a validation signed with a rotated-out key counts for nobody.
 */
export class ManifestCache {
  private readonly byMaster = new Map<string, Manifest>();
  private readonly masterOfSigning = new Map<string, string>();

  /** Applies a verified manifest (readManifest): accepted when it is newer than the one held. */
  apply(manifest: Manifest): ManifestDisposition {
    const held = this.byMaster.get(manifest.masterKey);
    if (held && manifest.sequence <= held.sequence) return 'stale';
    // rippled: a master key may not be another's signing key, nor a signing key anyone's master or signing key.
    if (this.masterOfSigning.has(manifest.masterKey)) return 'badMasterKey';
    if (manifest.signingKey !== undefined) {
      const owner = this.masterOfSigning.get(manifest.signingKey);
      if ((owner !== undefined && owner !== manifest.masterKey) || this.byMaster.has(manifest.signingKey)) return 'badEphemeralKey';
    }
    if (held?.signingKey !== undefined) this.masterOfSigning.delete(held.signingKey);
    this.byMaster.set(manifest.masterKey, manifest);
    if (manifest.signingKey !== undefined) this.masterOfSigning.set(manifest.signingKey, manifest.masterKey);
    return 'accepted';
  }

  /** Reads, verifies and applies a manifest: 'invalid' when it does not verify. */
  applySerialized(input: string | Uint8Array): { disposition: ManifestDisposition; manifest?: Manifest; reason?: string } {
    let manifest: Manifest;
    try {
      manifest = readManifest(input);
    } catch (error) {
      return { disposition: 'invalid', reason: (error as Error).message };
    }
    return { disposition: this.apply(manifest), manifest };
  }

  /** The master key a signing key speaks for now, or the key itself (a validator without a manifest signs with its master key). */
  masterKeyOf(signingKey: string): string {
    return this.masterOfSigning.get(signingKey) ?? signingKey;
  }

  /** Whether the key is a master key this cache knows a signing key for (or a revocation). */
  knowsMaster(masterKey: string): boolean {
    return this.byMaster.has(masterKey);
  }

  revoked(masterKey: string): boolean {
    return this.byMaster.get(masterKey)?.revoked === true;
  }

  get(masterKey: string): Manifest | undefined {
    return this.byMaster.get(masterKey);
  }

  /** The current signing key of a master key: its manifest's, or the master key itself when none is known. */
  signingKeyOf(masterKey: string): string | undefined {
    const manifest = this.byMaster.get(masterKey);
    if (!manifest) return masterKey;
    return manifest.signingKey;
  }
}
