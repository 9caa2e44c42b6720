import { describe, expect, it } from 'vitest';
import { decode, encode, encodeForSigning } from 'ripple-binary-codec';
import { deriveAddress, deriveKeypair, verify } from 'ripple-keypairs';
import type { LedgerRecord, TransactionRecord } from '@ledger-node/contracts';
import {
  currencyToBytes,
  devnetNetworkKeys,
  encodeLedgerHeader,
  getProfile,
  hashTransaction,
  keylet,
  ledgerHeaderFromJson,
  RIPPLE_EPOCH_OFFSET,
  stateEntryFromLedgerJson,
  StateTree,
  transactionFromLedgerJson,
} from '@ledger-node/chain';
import { proofLedgerOf, verifyProof } from '@ledger-node/proof';
import { readFixture } from '@ledger-node/test-utils';
import { coinEntry, coinLine } from '../accounts/balances';
import { historyEntry } from '../accounts/history';
import { restBalances, restPayment } from '../rest/resources/accounts';
import { genesisSigned, ledger38129, restExamples, rpcExamples, stateProofExample } from './examples';
import { testnetProof } from './proof-example';
import { blockObject, receiptObject, transactionObject } from './records';
import { restLedger, restTransaction } from './rest';

/** The examples of the API documents are the node's real answers: rendered again here from their sources. */
const profile = getProfile('xrpl');
type FixtureLedger = { ledger: Record<string, any>; ledger_hash: string };
const fixture = readFixture<FixtureLedger>('xrpl/ledgers/mainnet/38129-full-state.json');
const header = ledgerHeaderFromJson(fixture.ledger);
const fromHex = (hex: string) => Buffer.from(hex, 'hex');

const payment: TransactionRecord = (() => {
  const [tx] = fixture.ledger.transactions as Record<string, any>[];
  const binary = transactionFromLedgerJson(tx!, profile);
  return {
    hash: fromHex(binary.hash),
    txBlob: fromHex(binary.txBlob),
    metaBlob: fromHex(binary.metaBlob),
    ledgerIndex: header.ledgerIndex,
    txIndex: tx!.metaData.TransactionIndex,
    ledgerHash: fromHex(fixture.ledger_hash),
    closeTimeRippleEpoch: header.closeTime,
  };
})();
const ledger: LedgerRecord = {
  ledgerIndex: header.ledgerIndex,
  ledgerHash: fromHex(fixture.ledger_hash),
  headerBlob: encodeLedgerHeader(header),
  transactionCount: 1,
  transactionHashes: [payment.hash],
  transactions: [payment],
};

/** An account's state at ledger 38129, from the fixture's full account state. */
function stateOf(address: string) {
  const entries = fixture.ledger.accountState as Record<string, any>[];
  const root = entries.find((entry) => entry.LedgerEntryType === 'AccountRoot' && entry.Account === address)!;
  const lines = entries
    .filter((entry) => entry.LedgerEntryType === 'RippleState' && (entry.LowLimit.issuer === address || entry.HighLimit.issuer === address))
    .map((entry) => coinLine(entry, address));
  return { root, balance: String(root.Balance), lines };
}

describe('the examples from mainnet ledger 38129', () => {
  it('name the ledger, its payment and its close time as the fixture holds them', () => {
    expect(ledger38129.hash).toBe(fixture.ledger_hash);
    expect(ledger38129.index).toBe(header.ledgerIndex);
    expect(ledger38129.paymentHash).toBe(payment.hash.toString('hex').toUpperCase());
    expect(ledger38129.paymentBlob).toBe(payment.txBlob.toString('hex').toUpperCase());
    expect(ledger38129.closeTimeRippleEpoch).toBe(header.closeTime);
    expect(ledger38129.closeTimeUnix).toBe(header.closeTime + RIPPLE_EPOCH_OFFSET);
  });

  it('are the JSON-RPC answers the node renders: block, transaction, receipt, history entry', () => {
    expect(rpcExamples.block).toEqual(blockObject(ledger, false, profile));
    expect(rpcExamples.transaction).toEqual(transactionObject(payment, profile));
    expect(rpcExamples.receipt).toEqual(receiptObject(payment, profile));
    expect(rpcExamples.historyEntry).toEqual(historyEntry(payment, profile));
  });

  it("are the account state there: the line holder's balance and trust line, the sender's count of sent transactions", () => {
    const holder = stateOf(ledger38129.lineHolder);
    expect(rpcExamples.balance).toMatchObject({ account: ledger38129.lineHolder, balance: holder.balance, coins: holder.lines.map((line) => coinEntry(line, profile)) });
    // Sequence starts at 1 and each sent transaction takes one.
    expect(rpcExamples.senderSentCount).toBe(stateOf(ledger38129.sender).root.Sequence - 1);
  });

  it('are the REST answers the node renders, with native amounts in units and in drops', () => {
    expect(restExamples.ledger).toEqual(restLedger(ledger, 'hashes', profile));
    expect(restExamples.transaction).toEqual(restTransaction(payment, profile));
    expect(restExamples.balances.balances).toEqual(restBalances(stateOf(ledger38129.lineHolder), profile));
    expect(restExamples.payment).toEqual(restPayment(payment, profile));
    expect(restExamples.payment).toMatchObject({ amount: '10000', drops: '10000000000' });
  });
});

describe('the state proof example', () => {
  const tree = new StateTree();
  for (const entry of fixture.ledger.accountState as Record<string, unknown>[]) {
    const { index, blob } = stateEntryFromLedgerJson(entry, profile);
    tree.set(index, blob);
  }
  const holder = profile.codec.decodeAccountId(ledger38129.lineHolder);
  const keys = [keylet.account(holder), keylet.rippleState(holder, profile.codec.decodeAccountId('r9aRw8p1jHtR9XhDAE22TjtM7PdupNXhkx'), currencyToBytes('USD'))];

  it("holds the line holder's AccountRoot and USD trust line at ledger 38129, with their paths in its state tree", () => {
    expect(stateProofExample.ledger).toEqual(proofLedgerOf(header));
    expect(stateProofExample.state).toEqual(keys.map((key) => ({ key, blob: tree.get(key)!.toString('hex').toUpperCase(), proof: tree.proof(key) })));
  });

  it("verifies against the one-validator devnet's publisher key", () => {
    const verdict = verifyProof(stateProofExample, { publisherKeys: [devnetNetworkKeys({ validatorCount: 1 }).publisher.master.publicKey], profile });
    expect(verdict.steps.filter((step) => !step.ok)).toEqual([]);
    expect(verdict.ok).toBe(true);
  });
});

describe('the signing examples', () => {
  const keys = deriveKeypair('snoPBrXtMeMyMHUVTgbuqAfg1SUTb');

  it("are signed by the devnet genesis account's key", () => {
    expect(genesisSigned.publicKey).toBe(keys.publicKey);
    expect(genesisSigned.address).toBe(deriveAddress(keys.publicKey));
  });

  it('jt_sign: the signature covers the chain prefix and the message', () => {
    const signed = Buffer.concat([Buffer.from(profile.signMessagePrefix, 'utf8'), fromHex(genesisSigned.message.hex.slice(2))]);
    expect(verify(signed.toString('hex'), genesisSigned.message.signature.slice(2), keys.publicKey)).toBe(true);
  });

  it('the payment is the request, signed, and its hash is the transaction id', () => {
    const { TxnSignature, ...unsigned } = decode(genesisSigned.payment.blob) as Record<string, any>;
    const { request } = genesisSigned.payment;
    expect(unsigned).toMatchObject({ TransactionType: 'Payment', Account: request.from, Destination: request.to, Amount: request.value, Fee: request.fee, Flags: 0 });
    expect(verify(encodeForSigning(unsigned), TxnSignature, keys.publicKey)).toBe(true);
    expect(encode({ ...unsigned, TxnSignature })).toBe(genesisSigned.payment.blob);
    expect(hashTransaction(genesisSigned.payment.blob)).toBe(genesisSigned.payment.hash);
  });
});

describe('the proof example', () => {
  const xpop = readFixture<{ transaction: { blob: string }; validation: { unl: { public_key: string } } }>('xrpl/trust/xpop-testnet-39419653.json');

  it("is testnet's XPOP as recorded, of the transaction the example names", () => {
    expect(testnetProof.xpop).toEqual(xpop);
    expect(hashTransaction(testnetProof.xpop.transaction.blob)).toBe(testnetProof.hash);
  });

  it("verifies with the testnet publisher's key", () => {
    expect(verifyProof(testnetProof.xpop, { publisherKeys: [xpop.validation.unl.public_key], profile }).ok).toBe(true);
  });
});
