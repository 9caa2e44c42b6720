import { devnetNetworkKeys, encodeNodePublicKey, getProfile, readManifest, REVOKED_SEQUENCE } from '@ledger-node/chain';
import { createLogger } from '@ledger-node/telemetry';
import { afterAll, describe, expect, it } from 'vitest';
import { createDevnetChain } from '../../engine';
import { DevnetNetwork } from '../../network/network';
import { LiveLedgerSource } from '../live-source';
import { answer } from '../server';
import { Subscriber } from '../subscriptions';

type Json = Record<string, any>;

const profile = getProfile('xrpl');
const logger = createLogger('devnet-test', 'silent');
const network = new DevnetNetwork(profile, devnetNetworkKeys());
const source = new LiveLedgerSource(createDevnetChain(profile, { negativeUnlVoter: network }), { closeMs: 60_000, logger });
const subscriber = new Subscriber(source, network, () => {});
let id = 0;
const call = (request: Json): Json => answer(JSON.stringify({ id: ++id, ...request }), { source, network, subscriber, startedAtMs: Date.now(), logger });

afterAll(() => source.stop());

const nodeKey = (hex: string) => encodeNodePublicKey(hex, profile);

describe('manifest', () => {
  it("answers a validator's master key with its manifest and details, as rippled's doManifest", () => {
    const validator = network.validators[0]!;
    const requested = nodeKey(validator.master.publicKey);
    const response = call({ command: 'manifest', public_key: requested });
    expect(response).toMatchObject({ status: 'success', type: 'response' });
    expect(response.result).toEqual({
      requested,
      manifest: Buffer.from(validator.manifest, 'hex').toString('base64'),
      details: { master_key: requested, ephemeral_key: nodeKey(validator.signing!.publicKey), seq: 1 },
    });
  });

  it('answers the current signing key, and 66 hex digits, with the same manifest', () => {
    const validator = network.validators[1]!;
    const bySigning = call({ command: 'manifest', public_key: nodeKey(validator.signing!.publicKey) }).result;
    const byHex = call({ command: 'manifest', public_key: validator.master.publicKey }).result;
    expect(bySigning.details.master_key).toBe(nodeKey(validator.master.publicKey));
    expect(byHex.manifest).toBe(bySigning.manifest);
  });

  it('answers the new manifest after a rotation, and an unknown key (the rotated-out one) with requested alone', () => {
    const old = nodeKey(network.validators[2]!.signing!.publicKey);
    expect(call({ command: 'devnet_validator', validator: 2, action: 'rotate' }).result.validator).toMatchObject({ index: 2, manifest_sequence: 2 });
    const rotated = call({ command: 'manifest', public_key: nodeKey(network.validators[2]!.master.publicKey) }).result;
    expect(rotated.details).toMatchObject({ seq: 2, ephemeral_key: nodeKey(network.validators[2]!.signing!.publicKey) });
    expect(readManifest(rotated.manifest).sequence).toBe(2);
    expect(call({ command: 'manifest', public_key: old }).result).toEqual({ requested: old });
  });

  it('answers a revoked master key with its revocation, naming no ephemeral key', () => {
    call({ command: 'devnet_validator', validator: 3, action: 'revoke' });
    const requested = nodeKey(network.validators[3]!.master.publicKey);
    const result = call({ command: 'manifest', public_key: requested }).result;
    expect(result.details).toEqual({ master_key: requested, seq: REVOKED_SEQUENCE });
    expect(readManifest(result.manifest).revoked).toBe(true);
  });

  it('refuses a missing or malformed key with invalidParams', () => {
    expect(call({ command: 'manifest' })).toMatchObject({ status: 'error', error: 'invalidParams', error_message: "Missing field 'public_key'." });
    expect(call({ command: 'manifest', public_key: 'nNotAKey' })).toMatchObject({ status: 'error', error: 'invalidParams', error_code: 31, requested: 'nNotAKey' });
    expect(call({ command: 'manifest', public_key: 7 })).toMatchObject({ status: 'error', error: 'invalidParams' });
  });
});

describe('devnet controls', () => {
  it('describes the network: publisher, list, quorum and each validator', () => {
    const described = call({ command: 'devnet_network' }).result;
    expect(described).toMatchObject({ publisher: network.publisherKey, list: { sequence: 1, version: 1 }, quorum: 4, negative_unl: { disabled: [] } });
    expect(described.validators).toHaveLength(5);
    expect(described.validators[3]).toMatchObject({ index: 3, revoked: true, manifest_sequence: REVOKED_SEQUENCE, negative_unl: false });
    expect(described.validators[3].signing_key).toBeUndefined();
    expect(described.validators[0]).toEqual({
      index: 0,
      master_key: network.validators[0]!.master.publicKey.toUpperCase(),
      master_key_n: nodeKey(network.validators[0]!.master.publicKey),
      signing_key: network.validators[0]!.signing!.publicKey.toUpperCase(),
      signing_key_n: nodeKey(network.validators[0]!.signing!.publicKey),
      manifest_sequence: 1,
      online: true,
      revoked: false,
      negative_unl: false,
    });
  });

  it('states the quorum in server_info', () => {
    // 4 trusted after the revocation: max(ceil(3.2), ceil(2.4)).
    expect(call({ command: 'server_info' }).result.info.validation_quorum).toBe(4);
  });

  it('publishes a list and answers it with the document', () => {
    const published = call({ command: 'devnet_publish', version: 2, pending: { effective: 600 } }).result;
    expect(published.list).toMatchObject({ sequence: 2, version: 2, pending: { sequence: 3 } });
    expect(published.document).toEqual(network.document);
    expect(published.document.blobs_v2).toHaveLength(2);
  });

  it('refuses bad parameters with invalidParams and keeps serving', () => {
    const refused: Json[] = [
      { command: 'devnet_validator' },
      { command: 'devnet_validator', validator: 0 },
      { command: 'devnet_validator', validator: 0, action: 'explode' },
      { command: 'devnet_validator', validator: -1, action: 'rotate' },
      { command: 'devnet_validator', validator: 99, action: 'rotate' },
      { command: 'devnet_validator', validator: '0', action: 'rotate' },
      { command: 'devnet_validator', validator: 1.5, action: 'offline' },
      { command: 'devnet_validator', validator: 3, action: 'online' },
      { command: 'devnet_publish', version: 3 },
      { command: 'devnet_publish', sequence: 'next' },
      { command: 'devnet_publish', sequence: 1e12 },
      { command: 'devnet_publish', expiration: 1e300 },
      { command: 'devnet_publish', validators: 'all' },
      { command: 'devnet_publish', validators: [0, 'x'] },
      { command: 'devnet_publish', pending: { effective: 10 } },
      { command: 'devnet_publish', version: 2, pending: [] },
      { command: 'devnet_publish', version: 2, pending: {} },
      { command: 'devnet_publish', version: 2, pending: { effective: 10, expiration: 5 } },
    ];
    for (const request of refused) {
      expect(call(request), JSON.stringify(request)).toMatchObject({ status: 'error', error: 'invalidParams', error_code: 31 });
    }
    expect(call({ command: 'devnet_network' }).result.list.sequence).toBe(2);
  });
});
