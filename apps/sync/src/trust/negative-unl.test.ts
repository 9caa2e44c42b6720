import { describe, expect, it } from 'vitest';
import { getProfile, keylet, readNegativeUnl, StateTree } from '@ledger-node/chain';
import { readFixture } from '@ledger-node/test-utils';
import { UpstreamRequestError } from '@ledger-node/upstream';
import { NegativeUnlSource } from './negative-unl';

const profile = getProfile('xrpl');

/** The NegativeUNL object mainnet held after ledger 98785024, as its UNLModify's metadata states it. */
function mainnetNegativeUnl(): Buffer {
  const tx = readFixture<{ meta: { AffectedNodes: { ModifiedNode: { FinalFields: object; PreviousTxnID: string; PreviousTxnLgrSeq: number } }[] } }>('xrpl/corpus/transactions/UNLModify-C3079B04.json');
  const node = tx.meta.AffectedNodes[0]!.ModifiedNode;
  return Buffer.from(profile.codec.encode({ LedgerEntryType: 'NegativeUNL', ...node.FinalFields, PreviousTxnID: node.PreviousTxnID, PreviousTxnLgrSeq: node.PreviousTxnLgrSeq }), 'hex');
}
const DISABLED = 'EDA4074FD039407BD2464F14C378440D5B02CA8FBA661B286D1C82A3D59E8E6EC0';

describe('the negative UNL', () => {
  it('reads the disabled master keys of a real NegativeUNL object, and refuses another object', () => {
    expect([...readNegativeUnl(profile, mainnetNegativeUnl())]).toEqual([DISABLED]);
    expect(() => readNegativeUnl(profile, Buffer.from(profile.codec.encode({ LedgerEntryType: 'FeeSettings', Flags: 0, BaseFee: '000000000000000A', ReferenceFeeUnits: 10, ReserveBase: 1, ReserveIncrement: 1 }), 'hex'))).toThrow(/not the NegativeUNL/);
  });

  it("is the parent's: from the proven state when sync holds it, else asked of the upstream once per flag period", async () => {
    const tree = new StateTree();
    tree.set(keylet.negativeUnl(), mainnetNegativeUnl());
    const asked: string[] = [];
    let answer: Buffer | undefined = mainnetNegativeUnl();
    const source = new NegativeUnlSource({
      profile,
      stateAfter: (ledgerIndex) => (ledgerIndex === 1000 ? tree : undefined),
      ledgerEntry: async (objectKey, ledgerHash) => {
        asked.push(ledgerHash);
        if (!answer) throw new UpstreamRequestError('ledger_entry', 'entryNotFound', 'entry not found');
        return { index: objectKey, node_binary: answer.toString('hex') };
      },
    });
    expect(await source.read(1001, 'AA'.repeat(32))).toEqual({ keys: new Set([DISABLED]), source: 'state' });
    expect(asked).toEqual([]);
    expect(await source.read(2001, 'BB'.repeat(32))).toEqual({ keys: new Set([DISABLED]), source: 'upstream' });
    // Ledger 2002's parent is in the same flag period as 2001's: nothing changed it, nothing is asked.
    expect(await source.read(2002, 'CC'.repeat(32))).toMatchObject({ source: 'upstream' });
    expect(asked).toEqual(['BB'.repeat(32)]);
    answer = undefined;
    // Past a flag ledger (2048), it is asked again; no object means no validator is disabled.
    expect(await source.read(2050, 'DD'.repeat(32))).toEqual({ keys: new Set(), source: 'upstream' });
    expect(asked).toEqual(['BB'.repeat(32), 'DD'.repeat(32)]);
    expect(await source.read(1, 'EE'.repeat(32))).toEqual({ keys: new Set(), source: 'state' });
  });
});
