import { describe, expect, it } from 'vitest';
import { readFixture } from '@ledger-node/test-utils';
import { accountDataJson, accountFlags } from './account';

describe('accountFlags', () => {
  it('spells out the nine flags rippled always reports', () => {
    // lsfRequireDestTag | lsfDisallowXRP
    expect(accountFlags(0x000a0000)).toEqual({
      defaultRipple: false,
      depositAuth: false,
      disableMasterKey: false,
      disallowIncomingXRP: true,
      globalFreeze: false,
      noFreeze: false,
      passwordSpent: false,
      requireAuthorization: false,
      requireDestinationTag: true,
    });
  });

  it('adds the flags of enabled amendments only', () => {
    const flags = 0x80000000 | 0x08000000;
    expect(accountFlags(flags)).not.toHaveProperty('allowTrustLineClawback');
    const withAmendments = accountFlags(flags, new Set(['DisallowIncoming', 'Clawback', 'TokenEscrow']));
    expect(withAmendments).toMatchObject({ allowTrustLineClawback: true, disallowIncomingCheck: true, disallowIncomingPayChan: false, allowTrustLineLocking: false });
  });
});

describe('accountDataJson', () => {
  it("adds the index and rippled's Gravatar address as xrpl.js's recorded account_info shows", () => {
    const recorded = readFixture<{ result: { account_data: Record<string, unknown> } }>('xrpl/responses/xrpl.js/accountInfo.json').result.account_data;
    const { index, urlgravatar, signer_lists: _signerLists, ...root } = recorded;
    expect(accountDataJson(root, index as string)).toEqual({ ...root, index, urlgravatar });
  });
});
