/**
 * rippled's negative-UNL vote (NegativeUNLVote.cpp), held on the ledger before each flag ledger:
 * each trusted validator scores the validations it sent for the last 256 ledgers; one scoring
 * under the low-water mark (50%) is a candidate to disable while the negative UNL stays under a
 * quarter of the UNL, one on the negative UNL scoring over the high-water mark (80%) a candidate
 * to re-enable (else one no longer trusted at all); one of each is chosen by the parent ledger's
 * hash.
 */
import { createHash } from 'node:crypto';
import { FLAG_LEDGER_INTERVAL } from '@ledger-node/chain';
import type { NegativeUnlState, NegativeUnlVote } from '../engine/negative-unl';

/** rippled negativeUNLLowWaterMark: FLAG_LEDGER_INTERVAL * 50 / 100. */
export const LOW_WATER_MARK = Math.floor((FLAG_LEDGER_INTERVAL * 50) / 100);
/** rippled negativeUNLHighWaterMark: FLAG_LEDGER_INTERVAL * 80 / 100. */
export const HIGH_WATER_MARK = Math.floor((FLAG_LEDGER_INTERVAL * 80) / 100);
/** rippled negativeUNLMaxListed. */
const MAX_LISTED_SHARE = 0.25;

export interface VoteInput {
  /** The trusted validators' master keys, uppercase hex. */
  unl: ReadonlySet<string>;
  /** Validations of each trusted master key over the scored ledgers (absent: none). */
  scores: ReadonlyMap<string, number>;
  /** The parent ledger's NegativeUNL object. */
  negativeUnl: NegativeUnlState;
  parentHash: string;
}

/** rippled calcNodeID: RIPEMD-160 of SHA-256 of the public key. */
export function nodeIdOf(publicKeyHex: string): Buffer {
  return createHash('ripemd160').update(createHash('sha256').update(Buffer.from(publicKeyHex, 'hex')).digest()).digest();
}

/** rippled NegativeUNLVote::choose: the candidate whose NodeID XOR the hash's first 20 bytes is least. */
export function chooseCandidate(parentHash: string, candidates: readonly string[]): string | undefined {
  const pad = Buffer.from(parentHash, 'hex').subarray(0, 20);
  const distance = (key: string) => Buffer.from(nodeIdOf(key).map((byte, position) => byte ^ pad[position]!));
  let chosen: { key: string; distance: Buffer } | undefined;
  for (const key of candidates) {
    const candidate = { key, distance: distance(key) };
    if (chosen === undefined || Buffer.compare(candidate.distance, chosen.distance) < 0) chosen = candidate;
  }
  return chosen?.key;
}

export function negativeUnlVote(input: VoteInput): NegativeUnlVote {
  const { unl, scores } = input;
  // The negative UNL as the flag ledger will hold it (rippled: "build next negUnl").
  const next = new Set(input.negativeUnl.disabled);
  if (input.negativeUnl.toDisable !== undefined) next.add(input.negativeUnl.toDisable);
  if (input.negativeUnl.toReEnable !== undefined) next.delete(input.negativeUnl.toReEnable);

  const listed = [...unl].filter((key) => next.has(key)).length;
  const canAdd = listed < Math.ceil(unl.size * MAX_LISTED_SHARE);
  const toDisable: string[] = [];
  let toReEnable: string[] = [];
  for (const key of unl) {
    const score = scores.get(key) ?? 0;
    if (canAdd && score < LOW_WATER_MARK && !next.has(key)) toDisable.push(key);
    if (score > HIGH_WATER_MARK && next.has(key)) toReEnable.push(key);
  }
  // A validator the network no longer trusts leaves the negative UNL.
  if (toReEnable.length === 0) toReEnable = [...next].filter((key) => !unl.has(key));

  const vote: NegativeUnlVote = {};
  const disable = chooseCandidate(input.parentHash, toDisable);
  const reEnable = chooseCandidate(input.parentHash, toReEnable);
  if (disable !== undefined) vote.disable = disable;
  if (reEnable !== undefined) vote.reEnable = reEnable;
  return vote;
}
