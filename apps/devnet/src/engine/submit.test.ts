import { getProfile } from '@ledger-node/chain';
import { describe, expect, it } from 'vitest';
import { signBlob, TestLedger } from './test-support';

function payment(destination: string, drops: bigint) {
  return { TransactionType: 'Payment', Destination: destination, Amount: drops.toString() };
}

describe('submit: checks every transaction goes through', () => {
  it('answers temMALFORMED, without throwing, for a blob that does not decode', () => {
    const ledger = new TestLedger();

    for (const blob of ['', 'ZZ', '1200', undefined as unknown as string]) {
      const result = ledger.chain.submit(blob);
      expect(result).toMatchObject({ engineResult: 'temMALFORMED', engineResultCode: -299, applied: false, queued: false });
      expect(result.errorException).toEqual(expect.any(String));
      expect(result.txHash).toBeUndefined();
    }
  });

  it('answers temBAD_SIGNATURE with rippled’s "Invalid signature." for a signature over other data', () => {
    const ledger = new TestLedger();
    const tx = { ...payment(ledger.account(1).address, 20_000_000n), Account: ledger.genesis.address, Fee: '10', Sequence: 1 };
    const genuine = ledger.profile.codec.decode(signBlob(ledger.profile, ledger.genesis, tx));
    const forged = ledger.profile.codec.encode({ ...genuine, Amount: '90000000' });

    expect(ledger.chain.submit(forged)).toMatchObject({
      engineResult: 'temBAD_SIGNATURE',
      applied: false,
      errorException: 'fails local checks: Invalid signature.',
    });
    expect(ledger.chain.pendingCount()).toBe(0);
  });

  it('answers tefBAD_AUTH_MASTER for a valid signature by a key the account does not have', () => {
    const ledger = new TestLedger();
    const intruder = ledger.account(2);
    const tx = { ...payment(intruder.address, 20_000_000n), Account: ledger.genesis.address, Fee: '10', Sequence: 1 };

    expect(ledger.chain.submit(signBlob(ledger.profile, intruder, tx)).engineResult).toBe('tefBAD_AUTH_MASTER');
  });

  it('answers telINSUF_FEE_P below the base fee and temBAD_FEE for a fee that is not native', () => {
    const ledger = new TestLedger();
    const destination = ledger.account(1).address;

    expect(ledger.submit(ledger.genesis, { ...payment(destination, 20_000_000n), Fee: '9' })).toMatchObject({
      engineResult: 'telINSUF_FEE_P',
      applied: false,
      queued: false,
    });
    expect(
      ledger.submit(ledger.genesis, { ...payment(destination, 20_000_000n), Fee: { currency: 'USD', issuer: destination, value: '1' } }).engineResult,
    ).toBe('temBAD_FEE');
    expect(ledger.sequence(ledger.genesis.address)).toBe(1);
  });

  it('honours a raised base fee', () => {
    const ledger = new TestLedger(undefined, { fees: { baseFee: 12n } });

    expect(ledger.chain.fees).toEqual({ baseFee: 12n, reserveBase: 1_000_000n, reserveIncrement: 200_000n });
    expect(ledger.submit(ledger.genesis, { ...payment(ledger.account(1).address, 20_000_000n), Fee: '10' }).engineResult).toBe('telINSUF_FEE_P');
    expect(ledger.submit(ledger.genesis, payment(ledger.account(1).address, 20_000_000n)).engineResult).toBe('tesSUCCESS');
  });

  it('answers tefPAST_SEQ for a sequence already used', () => {
    const ledger = new TestLedger();
    ledger.fund(ledger.account(1), 20_000_000n);

    expect(ledger.submit(ledger.genesis, { ...payment(ledger.account(1).address, 1_000_000n), Sequence: 1 }).engineResult).toBe('tefPAST_SEQ');
  });

  it('holds a future sequence with terPRE_SEQ and applies it as soon as the gap fills', () => {
    const ledger = new TestLedger();
    const alice = ledger.account(1);
    const later = ledger.submit(ledger.genesis, { ...payment(alice.address, 3_000_000n), Sequence: 2 });

    expect(later).toMatchObject({ engineResult: 'terPRE_SEQ', engineResultCode: -92, applied: false, queued: true, accountSequenceNext: 1, accountSequenceAvailable: 1 });
    const first = ledger.submit(ledger.genesis, { ...payment(alice.address, 20_000_000n), Sequence: 1 });
    expect(first).toMatchObject({ engineResult: 'tesSUCCESS', accountSequenceNext: 3 });
    expect(ledger.balance(alice.address)).toBe(23_000_000n);
    const closed = ledger.close();
    expect(closed.transactions.map((tx) => tx.hash)).toEqual([first.txHash, later.txHash]);
    expect(ledger.chain.pendingCount()).toBe(0);
  });

  it.each(['xrpl', 'jingtum'] as const)('queues past a full open ledger with terQUEUED and applies the queue in the next ledgers, in order (%s)', (chain) => {
    const ledger = new TestLedger(getProfile(chain), { openLedgerLimit: 2 });
    const first = ledger.sequence(ledger.genesis.address);
    const sends = [0, 1, 2, 3, 4].map((offset) => ledger.submit(ledger.genesis, { ...payment(ledger.account(offset + 1).address, 20_000_000n), Sequence: first + offset }));
    expect(sends.map((sent) => [sent.engineResult, sent.applied, sent.queued])).toEqual([
      ['tesSUCCESS', true, false],
      ['tesSUCCESS', true, false],
      ['terQUEUED', false, true],
      ['terQUEUED', false, true],
      ['terQUEUED', false, true],
    ]);
    // Sent again while queued, it stays queued.
    expect(ledger.chain.submit(sends[2]!.txBlob).engineResult).toBe('terQUEUED');
    const ledgers = [ledger.close(), ledger.close(), ledger.close()];
    expect(ledgers.map((closed) => closed.transactions.map((tx) => tx.hash))).toEqual([
      [sends[0]!.txHash, sends[1]!.txHash],
      [sends[2]!.txHash, sends[3]!.txHash],
      [sends[4]!.txHash],
    ]);
    expect(ledger.chain.pendingCount()).toBe(0);
  });

  it('retries held transactions when the next ledger opens', () => {
    const ledger = new TestLedger();
    const newcomer = ledger.account(1);
    // A new account starts at the sequence of the ledger that creates it: the open one here.
    const early = ledger.submit(newcomer, { ...payment(ledger.genesis.address, 1_000_000n), Sequence: ledger.chain.openLedgerIndex() });
    expect(early).toMatchObject({ engineResult: 'terNO_ACCOUNT', applied: false, queued: true });
    ledger.fund(newcomer, 20_000_000n);
    const funded = ledger.close();

    expect(funded.transactions.map((tx) => tx.hash)).not.toContain(early.txHash);
    expect(ledger.chain.pendingCount()).toBe(1);
    const retried = ledger.close();
    expect(ledger.chain.transaction(early.txHash!)!.ledgerIndex).toBe(retried.header.ledgerIndex);
    expect(ledger.balance(newcomer.address)).toBe(20_000_000n - 1_000_000n - 10n);
  });

  it('drops a held transaction once its LastLedgerSequence has passed', () => {
    const ledger = new TestLedger();
    const alice = ledger.account(1);
    const openIndex = ledger.chain.openLedgerIndex();
    const held = ledger.submit(ledger.genesis, { ...payment(alice.address, 3_000_000n), Sequence: 2, LastLedgerSequence: openIndex });

    expect(held.engineResult).toBe('terPRE_SEQ');
    ledger.close();
    expect(ledger.chain.pendingCount()).toBe(0);
    ledger.submit(ledger.genesis, { ...payment(alice.address, 20_000_000n), Sequence: 1 });
    expect(ledger.sequence(ledger.genesis.address)).toBe(2);
    expect(ledger.balance(alice.address)).toBe(20_000_000n);
  });

  it('answers tefMAX_LEDGER when LastLedgerSequence is before the open ledger', () => {
    const ledger = new TestLedger();
    ledger.close();
    const result = ledger.submit(ledger.genesis, { ...payment(ledger.account(1).address, 20_000_000n), LastLedgerSequence: ledger.chain.openLedgerIndex() - 1 });

    expect(result).toMatchObject({ engineResult: 'tefMAX_LEDGER', applied: false, queued: false });
  });

  it('answers terNO_ACCOUNT for a sender that does not exist', () => {
    const ledger = new TestLedger();
    const stranger = ledger.account(5);

    expect(ledger.submit(stranger, { ...payment(ledger.genesis.address, 1_000_000n), Sequence: 1 })).toMatchObject({
      engineResult: 'terNO_ACCOUNT',
      applied: false,
    });
  });

  it('answers temUNKNOWN for a transaction type this ledger does not implement', () => {
    const ledger = new TestLedger();
    const check = { TransactionType: 'CheckCreate', Destination: ledger.account(3).address, SendMax: '1000000' };

    expect(ledger.submit(ledger.genesis, check)).toMatchObject({ engineResult: 'temUNKNOWN', applied: false });
  });

  it('answers temINVALID_FLAG for a flag the transaction type does not define', () => {
    const ledger = new TestLedger();

    expect(ledger.submit(ledger.genesis, { ...payment(ledger.account(1).address, 20_000_000n), Flags: 0x00100000 }).engineResult).toBe(
      'temINVALID_FLAG',
    );
  });

  it('keeps the fee-burning and sequence rules of a tec result', () => {
    const ledger = new TestLedger();
    const alice = ledger.account(1);
    ledger.fund(alice, 2_000_000n);
    const before = ledger.balance(alice.address);
    const sequence = ledger.sequence(alice.address);
    const failed = ledger.submit(alice, payment(ledger.genesis.address, 1_500_000n));

    expect(failed).toMatchObject({ engineResult: 'tecUNFUNDED_PAYMENT', engineResultCode: 104, applied: true });
    expect(ledger.balance(alice.address)).toBe(before - 10n);
    expect(ledger.sequence(alice.address)).toBe(sequence + 1);
    const closed = ledger.close();
    expect(closed.header.totalCoins).toBe(ledger.chain.ledger(closed.header.ledgerIndex - 1)!.header.totalCoins - 20n);
  });
});
