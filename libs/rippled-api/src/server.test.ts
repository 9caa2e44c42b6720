import { describe, expect, it } from 'vitest';
import { getProfile, RIPPLE_EPOCH_OFFSET } from '@ledger-node/chain';
import { readFixture } from '@ledger-node/test-utils';
import { feeResult } from './fee';
import { formatRanges, nativeUnits, serverInfoValidatedLedger, serverStateValidatedLedger, serverTime } from './server';
import { ledgerStreamFields } from './streams';
import { submitResult } from './submit';

describe('server_info shapes', () => {
  it("writes complete_ledgers as rippled does", () => {
    expect(formatRanges([])).toBe('empty');
    expect(formatRanges([{ first: 1, last: 5 }, { first: 7, last: 7 }])).toBe('1-5,7');
  });

  it('prints drops as native units', () => {
    expect(nativeUnits(10n, 1_000_000n)).toBe(0.00001);
    expect(nativeUnits(20_000_000n, 1_000_000n)).toBe(20);
    expect(nativeUnits(1_500_000n, 1_000_000n)).toBe(1.5);
  });

  it("prints rippled's time text", () => {
    expect(serverTime(new Date(Date.UTC(2024, 0, 5, 10, 1, 2, 123)))).toBe('2024-Jan-05 10:01:02.123000 UTC');
  });

  it("gives validated_ledger as xrpl.js's recorded server_info shows it, named after the native asset", () => {
    const recorded = readFixture<{ result: { info: { validated_ledger: Record<string, unknown> } } }>('xrpl/responses/xrpl.js/serverInfo.json').result.info.validated_ledger;
    const closeTime = 500_000_000;
    const nowMs = (closeTime + RIPPLE_EPOCH_OFFSET + (recorded.age as number)) * 1000;
    const fees = { baseFee: 10n, reserveBase: 20_000_000n, reserveIncrement: 5_000_000n };
    const ledger = { ledgerIndex: recorded.seq as number, hash: recorded.hash as string, closeTime };
    expect(serverInfoValidatedLedger(ledger, fees, getProfile('xrpl'), nowMs)).toEqual(recorded);
    expect(serverInfoValidatedLedger(ledger, fees, getProfile('jingtum'), nowMs)).toHaveProperty('base_fee_swt', 0.00001);
    expect(serverStateValidatedLedger(ledger, fees)).toEqual({
      base_fee: 10,
      close_time: closeTime,
      hash: recorded.hash,
      reserve_base: 20_000_000,
      reserve_inc: 5_000_000,
      seq: recorded.seq,
    });
  });
});

describe('ledgerStreamFields', () => {
  it("gives the ledger stream's fields as xrpl.js's recorded ledgerClosed shows them", () => {
    const recorded = readFixture<Record<string, any>>('xrpl/responses/xrpl.js/streams/ledger.json');
    const fields = ledgerStreamFields({
      place: { ledgerIndex: recorded.ledger_index, ledgerHash: recorded.ledger_hash, closeTime: recorded.ledger_time },
      fees: { baseFee: 10n, reserveBase: 20_000_000n, reserveIncrement: 5_000_000n },
      networkId: 0,
      validatedLedgers: formatRanges([{ first: 65201743, last: 66093872 }]),
    });
    const { type: _type, txn_count: _count, ...rest } = recorded;
    expect(fields).toEqual({ ...rest, network_id: 0 });
  });

  it('states no network_id for a server that states none', () => {
    const place = { ledgerIndex: 5, ledgerHash: 'AB'.repeat(32), closeTime: 1 };
    const fields = ledgerStreamFields({ place, fees: { baseFee: 10n, reserveBase: 1n, reserveIncrement: 1n }, networkId: undefined, validatedLedgers: '1-5' });
    expect(fields).not.toHaveProperty('network_id');
    expect(fields).toMatchObject({ ledger_index: 5, fee_base: 10 });
  });
});

describe('feeResult', () => {
  it('answers every level at the reference level and the median at 500 times it', () => {
    expect(feeResult({ baseFee: 10n, ledgerCurrentIndex: 8, currentLedgerSize: 3, expectedLedgerSize: 1000, maxQueueSize: 2000 })).toEqual({
      current_ledger_size: '3',
      current_queue_size: '0',
      drops: { base_fee: '10', median_fee: '5000', minimum_fee: '10', open_ledger_fee: '10' },
      expected_ledger_size: '1000',
      ledger_current_index: 8,
      levels: { median_level: '128000', minimum_level: '256', open_ledger_level: '256', reference_level: '256' },
      max_queue_size: '2000',
    });
  });
});

describe('submitResult', () => {
  it("gives xrpl.js's recorded submit answer its engine result, blob and transaction with hash", () => {
    const recorded = readFixture<{ result: Record<string, any> }>('xrpl/responses/xrpl.js/submit.json').result;
    const { hash, ...txJson } = recorded.tx_json;
    const result = submitResult({
      engineResult: recorded.engine_result,
      engineResultCode: recorded.engine_result_code,
      engineResultMessage: recorded.engine_result_message,
      applied: true,
      queued: false,
      broadcast: true,
      kept: true,
      txBlob: recorded.tx_blob,
      txJson,
      txHash: hash,
      openLedgerCost: '10',
      validatedLedgerIndex: 6,
      accountSequenceNext: 361,
    });
    expect(result).toMatchObject({
      engine_result: recorded.engine_result,
      engine_result_code: recorded.engine_result_code,
      engine_result_message: recorded.engine_result_message,
      tx_blob: recorded.tx_blob,
      tx_json: recorded.tx_json,
      accepted: true,
      applied: true,
      broadcast: true,
      kept: true,
      queued: false,
      account_sequence_next: 361,
    });
    expect(result).not.toHaveProperty('account_sequence_available');
  });
});
