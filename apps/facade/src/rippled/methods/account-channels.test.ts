import { describe, expect, it } from 'vitest';
import { encodeAccountPublic } from 'ripple-address-codec';
import { getProfile, keylet } from '@ledger-node/chain';
import { fixturesDir, readFixture } from '@ledger-node/test-utils';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { accountChannels } from './account-channels';
import { request, STATE_LEDGER, TestChain, type FixtureLedger } from './test-context';

const xrpl = getProfile('xrpl');
const fixture = readFixture<FixtureLedger>(STATE_LEDGER);
/** A real PaymentChannelCreate of the corpus: the channel its metadata created. */
const created = JSON.parse(readFileSync(path.join(fixturesDir(), 'xrpl/corpus/transactions/PaymentChannelCreate-0E9CA3AB.json'), 'utf8'));
const channelNode = (created.meta.AffectedNodes as Array<Record<string, any>>).map((node) => node.CreatedNode).find((node) => node?.LedgerEntryType === 'PayChannel');
const source: string = channelNode.NewFields.Account;
const destination: string = channelNode.NewFields.Destination;
const sourceId = Buffer.from(xrpl.codec.decodeAccountId(source));
const previous = { PreviousTxnID: created.hash, PreviousTxnLgrSeq: created.ledger_index };
const ownerDir = keylet.ownerDir(sourceId);

/** Ledger 38129 with the channel, its source's account and owner directory (another channel's owner too: the destination's). */
const withChannel: FixtureLedger = {
  ledger: {
    ...fixture.ledger,
    accountState: [
      ...fixture.ledger.accountState,
      { LedgerEntryType: 'AccountRoot', Account: source, Balance: '100000000', Flags: 0, OwnerCount: 1, Sequence: 114, ...previous, index: keylet.account(sourceId) },
      { LedgerEntryType: 'DirectoryNode', Flags: 0, Owner: source, RootIndex: ownerDir, Indexes: [channelNode.LedgerIndex], index: ownerDir },
      { LedgerEntryType: 'PayChannel', Flags: 0, Balance: '0', ...channelNode.NewFields, ...previous, index: channelNode.LedgerIndex },
    ],
  },
};
const chain = new TestChain({ profile: xrpl, ledgers: [withChannel] });

describe('account_channels', () => {
  it("prints each channel as rippled's addChannel does", async () => {
    const answer = await accountChannels(request({ account: source }), chain.context);
    expect(answer).toEqual({
      account: source,
      channels: [
        {
          channel_id: channelNode.LedgerIndex,
          account: source,
          destination_account: destination,
          amount: '1000000',
          balance: '0',
          public_key: encodeAccountPublic(Buffer.from(channelNode.NewFields.PublicKey, 'hex')),
          public_key_hex: channelNode.NewFields.PublicKey,
          settle_delay: 90000,
          source_tag: 3444675312,
        },
      ],
      ledger_hash: fixture.ledger.ledger_hash,
      ledger_index: 38129,
      validated: true,
    });
  });

  it('filters by destination_account, and refuses a malformed one', async () => {
    expect((await accountChannels(request({ account: source, destination_account: destination }), chain.context)).channels).toHaveLength(1);
    const other = fixture.ledger.accountState.find((entry: Record<string, any>) => entry.LedgerEntryType === 'AccountRoot').Account;
    expect((await accountChannels(request({ account: source, destination_account: other }), chain.context)).channels).toEqual([]);
    await expect(accountChannels(request({ account: source, destination_account: 'nope' }), chain.context)).rejects.toMatchObject({ token: 'actMalformed' });
    await expect(accountChannels(request({ account: 'rrrrrrrrrrrrrrrrrrrrBZbvji' }), chain.context)).rejects.toMatchObject({ token: 'actNotFound' });
  });
});
