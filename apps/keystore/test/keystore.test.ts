/**
 * The keystore as a real process (`ledger-node serve keystore`), asked over real gRPC. Signatures
 * are checked with the published ripple-binary-codec and ripple-keypairs, not with our own code.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decode, encodeForSigning } from 'ripple-binary-codec';
import * as keypairs from 'ripple-keypairs';
import { getProfile } from '@ledger-node/chain';
import { KeyType, KeystoreServiceService, type LocalAccount } from '@ledger-node/contracts';
import { isLedgerNodeError, type LedgerNodeError } from '@ledger-node/errors';
import { createGrpcClient, useTlsIdentity } from '@ledger-node/grpc';
import { cliEntry, freePort, serviceCertificate, startProcess, stopAll, tempDir, testAuthority, tlsFlags, type CertificateFiles, type RunningProcess } from '@ledger-node/test-utils';
import { decryptKeyFile, readKeyFile } from '../src/keyfiles/keyFile';

const passphrase = 'keystore process test passphrase';
const xrpl = getProfile('xrpl');
type KeystoreClient = ReturnType<typeof createGrpcClient<typeof KeystoreServiceService>>;

/** Everything any process or call showed during the tests, scanned for secrets at the end. */
const transcript: string[] = [];
const processes: RunningProcess[] = [];
const clients: KeystoreClient[] = [];

function record(value: unknown): void {
  transcript.push(
    JSON.stringify(value, (_key, field: unknown) => {
      if (typeof field === 'bigint') return field.toString();
      if (field && typeof field === 'object' && (field as { type?: unknown }).type === 'Buffer') {
        const bytes = Buffer.from((field as { data: number[] }).data);
        return { hex: bytes.toString('hex'), base64: bytes.toString('base64') };
      }
      return field;
    }),
  );
}

async function failure(call: Promise<unknown>): Promise<LedgerNodeError> {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!isLedgerNodeError(error)) throw new Error(`expected a typed error, got ${String(error)}`);
  record({ message: error.message, kind: error.kind, details: error.details });
  return error;
}

async function serveKeystore(args: string[], env: NodeJS.ProcessEnv = {}): Promise<RunningProcess> {
  const keystore = startProcess([cliEntry(), 'serve', 'keystore', ...args], { env: { LEDGER_NODE_PASSWORD: '', ...env } });
  processes.push(keystore);
  await keystore.waitFor(/"msg":"serving"/);
  return keystore;
}

function connect(address: string, authToken?: string): KeystoreClient {
  const client = createGrpcClient(KeystoreServiceService, address, { serviceLabel: 'keystore', authToken, deadlineMs: 30_000 });
  clients.push(client);
  return client;
}

describe('keystore service (serve keystore)', () => {
  const { dir, remove } = tempDir('keystore-e2e-');
  const passwordFile = path.join(dir, 'password.txt');
  const address = `unix:${path.join(dir, 'run', 'keystore.sock')}`;
  let client: KeystoreClient;
  let alice: LocalAccount;
  let bob: LocalAccount;

  beforeAll(async () => {
    writeFileSync(passwordFile, `${passphrase}\n`, { mode: 0o600 });
    await serveKeystore(['-data_dir', dir, '-password_file', passwordFile]);
    client = connect(address);
    alice = (await client.generateAccount({ nickname: 'alice', keyType: KeyType.SECP256K1 })).account!;
    bob = (await client.generateAccount({ nickname: 'bob', keyType: KeyType.ED25519 })).account!;
    record([alice, bob]);
  });

  afterAll(async () => {
    for (const each of clients) each.close();
    for (const each of processes) transcript.push(each.output());
    await stopAll();
    remove();
  });

  it('generates accounts of the asked key type and lists them oldest first', async () => {
    expect(alice).toMatchObject({ nickname: 'alice', keyType: KeyType.SECP256K1 });
    expect(bob).toMatchObject({ nickname: 'bob', keyType: KeyType.ED25519 });
    expect(xrpl.codec.isValidAddress(alice.address) && alice.address.startsWith('r')).toBe(true);
    const listed = await client.listAccounts({});
    record(listed);
    expect(listed.accounts).toEqual([alice, bob]);
    expect(readdirSync(path.join(dir, 'keystore')).sort()).toEqual([`${alice.address}.json`, `${bob.address}.json`].sort());
  });

  it('refuses a duplicate nickname with ALREADY_EXISTS', async () => {
    const error = await failure(client.generateAccount({ nickname: 'alice', keyType: KeyType.SECP256K1 }));
    expect(error.kind).toBe('conflict');
    expect(error.message).toBe(`nickname "alice" is already used by account ${alice.address}`);
  });

  it('signs a Payment whose blob decodes with ripple-binary-codec and verifies with ripple-keypairs', async () => {
    const payment = { TransactionType: 'Payment', Destination: bob.address, Amount: '2500000', Fee: '12', Sequence: 7, LastLedgerSequence: 1234 };
    const signed = await client.signTransaction({ account: 'alice', txJson: JSON.stringify(payment) });
    record(signed);
    const decoded = decode(signed.signedBlob.toString('hex')) as Record<string, unknown>;
    const { TxnSignature, ...unsigned } = decoded;
    expect(unsigned).toEqual({ ...payment, Account: alice.address, SigningPubKey: expect.stringMatching(/^0[23][0-9A-F]{64}$/) });
    expect(keypairs.deriveAddress(unsigned.SigningPubKey as string)).toBe(alice.address);
    expect(keypairs.verify(encodeForSigning(unsigned), TxnSignature as string, unsigned.SigningPubKey as string)).toBe(true);
    // rippled: the transaction id is SHA-512Half('TXN\0' || signed blob).
    const txId = createHash('sha512').update(Buffer.from('TXN\0', 'ascii')).update(signed.signedBlob).digest().subarray(0, 32);
    expect(signed.hash.toString('hex')).toBe(txId.toString('hex'));
  });

  it.each([
    ['secp256k1', 'alice'],
    ['ed25519', 'bob'],
  ])('signs a message (%s) that verifies by the documented procedure', async (_type, nickname) => {
    const message = Buffer.from('I control this account: 2025-06-01');
    const signed = await client.signMessage({ account: nickname, message });
    record(signed);
    const expectedAddress = nickname === 'alice' ? alice.address : bob.address;
    // docs/api.md "Verifying a jt_sign signature": verify(hex(UTF-8(signMessagePrefix) || message), signature, publicKey).
    const signedBytes = Buffer.concat([Buffer.from('\x19XRP Ledger Signed Message:\n', 'utf8'), message]);
    const publicKey = signed.publicKey.toString('hex').toUpperCase();
    expect(signed.address).toBe(expectedAddress);
    expect(keypairs.deriveAddress(publicKey)).toBe(expectedAddress);
    expect(keypairs.verify(signedBytes.toString('hex'), signed.signature.toString('hex'), publicKey)).toBe(true);
    expect(keypairs.verify(message.toString('hex'), signed.signature.toString('hex'), publicKey)).toBe(false);
  });

  it.each([
    ['a transaction type off the allow-list', { TransactionType: 'SetRegularKey', RegularKey: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh', Fee: '12', Sequence: 1 }, 'TX_TYPE_NOT_ALLOWED'],
    ['a field off the allow-list', { TransactionType: 'Payment', Destination: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh', Amount: '1', Fee: '12', Sequence: 1, Paths: [] }, 'TX_FIELD_NOT_ALLOWED'],
    ['a fee above one native unit', { TransactionType: 'Payment', Destination: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh', Amount: '1', Fee: '1000001', Sequence: 1 }, 'TX_FEE_ABOVE_CAP'],
    ['another account', { TransactionType: 'Payment', Account: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh', Destination: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh', Amount: '1', Fee: '12', Sequence: 1 }, 'TX_ACCOUNT_MISMATCH'],
  ])('refuses %s with INVALID_ARGUMENT and a code', async (_case, fields, code) => {
    const error = await failure(client.signTransaction({ account: 'alice', txJson: JSON.stringify(fields) }));
    expect(error.kind).toBe('invalid_params');
    expect(error.details.data).toEqual({ code });
    expect(error.message).toMatch(/^transaction refused: /);
  });

  it('answers "no local account" for an unknown account', async () => {
    const error = await failure(client.signMessage({ account: 'carol', message: Buffer.from('hi') }));
    expect(error.kind).toBe('no_local_account');
    expect(error.message).toBe('no local account "carol"');
  });

  it('refuses to sign with a wrong passphrase, naming the key file, and keeps running', async () => {
    const otherAddress = `unix:${path.join(dir, 'run', 'keystore-wrong.sock')}`;
    await serveKeystore(['-data_dir', dir, '-keystore_addr', otherAddress], { LEDGER_NODE_PASSWORD: 'not the passphrase' });
    const wrong = connect(otherAddress);
    const file = path.join(dir, 'keystore', `${alice.address}.json`);
    const before = readFileSync(file);
    const error = await failure(wrong.signMessage({ account: 'alice', message: Buffer.from('hi') }));
    expect(error.kind).toBe('unavailable');
    expect(error.message).toBe(`key file keystore/${path.basename(file)} cannot be unlocked: wrong passphrase, or the file was modified`);
    expect(readFileSync(file)).toEqual(before);
    expect((await wrong.listAccounts({})).accounts).toHaveLength(2);
  });

  it('refuses a tampered key file, naming it, and still serves the other accounts', async () => {
    const file = path.join(dir, 'keystore', `${bob.address}.json`);
    const document = JSON.parse(readFileSync(file, 'utf8')) as { crypto: { ciphertext: string } };
    const { ciphertext } = document.crypto;
    document.crypto.ciphertext = (ciphertext[0] === 'f' ? 'e' : 'f') + ciphertext.slice(1);
    writeFileSync(file, JSON.stringify(document));
    const tampered = readFileSync(file);
    try {
      const error = await failure(client.signMessage({ account: 'bob', message: Buffer.from('hi') }));
      expect(error.kind).toBe('unavailable');
      expect(error.message).toBe(`key file keystore/${path.basename(file)} cannot be unlocked: wrong passphrase, or the file was modified`);
      expect(readFileSync(file)).toEqual(tampered);
    } finally {
      document.crypto.ciphertext = ciphertext;
      writeFileSync(file, `${JSON.stringify(document, null, 2)}\n`);
    }
    const signed = await client.signMessage({ account: 'alice', message: Buffer.from('still here') });
    expect(signed.address).toBe(alice.address);
  });

  describe('on TCP', () => {
    const token = 'a-long-random-keystore-token-0123456789';
    const tokenFile = path.join(dir, 'token.txt');

    it('refuses to start without mutual TLS', async () => {
      const port = await freePort();
      const keystore = startProcess([cliEntry(), 'serve', 'keystore', '-data_dir', dir, '-keystore_addr', `127.0.0.1:${port}`]);
      processes.push(keystore);
      expect(await keystore.exited).toBe(2);
      expect(keystore.output()).toContain(`ledger-node: refusing to listen on 127.0.0.1:${port}: gRPC over TCP needs mutual TLS: give -grpc_tls_cert, -grpc_tls_key and -grpc_tls_ca`);
    });

    it('over mutual TLS admits each method\'s callers with the token (listing: the facade and submission; jt_sign: the facade), and refuses another service, another CA and a wrong token', async () => {
      writeFileSync(tokenFile, `${token}\n`, { mode: 0o600 });
      const ca = testAuthority('deployment-ca');
      const foreign = testAuthority('foreign-ca');
      const tcpAddress = `127.0.0.1:${await freePort()}`;
      await serveKeystore(['-data_dir', dir, '-keystore_addr', tcpAddress, '-keystore_token_file', tokenFile, '-password_file', passwordFile, ...tlsFlags(serviceCertificate(ca, 'keystore', dir))]);
      const as = (files: CertificateFiles, authToken: string | undefined) => {
        useTlsIdentity({ cert: readFileSync(files.cert), key: readFileSync(files.key), ca: readFileSync(files.ca) });
        return connect(tcpAddress, authToken);
      };
      try {
        for (const service of ['facade', 'submission']) {
          const listed = await as(serviceCertificate(ca, service, dir), token).listAccounts({});
          expect(listed.accounts.map((account) => account.nickname)).toEqual(['alice', 'bob']);
        }
        const signed = await as(serviceCertificate(ca, 'facade', dir), token).signMessage({ account: 'alice', message: Buffer.from('over tls from the facade') });
        record(signed);
        expect(signed.address).toBe(alice.address);
        for (const service of ['submission', 'sync']) {
          const refused = await failure(as(serviceCertificate(ca, service, dir), token).signMessage({ account: 'alice', message: Buffer.from('x') }));
          expect([refused.kind, refused.message]).toEqual(['unauthorized', `KeystoreService.SignMessage admits facade only; the caller's certificate names ${service}`]);
        }
        const otherCa = await failure(as(serviceCertificate(foreign, 'facade', dir), token).signMessage({ account: 'alice', message: Buffer.from('x') }));
        expect(otherCa.kind).toBe('unavailable');
        for (const wrongToken of ['not-the-token-but-long-enough', undefined]) {
          const error = await failure(as(serviceCertificate(ca, 'facade', dir), wrongToken).signMessage({ account: 'alice', message: Buffer.from('x') }));
          expect(error.kind).toBe('unauthorized');
        }
      } finally {
        useTlsIdentity(undefined);
      }
    });
  });

  it('never shows a seed, private key or passphrase in any response, error or log line', async () => {
    for (const each of processes) transcript.push(each.output());
    const secrets = [passphrase, 'not the passphrase', 'a-long-random-keystore-token-0123456789'];
    for (const account of [alice, bob]) {
      const file = path.join(dir, 'keystore', `${account.address}.json`);
      const seed = await decryptKeyFile(file, readKeyFile(file), passphrase);
      const { privateKey } = keypairs.deriveKeypair(seed);
      // ripple-keypairs prefixes the 32-byte secret with 00 (secp256k1) or ED (ed25519).
      const secretBytes = Buffer.from(privateKey.slice(2), 'hex');
      secrets.push(seed, privateKey.slice(2).toUpperCase(), privateKey.slice(2).toLowerCase(), secretBytes.toString('base64'));
    }
    const everything = transcript.join('\n');
    expect(everything.length).toBeGreaterThan(1000);
    expect(everything).toContain(alice.address);
    for (const secret of secrets) expect(everything.includes(secret), `a secret of ${secret.length} characters was shown`).toBe(false);
  });
});
