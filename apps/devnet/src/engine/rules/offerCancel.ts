/**
 * OfferCancel, after rippled CancelOffer.cpp: deletes the sender's offer with sequence
 * `OfferSequence` from its book and owner directories. An offer that is not there (taken, or
 * cancelled before) is no error; a sequence not yet used by the account is temBAD_SEQUENCE.
 */
import { keylet } from '@ledger-node/chain';
import { offerDelete } from '../offers';
import type { ResultToken } from '../results';
import type { JsonObject } from '../types';
import { u32Field, type RuleContext, type TransactionRule } from './context';

export const offerCancelRule: TransactionRule = {
  allowedFlags: 0,

  preflight(tx: JsonObject): ResultToken {
    const offerSequence = u32Field(tx, 'OfferSequence');
    if (offerSequence === undefined) return 'temMALFORMED';
    if (offerSequence === 0) return 'temBAD_SEQUENCE';
    return 'tesSUCCESS';
  },

  preclaim(context: RuleContext): ResultToken {
    const root = context.sandbox.read(context.settings.keys.account(context.account))!;
    if (Number(root.Sequence) <= u32Field(context.tx, 'OfferSequence')!) return 'temBAD_SEQUENCE';
    return 'tesSUCCESS';
  },

  apply(context: RuleContext): ResultToken {
    const { settings, account, scope, tx, sandbox } = context;
    const offerIndex = keylet.offer(settings.keys.accountId(account), u32Field(tx, 'OfferSequence')!);
    if (!sandbox.exists(offerIndex)) return 'tesSUCCESS';
    return offerDelete(scope, offerIndex) ? 'tesSUCCESS' : 'tefBAD_LEDGER';
  },
};
