import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { getProfile } from '@ledger-node/chain';
import { errorFields } from '@ledger-node/rippled-api';
import { fixturesDir, readFixture } from '@ledger-node/test-utils';
import { vaultInfo } from './vault-info';
import { request, STATE_LEDGER, TestChain, type FixtureLedger } from './test-context';

const xrpl = getProfile('xrpl');
const fixture = readFixture<FixtureLedger>(STATE_LEDGER);
/** A recorded VaultDeposit: the vault and its shares' issuance as the deposit left them. */
const deposit = JSON.parse(readFileSync(path.join(fixturesDir(), 'xrpl/corpus/transactions/VaultDeposit-33AA1B99.json'), 'utf8'));
const modified = (type: string) => (deposit.meta.AffectedNodes as Array<Record<string, any>>).map((affected) => affected.ModifiedNode).find((node) => node?.LedgerEntryType === type);
const [vaultNode, issuanceNode] = [modified('Vault'), modified('MPTokenIssuance')];
const threaded = { PreviousTxnID: deposit.hash, PreviousTxnLgrSeq: deposit.ledger_index };
const vault = { LedgerEntryType: 'Vault', ...vaultNode.FinalFields, ...threaded, index: vaultNode.LedgerIndex };
const issuance = { LedgerEntryType: 'MPTokenIssuance', ...issuanceNode.FinalFields, ...threaded, index: issuanceNode.LedgerIndex };
const chain = new TestChain({ profile: xrpl, ledgers: [{ ledger: { ...fixture.ledger, accountState: [...fixture.ledger.accountState, vault, issuance] } }] });
const ledger = { ledger_hash: fixture.ledger.ledger_hash, ledger_index: 38129, validated: true };

describe('vault_info', () => {
  const expected = { ...ledger, vault: { ...vault, shares: { ...issuance, mpt_issuance_id: vault.ShareMPTID } } };

  it('answers the vault by its key, with its shares issuance and that issuance ID', async () => {
    expect(await vaultInfo(request({ vault_id: vault.index }), chain.context)).toEqual(expected);
  });

  it('answers the vault by its owner and the sequence of its creation', async () => {
    expect(await vaultInfo(request({ owner: vault.Owner, seq: vault.Sequence }), chain.context)).toEqual(expected);
  });

  it.each([
    [{}, { error: 'malformedRequest', error_code: 31, error_message: 'Invalid parameters.' }],
    [{ vault_id: 'nope' }, { error: 'malformedRequest', error_code: 31, error_message: 'Invalid parameters.' }],
    [{ vault_id: 'AB'.repeat(32), owner: 'rNot', seq: 1 }, { error: 'malformedRequest', error_code: 31, error_message: 'Invalid parameters.' }],
    [{ owner: 'rNot', seq: 1 }, { error: 'malformedRequest', error_code: 35, error_message: 'Account malformed.' }],
    [{ owner: vault.Owner, seq: 0 }, { error: 'malformedRequest', error_code: 31, error_message: 'Invalid parameters.' }],
    [{ owner: vault.Owner, seq: 1.5 }, { error: 'malformedRequest', error_code: 31, error_message: 'Invalid parameters.' }],
    [{ owner: vault.Owner }, { error: 'malformedRequest', error_code: 31, error_message: 'Invalid parameters.' }],
    [{ vault_id: '00'.repeat(32) }, { error: 'malformedRequest' }],
    [{ vault_id: 'AB'.repeat(32) }, { error: 'entryNotFound' }],
    [{ owner: vault.Owner, seq: vault.Sequence + 1 }, { error: 'entryNotFound' }],
  ])('refuses %j as rippled does, beside the ledger', async (params, refusal) => {
    const error = await vaultInfo(request(params), chain.context).catch((thrown: unknown) => thrown);
    expect(errorFields(error)).toEqual({ ...ledger, ...refusal });
  });

  it('refuses a ledger not stored', async () => {
    await expect(vaultInfo(request({ vault_id: vault.index, ledger_index: 2 }), chain.context)).rejects.toMatchObject({ token: 'lgrNotFound' });
  });

  it('finds no vault whose shares issuance is not there', async () => {
    const alone = new TestChain({ profile: xrpl, ledgers: [{ ledger: { ...fixture.ledger, accountState: [...fixture.ledger.accountState, vault] } }] });
    const error = await vaultInfo(request({ vault_id: vault.index }), alone.context).catch((thrown: unknown) => thrown);
    expect(errorFields(error)).toEqual({ ...ledger, error: 'entryNotFound' });
  });
});
