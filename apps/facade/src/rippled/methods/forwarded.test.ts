import { describe, expect, it } from 'vitest';
import { getProfile } from '@ledger-node/chain';
import { RateLimited, UpstreamUnavailable } from '@ledger-node/errors';
import { errorFields } from '@ledger-node/rippled-api';
import { pathFind, ripplePathFind, simulate, submitMultisigned } from './forwarded';
import { request, TestChain } from './test-context';

const xrpl = getProfile('xrpl');
const chainAnswering = (forwarded?: ConstructorParameters<typeof TestChain>[0]['forwarded']) => new TestChain({ profile: xrpl, ledgers: [], forwarded });
const fieldsOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => errorFields(error),
  );

const pathRequest = { source_account: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh', destination_account: 'rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe', destination_amount: '1000000' };

describe('forwarded methods', () => {
  it("ripple_path_find hands the request to Forward and answers the upstream's result marked forwarded", async () => {
    const chain = chainAnswering({ answerJson: JSON.stringify({ alternatives: [], destination_account: pathRequest.destination_account, full_reply: true }), error: false });
    expect(await ripplePathFind(request(pathRequest, 2), chain.context)).toEqual({ alternatives: [], destination_account: pathRequest.destination_account, full_reply: true, forwarded: true });
    expect(chain.forwards).toEqual([{ command: 'ripple_path_find', paramsJson: JSON.stringify(pathRequest), apiVersion: 2 }]);
  });

  it("answers the upstream's error answer as the upstream gave it", async () => {
    const chain = chainAnswering({ answerJson: JSON.stringify({ error: 'srcActNotFound', error_code: 67, error_message: 'Source account not found.', status: 'error' }), error: true });
    expect(await fieldsOf(ripplePathFind(request(pathRequest), chain.context))).toEqual({ error: 'srcActNotFound', error_code: 67, error_message: 'Source account not found.' });
  });

  it('answers noNetwork when no upstream answers, and tooBusy when the forwards in flight are at their limit', async () => {
    expect(await fieldsOf(ripplePathFind(request(pathRequest), chainAnswering(new UpstreamUnavailable('ripple_path_find to ws://10.0.0.7:6006 got no answer')).context))).toEqual({
      error: 'noNetwork',
      error_code: 17,
      error_message: 'Not synced to the network.',
    });
    expect(await fieldsOf(simulate(request({ tx_blob: '1200' }), chainAnswering(new RateLimited('32 forwards are waiting')).context))).toEqual({
      error: 'tooBusy',
      error_code: 9,
      error_message: 'The server is too busy to help you now.',
    });
  });

  it('answers noNetwork for an upstream answer that is not a JSON object or an error without a token', async () => {
    for (const forwarded of [{ answerJson: '[1]', error: false }, { answerJson: 'nope', error: false }, { answerJson: '{"error_code":3}', error: true }]) {
      expect(await fieldsOf(ripplePathFind(request(pathRequest), chainAnswering(forwarded).context))).toMatchObject({ error: 'noNetwork' });
    }
  });

  it.each(['secret', 'seed', 'seed_hex', 'passphrase'])('refuses %s before anything is forwarded, naming the field and never its value', async (field) => {
    const chain = chainAnswering();
    const refusal = await fieldsOf(simulate(request({ tx_json: { TransactionType: 'AccountSet', Account: pathRequest.source_account }, [field]: 'snoPBrXtMeMyMHUVTgbuqAfg1SUTb' }), chain.context));
    expect(refusal).toEqual({ error: 'invalidParams', error_code: 31, error_message: `Invalid field '${field}'.` });
    expect(await fieldsOf(submitMultisigned(request({ tx_json: { Account: pathRequest.source_account, [field]: 'snoPBrXtMeMyMHUVTgbuqAfg1SUTb' } }), chain.context))).toMatchObject({ error: 'invalidParams' });
    expect(chain.forwards).toEqual([]);
    expect(JSON.stringify(refusal)).not.toContain('snoPB');
  });

  it("simulate checks rippled's own params first: one of tx_blob and tx_json, binary a boolean", async () => {
    const chain = chainAnswering();
    expect(await fieldsOf(simulate(request({}), chain.context))).toMatchObject({ error_message: 'Neither `tx_blob` nor `tx_json` included.' });
    expect(await fieldsOf(simulate(request({ tx_blob: '1200', tx_json: {} }), chain.context))).toMatchObject({ error_message: 'Can only include one of `tx_blob` and `tx_json`.' });
    expect(await fieldsOf(simulate(request({ tx_blob: '1200', binary: 'yes' }), chain.context))).toMatchObject({ error_message: "Invalid field 'binary'." });
    expect(chain.forwards).toEqual([]);
  });

  it('submit_multisigned needs a tx_json object and takes one send from the client allowance', async () => {
    const chain = chainAnswering({ answerJson: JSON.stringify({ engine_result: 'tesSUCCESS', engine_result_code: 0 }), error: false });
    expect(await fieldsOf(submitMultisigned(request({}), chain.context))).toMatchObject({ error: 'invalidParams', error_message: "Missing field 'tx_json'." });
    expect(await fieldsOf(submitMultisigned(request({ tx_json: 'x' }), chain.context))).toMatchObject({ error: 'invalidParams' });
    expect(chain.sendsTaken).toBe(0);
    expect(await submitMultisigned(request({ tx_json: { TransactionType: 'Payment' } }), chain.context)).toEqual({ engine_result: 'tesSUCCESS', engine_result_code: 0, forwarded: true });
    expect(chain.sendsTaken).toBe(1);
  });

  it('submit_multisigned answers slowDown past -send_rate, forwarding nothing', async () => {
    const chain = chainAnswering();
    const context = { ...chain.context, sends: { take: async () => Promise.reject(new RateLimited('too many sends from this client')) } };
    expect(await fieldsOf(submitMultisigned(request({ tx_json: { TransactionType: 'Payment' } }), context as never))).toMatchObject({ error: 'slowDown', error_code: 10 });
    expect(chain.forwards).toEqual([]);
  });

  it("path_find without a connection's events (HTTP) is rippled's noEvents, and forwards nothing", async () => {
    const chain = chainAnswering({ answerJson: JSON.stringify({ alternatives: [], full_reply: false }), error: false });
    for (const subcommand of ['create', 'close', 'status']) {
      expect(await fieldsOf(pathFind(request({ subcommand, ...pathRequest }), chain.context))).toEqual({ error: 'noEvents', error_code: 7, error_message: 'Current transport does not support events.' });
    }
    expect(chain.forwards).toEqual([]);
  });
});
