import { describe, expect, it } from 'vitest';
import { getProfile, transactionFromLedgerJson } from '@ledger-node/chain';
import { InvalidParams, RateLimited } from '@ledger-node/errors';
import { readFixture } from '@ledger-node/test-utils';
import { submit } from './submit';
import { request, STATE_LEDGER, TestChain, type FixtureLedger } from './test-context';

const xrpl = getProfile('xrpl');
const fixture = readFixture<FixtureLedger>(STATE_LEDGER);
const recorded = fixture.ledger.transactions[0];
const { txBlob, hash } = transactionFromLedgerJson(recorded, xrpl);

describe('submit', () => {
  it("hands the blob to the submission service and answers rippled's preliminary result", async () => {
    const chain = new TestChain({ profile: xrpl, ledgers: [fixture] });
    const answer = await submit(request({ tx_blob: txBlob.toLowerCase() }), chain.context);
    expect(chain.submittedBlobs.map((blob) => blob.toString('hex').toUpperCase())).toEqual([txBlob]);
    const { metaData: _meta, hash: _hash, ...fields } = recorded;
    expect(answer).toEqual({
      accepted: true,
      applied: true,
      broadcast: true,
      engine_result: 'tesSUCCESS',
      engine_result_code: 0,
      engine_result_message: 'The transaction was applied. Only final in a validated ledger.',
      kept: true,
      open_ledger_cost: xrpl.baseFee.toString(),
      queued: false,
      tx_blob: txBlob,
      tx_json: { ...fields, hash },
      validated_ledger_index: 38129,
    });
  });

  it('answers a result the network does not keep with its code, not applied', async () => {
    const chain = new TestChain({ profile: xrpl, ledgers: [fixture], submitted: { engineResult: 'temBAD_FEE', engineResultMessage: 'Invalid fee, negative or not XRP.', accepted: false } });
    expect(await submit(request({ tx_blob: txBlob }), chain.context)).toMatchObject({
      engine_result: 'temBAD_FEE',
      engine_result_code: -295,
      accepted: false,
      applied: false,
      kept: false,
      broadcast: false,
    });
  });

  it('answers invalidTransaction with error_exception for a blob the submission service refuses', async () => {
    const chain = new TestChain({ profile: xrpl, ledgers: [fixture], submitted: new InvalidParams('the transaction signature does not verify', 'signedTransaction') });
    await expect(submit(request({ tx_blob: txBlob }), chain.context)).rejects.toMatchObject({
      token: 'invalidTransaction',
      extra: { error_exception: 'the transaction signature does not verify' },
    });
  });

  it('answers slowDown for a client over its send allowance', async () => {
    const chain = new TestChain({ profile: xrpl, ledgers: [fixture], submitted: new RateLimited('too many sends from this client') });
    await expect(submit(request({ tx_blob: txBlob }), chain.context)).rejects.toMatchObject({ token: 'slowDown', code: 10 });
  });

  it.each([
    ['a valid transaction cut short', txBlob.slice(0, 40), 'the blob does not decode: the data ends inside a field'],
    ['a valid transaction missing its last byte', txBlob.slice(0, -2), 'the blob does not decode: the data ends inside a field'],
    ['an unknown field code', 'DEADBEEF', 'the blob does not decode: malformed: a field or type the chain does not define, or a value that does not fit its field'],
    ['random bytes', '9C1B7E55D2A0F3468E01', expect.stringMatching(/^the blob does not decode: /)],
  ])("%s: rippled's invalidTransaction, error_exception in plain words, nothing sent", async (_what, blob, exception) => {
    const chain = new TestChain({ profile: xrpl, ledgers: [fixture] });
    const refusal = submit(request({ tx_blob: blob }), chain.context);
    await expect(refusal).rejects.toMatchObject({ token: 'invalidTransaction', extra: { error_exception: exception } });
    await expect(refusal).rejects.not.toMatchObject({ extra: { error_exception: expect.stringMatching(/TypeError|Cannot read|undefined|reading '/) } });
    expect(chain.submittedBlobs).toEqual([]);
  });

  it.each([
    [{ tx_blob: 'ABC' }, 'invalidParams'],
    [{ tx_blob: '' }, 'invalidParams'],
    [{ tx_blob: 'not hex at all' }, 'invalidParams'],
    [{}, 'invalidParams'],
    [{ tx_blob: 'XYZ' }, 'invalidParams'],
    [{ tx_blob: 12 }, 'invalidParams'],
    [{ tx_json: { TransactionType: 'Payment' }, secret: 's...' }, 'notSupported'],
  ])('refuses %j with %s before anything is sent', async (params, token) => {
    const chain = new TestChain({ profile: xrpl, ledgers: [fixture] });
    await expect(submit(request(params), chain.context)).rejects.toMatchObject({ token });
    expect(chain.submittedBlobs).toEqual([]);
  });
});
