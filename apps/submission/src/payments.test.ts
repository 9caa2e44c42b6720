import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { getProfile, ZERO_HASH, hashTransaction, SUBMIT_OUTCOMES } from '@ledger-node/chain';
import type { KeystoreServiceService, LedgerStoreServiceService } from '@ledger-node/contracts';
import type { Client } from '@ledger-node/grpc';
import { createLogger } from '@ledger-node/telemetry';
import { tempDir } from '@ledger-node/test-utils';
import { Payments } from './payments';
import { SubmissionBook } from './tracking/book';
import { Tracker } from './tracking/tracker';
import { UpstreamRequestError, type UpstreamClient } from '@ledger-node/upstream';

const profile = getProfile('xrpl');
const seed = profile.keys.generateSeed({ entropy: new Uint8Array(16).fill(7) });
const keypair = profile.keys.deriveKeypair(seed);
const account = profile.keys.deriveAddress(keypair.publicKey);

/** A payment signed here, as a client signs one for jt_sendRawTransaction. */
function signedBlob(sequence: number, lastLedgerSequence = 120): string {
  const tx = { TransactionType: 'Payment', Account: account, Destination: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh', Amount: '1000', Fee: '12', Sequence: sequence, LastLedgerSequence: lastLedgerSequence, SigningPubKey: keypair.publicKey };
  const signature = profile.keys.sign(profile.codec.encodeForSigning(tx), keypair.privateKey);
  return profile.codec.encode({ ...tx, TxnSignature: signature });
}

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));

/** Payments over a fake upstream answering `answers` in turn (a value, or an error to throw), and a real book. */
function payments(answers: (Record<string, unknown> | Error)[]) {
  const { dir, remove } = tempDir('payments-');
  const book = new SubmissionBook(path.join(dir, 'submissions.jsonl'));
  cleanups.push(() => book.close(), remove);
  const submitted: string[] = [];
  const upstream = {
    async request(command: string, params: Record<string, unknown>) {
      if (command === 'ledger_current') return { ledger_current_index: 100 };
      submitted.push(String(params.tx_blob));
      const answer = answers.shift();
      if (answer === undefined || answer instanceof Error) throw answer ?? new Error('no answer scripted');
      return answer;
    },
  } as unknown as UpstreamClient;
  const ledgerStore = { getStatus: async () => ({ highestLedgerIndex: 99 }) } as unknown as Client<typeof LedgerStoreServiceService>;
  const service = new Payments(profile, upstream, {} as Client<typeof KeystoreServiceService>, ledgerStore, book, createLogger('test', 'silent'));
  return { service, book, submitted, tracker: new Tracker(book, ledgerStore, createLogger('test', 'silent')) };
}

const answer = (engineResult: string) => ({ engine_result: engineResult, engine_result_message: `${engineResult} text` });

describe('what a send returns, by engine result (libs/chain outcomes.ts)', () => {
  it.each([
    ['tesSUCCESS', true, 'pending'],
    ['tecUNFUNDED_PAYMENT', true, 'pending'],
    ['terQUEUED', true, 'pending'],
    ['terNO_ACCOUNT', false, 'held'],
    ['terPRE_SEQ', false, 'held'],
    ['tefPAST_SEQ', false, 'rejected'],
    ['tefMAX_LEDGER', false, 'rejected'],
    ['telINSUF_FEE_P', false, 'rejected'],
    ['temREDUNDANT', false, 'rejected'],
  ])('%s: accepted %s, recorded %s', async (engineResult, accepted, state) => {
    const { service, book } = payments([answer(engineResult)]);
    const blob = signedBlob(5);
    const result = await service.submitSigned(blob);
    expect(result.accepted).toBe(accepted);
    expect(result.record).toMatchObject({ hash: hashTransaction(blob), state, engineResult, engineResultMessage: `${engineResult} text` });
    expect(book.getByHash(hashTransaction(blob))).toMatchObject({ state });
  });

  it('has one row per class, and the table says what the rows above say', () => {
    expect(Object.keys(SUBMIT_OUTCOMES).sort()).toEqual(['tec', 'tef', 'tel', 'tem', 'ter', 'terQUEUED', 'tes']);
    expect(ZERO_HASH).toBe('0'.repeat(64));
  });

  it('no answer from the upstream: an error naming the hash, and the record held until its LastLedgerSequence', async () => {
    const { service, book } = payments([new Error('connection closed')]);
    const blob = signedBlob(6);
    await expect(service.submitSigned(blob)).rejects.toMatchObject({ kind: 'upstream_unavailable', details: { data: { hash: hashTransaction(blob) } } });
    expect(book.getByHash(hashTransaction(blob))).toMatchObject({ state: 'held', engineResultMessage: expect.stringMatching(/no answer from the upstream/) });
  });

  it('an error answer of the upstream itself: invalid, and the record rejected', async () => {
    const { service, book } = payments([new UpstreamRequestError('submit', 'invalidTransaction', 'submit failed on ws://upstream: invalidTransaction (fails local checks)', 'fails local checks')]);
    const blob = signedBlob(7);
    await expect(service.submitSigned(blob)).rejects.toMatchObject({ kind: 'invalid_params' });
    expect(book.getByHash(hashTransaction(blob))).toMatchObject({ state: 'rejected', engineResult: 'invalidTransaction' });
  });
});

/** `blob` with the signature another key makes over it. */
function withSignatureOf(blob: string): string {
  const { TxnSignature: _signature, ...tx } = profile.codec.decode(blob);
  const other = profile.keys.deriveKeypair(profile.keys.generateSeed({ entropy: new Uint8Array(16).fill(9) }));
  return profile.codec.encode({ ...tx, TxnSignature: profile.keys.sign(profile.codec.encodeForSigning(tx), other.privateKey) });
}

describe('a signed transaction that is garbage', () => {
  const valid = signedBlob(3);
  it.each([
    ['a blob cut short', valid.slice(0, 40), 'the signed transaction does not decode: the data ends inside a field'],
    ['a blob missing its last byte', valid.slice(0, -2), 'the signed transaction does not decode: the data ends inside a field'],
    ['an unknown field code', 'DEADBEEF', 'the signed transaction does not decode: malformed: a field or type the chain does not define, or a value that does not fit its field'],
    ['random bytes', '9C1B7E55D2A0F3468E', /^the signed transaction does not decode: /],
    ['an empty object', 'E1', 'the transaction is not single-signed (TxnSignature and SigningPubKey are required)'],
    ['a valid one signed by another key', withSignatureOf(valid), 'the transaction signature does not verify'],
  ])('%s is refused in plain words, never the engine\'s, and nothing is sent', async (_what, blob, message) => {
    const { service, submitted, book } = payments([]);
    const refusal = service.submitSigned(blob);
    await expect(refusal).rejects.toMatchObject({ kind: 'invalid_params', message });
    await expect(refusal).rejects.not.toMatchObject({ message: expect.stringMatching(/TypeError|Cannot read|undefined|reading '/) });
    expect(submitted).toEqual([]);
    expect(book.open()).toEqual([]);
  });
});

describe('tracking is monotonic', () => {
  it('a validated transaction sent again any number of times stays validated, and is not sent again', async () => {
    const { service, book, submitted, tracker } = payments([answer('tesSUCCESS')]);
    const blob = signedBlob(8);
    const hash = hashTransaction(blob);
    await service.submitSigned(blob);
    tracker.apply({ ledgerIndex: 101, ledgerHash: Buffer.alloc(32), closeTimeRippleEpoch: 0, transactions: [{ hash: Buffer.from(hash, 'hex'), engineResult: 'tesSUCCESS' }] } as never);
    for (let again = 0; again < 3; again++) {
      const result = await service.submitSigned(blob);
      expect(result).toMatchObject({ accepted: true, record: { state: 'validated', ledgerIndex: 101 } });
    }
    expect(submitted).toHaveLength(1);
    expect(book.getByHash(hash)).toMatchObject({ state: 'validated', ledgerIndex: 101, engineResult: 'tesSUCCESS' });
  });

  it('an accepted transaction answered tefPAST_SEQ on a resubmission stays pending and accepted', async () => {
    const { service, book } = payments([answer('tesSUCCESS'), answer('tefPAST_SEQ')]);
    const blob = signedBlob(9);
    await service.submitSigned(blob);
    const again = await service.submitSigned(blob);
    expect(again).toMatchObject({ accepted: true, record: { state: 'pending', engineResult: 'tesSUCCESS' } });
    expect(book.getByHash(hashTransaction(blob))!.state).toBe('pending');
  });

  it('a held transaction is validated when a ledger holds it, and a pending one without LastLedgerSequence expires after a bounded wait', async () => {
    const { service, book, tracker } = payments([answer('terPRE_SEQ'), answer('tesSUCCESS')]);
    const held = signedBlob(11);
    const unbounded = signedBlob(12, 0);
    await service.submitSigned(held);
    await service.submitSigned(unbounded);
    const ledger = (ledgerIndex: number, hashes: string[]) =>
      ({ ledgerIndex, ledgerHash: Buffer.alloc(32), closeTimeRippleEpoch: 0, transactions: hashes.map((hash) => ({ hash: Buffer.from(hash, 'hex'), engineResult: 'tesSUCCESS' })) }) as never;
    tracker.apply(ledger(102, [hashTransaction(held)]));
    expect(book.getByHash(hashTransaction(held))).toMatchObject({ state: 'validated', ledgerIndex: 102 });
    tracker.apply(ledger(300, []));
    expect(book.getByHash(hashTransaction(unbounded))!.state).toBe('pending');
    tracker.apply(ledger(100 + 256 + 1, []));
    expect(book.getByHash(hashTransaction(unbounded))!.state).toBe('expired');
  });
});
