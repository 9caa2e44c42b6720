import { describe, expect, it } from 'vitest';
import { getNFTokenID } from 'xrpl';
import { getProfile } from '@ledger-node/chain';
import { readFixture } from '@ledger-node/test-utils';
import type { JsonObject } from './protocol';
import { mptIssuanceIdOf, nftSyntheticFields } from './synthetic';

const xrpl = getProfile('xrpl');

/** A recorded transaction's fields and its metadata without the fields rippled added to it. */
function recorded(name: string): { tx: JsonObject; meta: JsonObject; added: JsonObject } {
  const document = readFixture<JsonObject>(`xrpl/corpus/transactions/${name}.json`);
  const result = (document.result ?? document) as JsonObject;
  const tx = (result.tx_json ?? result.tx ?? result) as JsonObject;
  const { nftoken_id, nftoken_ids, offer_id, mpt_issuance_id, delivered_amount: _delivered, ...meta } = result.meta as JsonObject;
  const added = Object.fromEntries(Object.entries({ nftoken_id, nftoken_ids, offer_id, mpt_issuance_id }).filter(([, value]) => value !== undefined));
  return { tx, meta, added };
}

describe('the NFToken fields rippled adds to metadata', () => {
  it('names the token an accepted offer traded, as the server recorded it', () => {
    const { tx, meta, added } = recorded('NFTokenAcceptOffer-21C60F25');
    expect(added.nftoken_id).toBeDefined();
    expect(nftSyntheticFields(tx, meta)).toEqual({ nftoken_id: added.nftoken_id });
  });

  it.each(['NFTokenMint-1C57BFD8', 'NFTokenMint-465A6EAC', 'NFTokenMint-74D54DC8', 'NFTokenMint-E0774E1B'])(
    'names the token %s minted, the one xrpl.js getNFTokenID finds',
    (name) => {
      const { tx, meta } = recorded(name);
      const expected = getNFTokenID(meta as never);
      expect(expected).toMatch(/^[0-9A-F]{64}$/);
      expect(nftSyntheticFields(tx, meta).nftoken_id).toBe(expected);
    },
  );

  it('lists the tokens of the offers a cancel removed, each once', () => {
    const { tx, meta } = recorded('NFTokenCancelOffer-AF12B269');
    expect(nftSyntheticFields(tx, meta)).toEqual({ nftoken_ids: ['000800006203F49C21D5D6E022CB16DE3538F248662FC73C258BA1B200000018'] });
  });

  it('names the offer a create made by its ledger key, and none when it failed (tecNO_ENTRY)', () => {
    const { tx, meta } = recorded('NFTokenCreateOffer-37DD2EC6');
    const created = (meta.AffectedNodes as JsonObject[]).map((node) => node.CreatedNode as JsonObject | undefined).find((node) => node?.LedgerEntryType === 'NFTokenOffer');
    expect(nftSyntheticFields(tx, meta)).toEqual({ offer_id: created!.LedgerIndex });
    const failed = recorded('NFTokenCreateOffer-2C476AF4');
    expect(failed.meta.TransactionResult).toBe('tecNO_ENTRY');
    expect(nftSyntheticFields(failed.tx, failed.meta)).toEqual({});
  });

  it('adds nothing to a failed transaction, or to one of another type', () => {
    const { tx, meta } = recorded('NFTokenAcceptOffer-21C60F25');
    expect(nftSyntheticFields(tx, { ...meta, TransactionResult: 'tecNO_PERMISSION' })).toEqual({});
    expect(nftSyntheticFields({ ...tx, TransactionType: 'Payment' }, meta)).toEqual({});
  });
});

describe('the MPT issuance id rippled adds to metadata', () => {
  it('is the created issuance: its sequence and issuer, as the server recorded it', () => {
    const { tx, meta, added } = recorded('MPTokenIssuanceCreate-B84FF7A9');
    expect(added.mpt_issuance_id).toBe('006419063CEBEB49FC20032206CE0F203138BFC59F1AC578');
    expect(mptIssuanceIdOf(tx, meta, xrpl)).toBe(added.mpt_issuance_id);
    expect(mptIssuanceIdOf(tx, { ...meta, TransactionResult: 'tecINSUFFICIENT_RESERVE' }, xrpl)).toBeUndefined();
  });
});
