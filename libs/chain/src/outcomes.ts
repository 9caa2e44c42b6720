/**
 * What a submit's preliminary engine result says about a transaction: one row per class of
 * result, the one table the submission service and the facade both follow (docs/api.md "What a send
 * returns"). rippled's classes: tes applied; tec applied without its effect (the fee is taken);
 * terQUEUED held in the queue for a coming ledger; other ter not applied, retried by the server
 * while it may still succeed (e.g. terPRE_SEQ, terNO_ACCOUNT); tef, tel and tem never applied.
 */
export type SubmitClass = 'tes' | 'tec' | 'terQUEUED' | 'ter' | 'tef' | 'tel' | 'tem';

/** Where a tracked submission stands. */
export const SUBMISSION_STATES = ['pending', 'held', 'validated', 'expired', 'rejected', 'failed'] as const;
export type SubmissionStateName = (typeof SUBMISSION_STATES)[number];

export interface SubmitOutcome {
  readonly class: SubmitClass;
  /**
   * The transaction is in the open ledger or the queue, so it will be in a ledger unless it
   * expires: a send answers its hash. Otherwise it does not exist (yet): the zero hash (SPEC §7).
   */
  readonly accepted: boolean;
  /** The submission record's state after this answer. */
  readonly state: Extract<SubmissionStateName, 'pending' | 'held' | 'rejected'>;
}

export const SUBMIT_OUTCOMES: Readonly<Record<SubmitClass, Omit<SubmitOutcome, 'class'>>> = {
  tes: { accepted: true, state: 'pending' },
  tec: { accepted: true, state: 'pending' },
  terQUEUED: { accepted: true, state: 'pending' },
  // Not applied now; the server retries it while it may succeed: tracked until it cannot.
  ter: { accepted: false, state: 'held' },
  tef: { accepted: false, state: 'rejected' },
  tel: { accepted: false, state: 'rejected' },
  tem: { accepted: false, state: 'rejected' },
};

/** The row of an engine result; a result of no known class is taken as never applied (tem). */
export function submitOutcome(engineResult: string): SubmitOutcome {
  const prefix = engineResult.slice(0, 3);
  const submitClass: SubmitClass =
    engineResult === 'terQUEUED' ? 'terQUEUED' : prefix === 'tes' || prefix === 'tec' || prefix === 'ter' || prefix === 'tef' || prefix === 'tel' ? prefix : 'tem';
  return { class: submitClass, ...SUBMIT_OUTCOMES[submitClass] };
}
