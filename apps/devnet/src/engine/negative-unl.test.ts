import {
  getProfile,
  hashLedgerHeader,
  hashTransaction,
  keylet,
  readNegativeUnl,
  stateTreeRoot,
  StateTree,
  transactionTreeRoot,
  ZERO_HASH,
} from '@ledger-node/chain';
import { readFixture } from '@ledger-node/test-utils';
import { describe, expect, it } from 'vitest';
import { OpenLedgerState } from './state';
import { negativeUnlState, updateNegativeUnl, type NegativeUnlVote, type NegativeUnlVoteInput, type NegativeUnlVoter } from './negative-unl';
import { TestLedger } from './test-support';
import type { ClosedLedger, DevnetChain, JsonObject } from './types';

const NEGATIVE_UNL = keylet.negativeUnl();
const FIRST_KEY = 'ED63CF929BE85B266A66584B3FE2EB97FC248203F0271DC9C833563E60418E7818';
const SECOND_KEY = 'EDA4074FD039407BD2464F14C378440D5B02CA8FBA661B286D1C82A3D59E8E6EC0';

/** A voter that answers what the test scripted for each flag ledger and records what it was asked. */
class ScriptedVoter implements NegativeUnlVoter {
  readonly asked: NegativeUnlVoteInput[] = [];
  constructor(private readonly votes: Record<number, NegativeUnlVote>) {}
  vote(input: NegativeUnlVoteInput): NegativeUnlVote {
    this.asked.push(input);
    return this.votes[input.ledgerIndex] ?? {};
  }
}

function closeThrough(ledger: TestLedger, ledgerIndex: number): Map<number, ClosedLedger> {
  const closed = new Map<number, ClosedLedger>();
  while (ledger.chain.validatedLedgerIndex() < ledgerIndex) {
    const next = ledger.close();
    closed.set(next.header.ledgerIndex, next);
  }
  return closed;
}

/** The ledger checked as a verifier checks it: header hash, transaction tree, each tx hash, and the state root over every object. */
function expectConsistent(chain: DevnetChain, ledger: ClosedLedger): void {
  expect(hashLedgerHeader(ledger.header)).toBe(ledger.hash);
  for (const tx of ledger.transactions) expect(hashTransaction(tx.txBlob)).toBe(tx.hash);
  expect(ledger.header.transactionHash).toBe(ledger.transactions.length === 0 ? ZERO_HASH : transactionTreeRoot(ledger.transactions));
  const entries = chain.stateEntries(ledger.header.ledgerIndex, undefined, Number.MAX_SAFE_INTEGER);
  expect(stateTreeRoot(entries)).toBe(ledger.header.accountHash);
}

function negativeUnlAt(chain: DevnetChain, ledgerIndex: number): JsonObject | undefined {
  return chain.stateEntry(NEGATIVE_UNL, ledgerIndex)?.json;
}

/** A recorded mainnet transaction's metadata with its validator key and first disabled ledger replaced by ours. */
function mainnetMeta(file: string, replace: { key: string; firstLedgerSequence?: number }): JsonObject {
  const recorded = readFixture<JsonObject>(`xrpl/corpus/transactions/${file}`);
  const meta = (recorded.meta ?? recorded.metaData) as JsonObject;
  const recordedKey = (recorded.tx as JsonObject | undefined)?.UNLModifyValidator ?? recorded.UNLModifyValidator;
  let text = JSON.stringify(meta).replaceAll(String(recordedKey), replace.key);
  if (replace.firstLedgerSequence !== undefined) text = text.replace(/"FirstLedgerSequence":\d+/, `"FirstLedgerSequence":${replace.firstLedgerSequence}`);
  return JSON.parse(text) as JsonObject;
}

describe('negative UNL on flag ledgers', () => {
  it('disables, then re-enables a validator as rippled does: UNLModify on one flag ledger, the object updated on the next', () => {
    const voter = new ScriptedVoter({ 256: { disable: FIRST_KEY }, 768: { reEnable: FIRST_KEY } });
    const ledger = new TestLedger(getProfile('xrpl'), { negativeUnlVoter: voter });
    const closed = closeThrough(ledger, 1024);
    const { chain } = ledger;

    // Asked on flag ledgers only, with the parent's hash and NegativeUNL object.
    expect(voter.asked.map((input) => input.ledgerIndex)).toEqual([256, 512, 768, 1024]);
    expect(voter.asked[0]).toEqual({ ledgerIndex: 256, parentHash: closed.get(255)!.hash, negativeUnl: { disabled: [] } });
    expect(voter.asked[1]!.negativeUnl).toEqual({ disabled: [], toDisable: FIRST_KEY });
    expect(voter.asked[2]!.negativeUnl).toEqual({ disabled: [FIRST_KEY] });
    expect(voter.asked[3]!.negativeUnl).toEqual({ disabled: [FIRST_KEY], toReEnable: FIRST_KEY });

    // 256: the disabling UNLModify creates the object, with the metadata mainnet ledger 94084608 shows.
    const disabling = closed.get(256)!.transactions;
    expect(disabling).toHaveLength(1);
    expect(disabling[0]!.txJson).toEqual({
      TransactionType: 'UNLModify',
      Account: '',
      Fee: '0',
      Sequence: 0,
      SigningPubKey: '',
      LedgerSequence: 256,
      UNLModifyDisabling: 1,
      UNLModifyValidator: FIRST_KEY,
    });
    expect(disabling[0]!.txBlob).toContain('8100');
    expect(disabling[0]!.metaJson).toEqual({ ...mainnetMeta('UNLModify-4489EC92.json', { key: FIRST_KEY }), TransactionIndex: 0 });
    expect(negativeUnlAt(chain, 256)).toEqual({ LedgerEntryType: 'NegativeUNL', Flags: 0, ValidatorToDisable: FIRST_KEY });

    // 512: updateNegativeUNL moves it into DisabledValidators; a state change without a transaction.
    const update = closed.get(512)!;
    expect(update.transactions).toEqual([]);
    expect(update.header.transactionHash).toBe(ZERO_HASH);
    expect(negativeUnlAt(chain, 512)).toEqual({
      LedgerEntryType: 'NegativeUNL',
      Flags: 0,
      DisabledValidators: [{ DisabledValidator: { PublicKey: FIRST_KEY, FirstLedgerSequence: 512 } }],
    });
    expect(readNegativeUnl(getProfile('xrpl'), Buffer.from(chain.stateEntry(NEGATIVE_UNL, 512)!.blob, 'hex'))).toEqual(new Set([FIRST_KEY]));

    // 768: the re-enabling UNLModify modifies the object, with the metadata mainnet ledger 1205760 shows (PreviousFields {}).
    const reEnabling = closed.get(768)!.transactions;
    expect(reEnabling.map((tx) => tx.txJson.UNLModifyDisabling)).toEqual([0]);
    expect(reEnabling[0]!.metaJson).toEqual(mainnetMeta('UNLModify-11FB0A70.json', { key: FIRST_KEY, firstLedgerSequence: 512 }));
    expect(reEnabling[0]!.metaBlob).toBe(getProfile('xrpl').codec.encode(mainnetMeta('UNLModify-11FB0A70.json', { key: FIRST_KEY, firstLedgerSequence: 512 })));

    // 1024: it leaves, nothing is left, and the object is deleted.
    expect(negativeUnlAt(chain, 1023)).toBeDefined();
    expect(negativeUnlAt(chain, 1024)).toBeUndefined();

    for (const ledgerIndex of [255, 256, 257, 511, 512, 767, 768, 1023, 1024]) expectConsistent(chain, closed.get(ledgerIndex)!);
    expect(closed.get(512)!.header.accountHash).not.toBe(closed.get(511)!.header.accountHash);
  });

  it('applies a disabling and a re-enabling in one flag ledger, each in its own transaction, and leaves out one rippled refuses', () => {
    const voter = new ScriptedVoter({
      256: { disable: FIRST_KEY },
      // FIRST_KEY is already on its way in: a second disabling of it is tefFAILURE and left out.
      512: { disable: FIRST_KEY },
      768: { disable: SECOND_KEY, reEnable: FIRST_KEY },
    });
    const ledger = new TestLedger(getProfile('xrpl'), { negativeUnlVoter: voter });
    const closed = closeThrough(ledger, 1024);
    expect(closed.get(512)!.transactions).toEqual([]);

    const both = closed.get(768)!.transactions;
    expect(both.map((tx) => [tx.index, tx.txJson.UNLModifyDisabling, tx.txJson.UNLModifyValidator])).toEqual([
      [0, 1, SECOND_KEY],
      [1, 0, FIRST_KEY],
    ]);
    const modified = (tx: (typeof both)[number]) => ((tx.metaJson.AffectedNodes as JsonObject[])[0] as { ModifiedNode: JsonObject }).ModifiedNode;
    expect(modified(both[0]!)).toMatchObject({ PreviousFields: {}, FinalFields: { ValidatorToDisable: SECOND_KEY } });
    expect(modified(both[1]!).FinalFields).toEqual({
      Flags: 0,
      DisabledValidators: [{ DisabledValidator: { PublicKey: FIRST_KEY, FirstLedgerSequence: 512 } }],
      ValidatorToDisable: SECOND_KEY,
      ValidatorToReEnable: FIRST_KEY,
    });
    expect(negativeUnlAt(ledger.chain, 1024)).toEqual({
      LedgerEntryType: 'NegativeUNL',
      Flags: 0,
      DisabledValidators: [{ DisabledValidator: { PublicKey: SECOND_KEY, FirstLedgerSequence: 1024 } }],
    });
    for (const ledgerIndex of [768, 1024]) expectConsistent(ledger.chain, closed.get(ledgerIndex)!);
  });

  it('keeps no negative UNL on a chain whose format lacks its fields (Jingtum) and without a voter', () => {
    const voter = new ScriptedVoter({ 256: { disable: FIRST_KEY } });
    const jingtum = new TestLedger(getProfile('jingtum'), { negativeUnlVoter: voter });
    closeThrough(jingtum, 256);
    expect(voter.asked).toEqual([]);
    expect(negativeUnlAt(jingtum.chain, 256)).toBeUndefined();

    const withoutVoter = new TestLedger(getProfile('xrpl'));
    expect(closeThrough(withoutVoter, 256).get(256)!.transactions).toEqual([]);
  });
});

describe('updateNegativeUnl', () => {
  const profile = getProfile('xrpl');
  const put = (entry: JsonObject) => {
    const state = new OpenLedgerState(profile.codec, new StateTree());
    state.put(NEGATIVE_UNL, entry);
    return state;
  };

  it('leaves an object with nothing to disable or re-enable as it is', () => {
    const entry = { LedgerEntryType: 'NegativeUNL', Flags: 0, DisabledValidators: [{ DisabledValidator: { PublicKey: FIRST_KEY, FirstLedgerSequence: 256 } }] };
    const state = put(entry);
    const before = state.tree.root();
    updateNegativeUnl(state, NEGATIVE_UNL, 512);
    expect(state.tree.root()).toBe(before);
    expect(negativeUnlState(state.get(NEGATIVE_UNL))).toEqual({ disabled: [FIRST_KEY] });
  });

  it('swaps a re-enabled validator for a disabled one in one step', () => {
    const state = put({
      LedgerEntryType: 'NegativeUNL',
      Flags: 0,
      DisabledValidators: [{ DisabledValidator: { PublicKey: FIRST_KEY, FirstLedgerSequence: 256 } }],
      ValidatorToDisable: SECOND_KEY,
      ValidatorToReEnable: FIRST_KEY,
    });
    updateNegativeUnl(state, NEGATIVE_UNL, 768);
    expect(state.get(NEGATIVE_UNL)).toEqual({
      LedgerEntryType: 'NegativeUNL',
      Flags: 0,
      DisabledValidators: [{ DisabledValidator: { PublicKey: SECOND_KEY, FirstLedgerSequence: 768 } }],
    });
  });
});
