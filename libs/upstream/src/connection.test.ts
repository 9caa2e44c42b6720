import { decodeLedgerHeader, hashLedgerHeader } from '@ledger-node/chain';
import { UpstreamUnavailable } from '@ledger-node/errors';
import { rejectionOf } from '@ledger-node/test-utils';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { UpstreamConnection, type AnswerTiming, type ConnectionEvents } from './connection';
import { MalformedUpstreamMessage, UpstreamRequestError } from './errors';
import { ledgerClosedMessage, type StreamMessage } from './messages';
import type { BinaryLedgerHeaderResult, BinaryLedgerResult, JsonLedgerResult } from './methods';
import { capturedMessage, MockUpstream } from './testing';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function mockUpstream(): Promise<MockUpstream> {
  const mock = await MockUpstream.start();
  cleanups.push(() => mock.close());
  return mock;
}

/** What a connection reported: malformed messages, stream messages, its close. */
function recordingEvents() {
  const heard = { malformed: [] as string[], streamed: [] as StreamMessage[], closed: [] as string[] };
  const events: ConnectionEvents = {
    onMalformed: (reason) => heard.malformed.push(reason),
    onStreamMessage: (message) => heard.streamed.push(message),
    onClose: (reason) => heard.closed.push(reason),
  };
  return { heard, events };
}

async function connectTo(mock: MockUpstream, events: ConnectionEvents = {}, requestTimeoutMs = 5_000): Promise<UpstreamConnection> {
  const connection = await UpstreamConnection.open({ url: mock.url, events, connectTimeoutMs: 5_000, requestTimeoutMs });
  cleanups.push(() => connection.terminate('test done'));
  return connection;
}

/** The `result` of a captured answer. */
const capturedResult = (name: string) => capturedMessage(name).result as Record<string, unknown>;

describe('UpstreamConnection: typed answers (captured rippled answers)', () => {
  it('ledger, binary and expanded: the header and each transaction blob as captured, the header hashing to ledger_hash', async () => {
    const connection = await connectTo(await mockUpstream());
    const answer = await connection.request('ledger', { ledger_index: 11119600, transactions: true, expand: true, binary: true, api_version: 1 });
    expectTypeOf(answer).toEqualTypeOf<BinaryLedgerResult>();
    // The blobs decoded from the answer's hex, once, as they are kept.
    expectTypeOf(answer.ledger.transactions[0]!.tx_blob).toEqualTypeOf<Buffer>();
    expectTypeOf(answer.ledger_index).toEqualTypeOf<number>();
    const captured = capturedResult('ledger.binary') as { ledger: { transactions: unknown[] } };
    expect(answer.ledger_index).toBe(11119600);
    const hexOf = (bytes: Buffer | undefined) => bytes?.toString('hex').toUpperCase();
    expect(answer.ledger.transactions.map((tx) => ({ ...tx, tx_blob: hexOf(tx.tx_blob), meta: hexOf(tx.meta) }))).toEqual(captured.ledger.transactions);
    expect(answer.ledger.transactions).toHaveLength(13);
    expect(hashLedgerHeader(decodeLedgerHeader(answer.ledger.ledger_data))).toBe(answer.ledger_hash);
  });

  it("ledger in JSON: the header's fields as the server printed them", async () => {
    const connection = await connectTo(await mockUpstream());
    const answer = await connection.request('ledger', { ledger_index: 'validated' });
    expectTypeOf(answer).toEqualTypeOf<JsonLedgerResult>();
    expect(answer).toMatchObject({ ledger_hash: '9D346B0C050C6C5C5172BD731063C33A50C4E1D89EB51F47BBE73E4DA340A684', ledger_index: 100972403, validated: true });
    expect(answer.ledger.parent_hash).toBe('667CE88E45EC7E9C71436A93970437F2F1C14D5A367F24BE3B571A27846C1EF3');
  });

  it('ledger, binary and not expanded, types as the header form', async () => {
    const mock = await mockUpstream();
    const { result } = capturedMessage('ledger_data.binary') as { result: { ledger: unknown; ledger_hash: string; ledger_index: number } };
    mock.reply('ledger', { result: { ledger: result.ledger, ledger_hash: result.ledger_hash, ledger_index: String(result.ledger_index), validated: true } });
    const answer = await (await connectTo(mock)).request('ledger', { ledger_hash: result.ledger_hash, binary: true });
    expectTypeOf(answer).toEqualTypeOf<BinaryLedgerHeaderResult>();
    expectTypeOf(answer.ledger.transactions).toEqualTypeOf<string[] | undefined>();
    // Older servers print the index as a string: it is read as a number.
    expect(answer.ledger_index).toBe(6885842);
    expect(hashLedgerHeader(decodeLedgerHeader(answer.ledger.ledger_data))).toBe(answer.ledger_hash);
  });

  it('ledger_data and ledger_entry in binary form', async () => {
    const connection = await connectTo(await mockUpstream());
    const page = await connection.request('ledger_data', { ledger_hash: '842B57C1CC0613299A686D3E9F310EC0422C84D3911E5056389AA7E5808A93C8', binary: true, limit: 5 });
    expect(page.state.map((object) => object.index)).toEqual((capturedResult('ledger_data.binary').state as { index: string }[]).map((object) => object.index));
    expect(page.marker).toBe('000103996A3BAD918657F86E12A67D693E8FC8A814DA4B958A244B5F14D93E58');
    const entry = await connection.request('ledger_entry', { index: page.state[0]!.index, ledger_hash: page.ledger_hash, binary: true });
    expect(entry.node_binary).toBe(page.state[0]!.data);
  });

  it.each([
    ['server_info', {}, (result: Record<string, any>) => result.info.validated_ledger.seq, 6595042],
    ['ledger_closed', {}, (result: Record<string, any>) => result.ledger_index, 6643099],
    ['ledger_current', {}, (result: Record<string, any>) => result.ledger_current_index, 6643240],
    ['account_info', { account: 'r9cZA1mLK5R5Am25ArfXFmqgNwjZgnfk59' }, (result: Record<string, any>) => result.account_data.Sequence, 23],
    ['account_lines', { account: 'r9cZA1mLK5R5Am25ArfXFmqgNwjZgnfk59' }, (result: Record<string, any>) => result.lines[0].currency, 'ASP'],
    ['account_tx', { account: 'rf1BiGeXwwQoi8Z2ueFYTEXSwuJYfV2Jpn', limit: 2 }, (result: Record<string, any>) => result.transactions.length, 2],
    ['submit', { tx_blob: '1200' }, (result: Record<string, any>) => result.engine_result, 'tesSUCCESS'],
    ['tx', { transaction: 'C53ECF838647FA5A4C780377025FEC7999AB4182590510CA461444B207AB74A9' }, (result: Record<string, any>) => result.meta.TransactionResult, 'tesSUCCESS'],
    ['subscribe', { streams: ['ledger'] }, (result: Record<string, any>) => result.ledger_index, 8819951],
  ] as const)('%s: the captured answer, checked and typed', async (command, params, read, expected) => {
    const connection = await connectTo(await mockUpstream());
    const result = await connection.request(command, params as never);
    expect(read(result as Record<string, any>)).toEqual(expected);
  });

  it('hears how long each answer took: its wait and its decoding', async () => {
    const connection = await connectTo(await mockUpstream());
    const timings: AnswerTiming[] = [];
    await connection.request('ledger', { ledger_index: 11119600, transactions: true, expand: true, binary: true }, { onAnswered: (timing) => timings.push(timing) });
    expect(timings).toHaveLength(1);
    expect(timings[0]!.waitedSeconds).toBeGreaterThan(0);
    expect(timings[0]!.parsedSeconds).toBeGreaterThan(0);
    expect(timings[0]!.waitedSeconds).toBeLessThan(5);
  });
});

describe('UpstreamConnection: error answers', () => {
  it('a captured error answer rejects with UpstreamRequestError: its command, rippled token and words', async () => {
    const mock = await mockUpstream();
    mock.reply('subscribe', { fixture: 'subscribe.error' });
    const error = await rejectionOf<UpstreamRequestError>((await connectTo(mock)).request('subscribe', { streams: ['validations'] }));
    expect(error).toBeInstanceOf(UpstreamRequestError);
    expect({ command: error.command, errorCode: error.errorCode, errorMessage: error.errorMessage }).toEqual({ command: 'subscribe', errorCode: 'invalidParams', errorMessage: 'Invalid parameters.' });
    expect(error.message).toBe(`subscribe failed on ${mock.url}: invalidParams (Invalid parameters.)`);
  });

  it('lgrNotFound, and rippled words given as error_exception', async () => {
    const mock = await mockUpstream();
    mock.reply('ledger', { error: 'lgrNotFound', errorMessage: 'ledgerNotFound' });
    mock.reply('submit', (request) => ({ raw: JSON.stringify({ id: request.id, status: 'error', type: 'response', error: 'invalidTransaction', error_exception: 'fails local checks' }) }));
    const connection = await connectTo(mock);
    await expect(connection.request('ledger', { ledger_index: 5, binary: true })).rejects.toMatchObject({ name: 'UpstreamRequestError', errorCode: 'lgrNotFound', command: 'ledger' });
    await expect(connection.request('submit', { tx_blob: '1200' })).rejects.toMatchObject({ errorCode: 'invalidTransaction', errorMessage: 'fails local checks' });
  });
});

describe('UpstreamConnection: malformed answers', () => {
  it('a result that does not match its command is refused and reported, its timing still heard', async () => {
    const mock = await mockUpstream();
    mock.reply('ledger', { result: { ledger: { ledger_data: 'not hex', transactions: [] }, ledger_hash: 'AB'.repeat(32), ledger_index: 5 } });
    const { heard, events } = recordingEvents();
    const timings: AnswerTiming[] = [];
    const request = (await connectTo(mock, events)).request('ledger', { ledger_index: 5, transactions: true, expand: true, binary: true }, { onAnswered: (timing) => timings.push(timing) });
    const error = await rejectionOf<MalformedUpstreamMessage>(request);
    expect(error).toBeInstanceOf(MalformedUpstreamMessage);
    expect(error.message).toMatch(/^malformed ledger answer: .* at ledger\.ledger_data$/);
    expect(heard.malformed).toEqual([error.message]);
    expect(timings).toHaveLength(1);
  });

  it('an answer neither success with a result nor error is refused; text that is not JSON is reported and answers nothing', async () => {
    const mock = await mockUpstream();
    mock.reply('server_info', (request) => ({ raw: JSON.stringify({ id: request.id, status: 'success', type: 'response' }) }));
    mock.reply('ledger_closed', { raw: '{"id": 2, "status": "succ' });
    const { heard, events } = recordingEvents();
    const connection = await connectTo(mock, events, 300);
    await expect(connection.request('server_info', {})).rejects.toThrow('malformed answer to server_info: neither success with a result nor error');
    await expect(connection.request('ledger_closed', {})).rejects.toThrow(UpstreamUnavailable);
    expect(heard.malformed).toHaveLength(2);
    expect(heard.malformed[1]).toMatch(/^not JSON: /);
  });

  it('a message that is JSON but no object, or an answer to no request, is reported', async () => {
    const mock = await mockUpstream();
    const { heard, events } = recordingEvents();
    await connectTo(mock, events);
    mock.stream('[1, 2, 3]');
    mock.stream({ id: 99, status: 'success', type: 'response', result: {} });
    await expect.poll(() => heard.malformed).toEqual(['not a JSON object', 'an answer to no pending request (id 99)']);
  });
});

describe('UpstreamConnection: no answer', () => {
  it('a request with no answer rejects with UpstreamUnavailable at its deadline, and counts until any answer comes', async () => {
    const mock = await mockUpstream();
    mock.reply('ledger', { silence: true });
    const connection = await connectTo(mock, {}, 150);
    for (const expected of [1, 2]) {
      await expect(connection.request('ledger', { ledger_index: 5 })).rejects.toThrow(`ledger to ${mock.url} got no answer within 150 ms`);
      expect(connection.unansweredInARow).toBe(expected);
    }
    await connection.request('ledger_closed', {});
    expect(connection.unansweredInARow).toBe(0);
  });

  it('a connection that closes fails its pending requests with UpstreamUnavailable and says why', async () => {
    const mock = await mockUpstream();
    mock.reply('ledger', { silence: true });
    const { heard, events } = recordingEvents();
    const connection = await connectTo(mock, events);
    const pending = connection.request('ledger', { ledger_index: 5 });
    await expect.poll(() => mock.requests.length).toBe(1);
    mock.dropConnections();
    const error = await rejectionOf<Error>(pending);
    expect(error).toBeInstanceOf(UpstreamUnavailable);
    expect(error.message).toMatch(new RegExp(`^ledger to ${mock.url} failed: connection closed`));
    expect(heard.closed).toHaveLength(1);
    expect(connection.isOpen).toBe(false);
    await expect(connection.request('ledger_closed', {})).rejects.toThrow(`${mock.url} is not connected`);
  });
});

describe('UpstreamConnection: stream messages', () => {
  it('hands each stream message to its listener, as the server sent it', async () => {
    const mock = await mockUpstream();
    const { heard, events } = recordingEvents();
    await connectTo(mock, events);
    mock.stream(capturedMessage('stream.ledgerClosed'));
    await expect.poll(() => heard.streamed.length).toBe(1);
    expect(ledgerClosedMessage.parse(heard.streamed[0])).toMatchObject({ ledger_index: 66093872, ledger_hash: 'B3980C722D71873D6708723E71B7A28C826BC66C58712ADCEC61603415305CD1' });
    expect(heard.malformed).toEqual([]);
  });
});

describe('UpstreamConnection: credentials in the endpoint URL', () => {
  it('opens the URL with credentials, and names the endpoint by its shown URL only', async () => {
    const mock = await mockUpstream();
    mock.reply('ledger', { error: 'lgrNotFound', errorMessage: 'ledgerNotFound' });
    mock.reply('server_info', { silence: true });
    const port = new URL(mock.url).port;
    const shown = `ws://***@127.0.0.1:${port}/?token=***`;
    const connection = await UpstreamConnection.open({ url: shown, connectUrl: `ws://reader:s3cret@127.0.0.1:${port}/?token=t0ken`, connectTimeoutMs: 5_000, requestTimeoutMs: 100 });
    cleanups.push(() => connection.terminate('test done'));
    const messages = [
      (await rejectionOf<Error>(connection.request('ledger', { ledger_index: 5 }))).message,
      (await rejectionOf<Error>(connection.request('server_info', {}))).message,
    ];
    expect(messages[0]).toBe(`ledger failed on ${shown}: lgrNotFound (ledgerNotFound)`);
    expect(messages[1]).toBe(`server_info to ${shown} got no answer within 100 ms`);
    await mock.close();
    const refused = await rejectionOf<Error>(UpstreamConnection.open({ url: shown, connectUrl: `ws://reader:s3cret@127.0.0.1:${port}/?token=t0ken`, connectTimeoutMs: 1_000, requestTimeoutMs: 100 }));
    const invalid = await rejectionOf<Error>(UpstreamConnection.open({ url: 'ws://***@no host/', connectUrl: 'ws://reader:s3cret@no host/?token=t0ken', connectTimeoutMs: 1_000, requestTimeoutMs: 100 }));
    expect(refused.message).toMatch(new RegExp(`^cannot connect to ${shown.replace(/[?*]/g, '\\$&')}: `));
    expect(invalid.message).toMatch(/^cannot connect to ws:\/\/\*\*\*@no host\/: /);
    for (const message of [...messages, refused.message, invalid.message]) expect(message).not.toMatch(/s3cret|t0ken|reader/);
  });
});
