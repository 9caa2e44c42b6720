import { describe, expect, it } from 'vitest';
import { getProfile } from '@ledger-node/chain';
import { engineResultOf } from './engine-results';

describe('engineResultOf', () => {
  it('names the native currency of the XRP Ledger in its result and message', () => {
    expect(engineResultOf(getProfile('xrpl'), 'tecNO_DST_INSUF_XRP')).toEqual({
      engine_result: 'tecNO_DST_INSUF_XRP',
      engine_result_code: 125,
      engine_result_message: 'Destination does not exist. Too little XRP sent to create it.',
    });
  });

  it('takes the Jingtum code from the Jingtum table and speaks of SWT', () => {
    expect(engineResultOf(getProfile('jingtum'), 'tecNO_DST_INSUF_SWT')).toEqual({
      engine_result: 'tecNO_DST_INSUF_SWT',
      engine_result_code: 125,
      engine_result_message: 'Destination does not exist. Too little SWT sent to create it.',
    });
    expect(engineResultOf(getProfile('jingtum'), 'tecUNFUNDED_PAYMENT').engine_result_message).toBe('Insufficient SWT balance to send.');
  });

  it('refuses a token the chain does not know: the XRPL spelling on Jingtum', () => {
    expect(() => engineResultOf(getProfile('jingtum'), 'tecNO_DST_INSUF_XRP')).toThrow(/unknown transaction result tecNO_DST_INSUF_XRP for chain jingtum/);
  });
});
