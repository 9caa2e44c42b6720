/**
 * The "no answer from the upstream" row of the send outcome table (docs/api.md "What a send returns"),
 * on both chain profiles: a node whose only upstream (a devnet behind a TCP proxy the test cuts)
 * is gone answers jt_sendRawTransaction with -32005 naming the transaction's hash, records it held,
 * and, once the upstream is back and ledgers pass its LastLedgerSequence without it, expired.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { getProfile, hashTransaction, type ChainId } from '@ledger-node/chain';
import { SubmissionServiceService, SubmissionState } from '@ledger-node/contracts';
import { createGrpcClient } from '@ledger-node/grpc';
import { cliEntry, connectUpstream, devnetValidatorsFile, freePort, startProcess, stopAll, tempDir, TcpProxy, waitUntil } from '@ledger-node/test-utils';

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await stopAll();
});

describe.each(['xrpl', 'jingtum'] as const)('a send the upstream never answers (%s)', (chain: ChainId) => {
  it('is -32005 naming its hash, held, then expired past its LastLedgerSequence', async () => {
    const profile = getProfile(chain);
    const { dir, remove } = tempDir(`no-answer-${chain}-`);
    cleanups.push(remove);
    const devnet = startProcess([cliEntry(), 'devnet', '-chain', chain, '-port', '0', '-close_ms', '300', '-load', '3', '-load_accounts', '2']);
    const devnetUrl = new URL((await devnet.waitFor(/devnet listening on (ws:\/\/[^\s"]+)/))[1]!);
    const proxy = await TcpProxy.start(devnetUrl.hostname, Number(devnetUrl.port));
    cleanups.push(() => proxy.close());
    const upstream = await connectUpstream(devnetUrl.toString());
    cleanups.push(() => upstream.close());
    const rpcPort = await freePort();
    startProcess([
      cliEntry(), '-chain', chain, '-endpoint', `ws://127.0.0.1:${proxy.port}`, '-validators', devnetValidatorsFile(dir, chain),
      '-data_dir', dir, '-rpc', '-rpcaddr', '127.0.0.1', '-rpcport', String(rpcPort), '-log_level', 'warn',
    ]);
    const call = async (method: string, params: unknown[] = []) =>
      (await (await fetch(`http://127.0.0.1:${rpcPort}/v1/jsonrpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', method, params, id: 1 }) })).json()) as Record<string, any>;
    const current = await waitUntil(async () => {
      const answer = await call('jt_blockNumber');
      return answer.result >= 2 ? (answer.result as number) : undefined;
    }, 60_000, 'the node synced');

    // A payment from the devnet's genesis, signed here with the profile's keys.
    const keypair = profile.keys.deriveKeypair(profile.genesis.secret);
    const info = await upstream.request('account_info', { account: profile.genesis.address, ledger_index: 'current' });
    const tx: Record<string, unknown> = {
      TransactionType: 'Payment', Account: profile.genesis.address, Destination: profile.keys.deriveAddress(profile.keys.deriveKeypair(profile.keys.generateSeed()).publicKey),
      Amount: '100000000', Fee: '12', Sequence: info.result.account_data.Sequence, LastLedgerSequence: current + 6, SigningPubKey: keypair.publicKey,
    };
    tx.TxnSignature = profile.keys.sign(profile.codec.encodeForSigning(tx), keypair.privateKey);
    const blob = profile.codec.encode(tx);
    const hash = hashTransaction(blob);

    proxy.cut();
    const answer = await call('jt_sendRawTransaction', [blob]);
    expect(answer.error).toMatchObject({ code: -32005, data: { hash } });
    expect(answer.error.message).toContain(`transaction ${hash} may still be applied`);
    const submission = createGrpcClient(SubmissionServiceService, `unix:${dir}/run/submission.sock`, { serviceLabel: 'submission' });
    cleanups.push(() => submission.close());
    const record = async () => (await submission.getSubmission({ lookup: { $case: 'hash', hash: Buffer.from(hash, 'hex') } })).submission;
    expect(await record()).toMatchObject({ state: SubmissionState.HELD, engineResultMessage: expect.stringMatching(/^no answer from the upstream/) });

    proxy.restore();
    await waitUntil(async () => (await record())?.state === SubmissionState.EXPIRED, 90_000, 'the held transaction expired', 250);
    expect((await call('jt_getTransactionReceipt', [hash])).result).toBeNull();
  }, 150_000);
});
