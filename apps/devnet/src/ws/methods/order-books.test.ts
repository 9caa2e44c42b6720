import { devnetNetworkKeys, getProfile } from '@ledger-node/chain';
import { amendmentId, channelClaimMessage } from '@ledger-node/rippled-api';
import { createLogger } from '@ledger-node/telemetry';
import { afterAll, describe, expect, it } from 'vitest';
import { TestLedger } from '../../engine/test-support';
import { DevnetNetwork } from '../../network/network';
import { LiveLedgerSource } from '../live-source';
import { answer } from '../server';
import { Subscriber } from '../subscriptions';

type Json = Record<string, any>;

const profile = getProfile('xrpl');
const logger = createLogger('devnet-test', 'silent');
const network = new DevnetNetwork(profile, devnetNetworkKeys());
const ledger = new TestLedger(profile);
const source = new LiveLedgerSource(ledger.chain, { closeMs: 60_000, logger });
const subscriber = new Subscriber(source, network, () => {});
let id = 0;
const call = (request: Json): Json => answer(JSON.stringify({ id: ++id, ...request }), { source, network, subscriber, startedAtMs: Date.now(), logger });

afterAll(() => source.stop());

const gateway = ledger.account(61);
const alice = ledger.account(62);
const bob = ledger.account(63);
const usd = (value: string) => ({ currency: 'USD', issuer: gateway.address, value });

describe('the devnet serves its order books', () => {
  it('book_offers lists placed offers best first with their quality; book_changes reports a crossing', () => {
    for (const account of [gateway, alice, bob]) ledger.fund(account, 1000_000_000n);
    ledger.close();
    for (const trader of [alice, bob]) ledger.expectResult(trader, { TransactionType: 'TrustSet', LimitAmount: usd('1000') }, 'tesSUCCESS');
    ledger.close();
    ledger.expectResult(gateway, { TransactionType: 'Payment', Destination: alice.address, Amount: usd('100') }, 'tesSUCCESS');
    ledger.close();
    ledger.expectResult(alice, { TransactionType: 'OfferCreate', TakerGets: usd('10'), TakerPays: '120000000' }, 'tesSUCCESS');
    ledger.expectResult(alice, { TransactionType: 'OfferCreate', TakerGets: usd('10'), TakerPays: '100000000' }, 'tesSUCCESS');
    const placed = ledger.close().header.ledgerIndex;

    const book = call({ command: 'book_offers', taker_gets: { currency: 'USD', issuer: gateway.address }, taker_pays: { currency: 'XRP' }, ledger_index: placed });
    expect(book.status).toBe('success');
    expect(book.result.offers.map((offer: Json) => [offer.TakerPays, offer.quality])).toEqual([
      ['100000000', '10000000'],
      ['120000000', '12000000'],
    ]);
    expect(book.result).toMatchObject({ ledger_index: placed, validated: true });

    ledger.expectResult(bob, { TransactionType: 'OfferCreate', TakerGets: '50000000', TakerPays: usd('5') }, 'tesSUCCESS');
    const crossed = ledger.close();
    const changes = call({ command: 'book_changes', ledger_index: crossed.header.ledgerIndex });
    expect(changes.result).toEqual({
      type: 'bookChanges',
      validated: true,
      ledger_index: crossed.header.ledgerIndex,
      ledger_hash: crossed.hash,
      ledger_time: crossed.header.closeTime,
      changes: [{ currency_a: 'XRP_drops', currency_b: `${gateway.address}/USD`, volume_a: '50000000', volume_b: '5', high: '10000000', low: '10000000', open: '10000000', close: '10000000' }],
    });
    expect(call({ command: 'book_offers', taker_gets: { currency: 'USD', issuer: gateway.address }, taker_pays: { currency: 'XRP' }, ledger_index: 'validated' }).result.offers[0].TakerGets).toEqual(usd('5'));
  });

  it('server_definitions, feature and channel_verify answer as on the node', () => {
    const definitions = call({ command: 'server_definitions' }).result;
    expect(call({ command: 'server_definitions', hash: definitions.hash }).result).toEqual({ hash: definitions.hash });
    // The devnet's genesis enables no amendment.
    expect(call({ command: 'feature', feature: 'AMM' }).result).toEqual({ [amendmentId('AMM')]: { enabled: false, name: 'AMM', supported: true } });
    expect(call({ command: 'feature', feature: 'NoSuchThing' }).error).toBe('badFeature');
    const channelId = 'AB'.repeat(32);
    const signature = profile.keys.sign(channelClaimMessage(channelId, 1000n), alice.privateKey);
    const verify = (amount: string) => call({ command: 'channel_verify', channel_id: channelId, amount, signature, public_key: alice.publicKey }).result;
    expect(verify('1000')).toEqual({ signature_verified: true });
    expect(verify('1001')).toEqual({ signature_verified: false });
  });
});
