/**
 * `ledger-node verify-proof FILE`: verifies a proof document (an XPOP, XLS-41, or a state proof,
 * with or without the later-ledger extension) offline, against the publisher keys given, and
 * prints each step. Exit 0 when every step holds, 1 when the proof is refused, 2 for bad usage or
 * a file that is not a proof document.
 */
import { readFileSync } from 'node:fs';
import { chainNetwork, getProfile } from '@ledger-node/chain';
import { FlagError, type ParsedFlags } from '@ledger-node/config';
import { MalformedProof, verifyProof } from '@ledger-node/proof';

export const verifyProofHelp = `Usage: ledger-node verify-proof FILE [-validator_list_keys KEY[,KEY]] [-chain xrpl|jingtum] [-network_id N]

Verifies a proof document offline: an XPOP (XLS-41, the format Xahau's Import accepts), a state
proof, or either of them for a ledger proven by a later validated one (ledger_proof). Nothing is
asked of any server. The steps, each printed with ok or FAIL:

  ledger         the ledger hash, recomputed from the header fields
  ledger_proof   (a later ledger's proof) the header chain, or the skip list in its state, that
                 links the proven ledger to the validated one
  list           the published list: its manifest names a -validator_list_keys key as master, and
                 its blob is signed by the key that manifest names
  list_in_force  the list was in force at the validated ledger's close time (a proof stays valid
                 after its list expires)
  manifests      the listed validators' manifests, naming their signing keys
  validations    every validation carried verifies: its signature, full, of the recomputed hash
                 and index, signed by its validator's current signing key
  quorum         80% of the listed validators, rounded up, validated the ledger
  transaction    the transaction's leaf (blob, metadata, id) sits on its path, which hashes to txroot
  state          each state entry's leaf sits on its path, which hashes to acroot

  -validator_list_keys KEY[,KEY]  the publishers trusted (master keys, 66 hex digits);
                                  default: the -network_id network's (XRP Ledger mainnet's two,
                                  testnet's one; -network_id defaults to the chain's default network)
  -chain xrpl|jingtum             the chain of the validations and validator keys (default: xrpl)

Exit status: 0 the proof holds; 1 it is refused (the failed steps are named); 2 bad arguments, or
a file that is not a proof document (the field named).
`;

function publisherKeys(flags: ParsedFlags, chain: ReturnType<typeof getProfile>): string[] {
  const given = flags.string('validator_list_keys');
  if (given === 'none') throw new FlagError('verify-proof needs the publisher keys it trusts: -validator_list_keys KEY[,KEY]');
  if (given !== undefined) return given.split(',').map((key) => key.trim().toUpperCase());
  const network = chainNetwork(chain, flags.integer('network_id'));
  if (network === undefined || network.validatorListKeys.length === 0) {
    throw new FlagError(`verify-proof needs -validator_list_keys KEY[,KEY]: no published list is known for ${chain.displayName}${network ? ` ${network.name}` : ''}`);
  }
  return [...network.validatorListKeys];
}

export function runVerifyProof(rest: string[], flags: ParsedFlags): number {
  const [file, ...extra] = rest;
  if (file === undefined) throw new FlagError('verify-proof needs the proof file: ledger-node verify-proof FILE');
  if (extra.length > 0) throw new FlagError(`unexpected argument "${extra[0]}" (see ledger-node verify-proof --help)`);
  const profile = getProfile(flags.string('chain')!, { definitionsFile: flags.string('definitions') });
  // -validator_list_keys' own check has refused any entry that is not a public key.
  const keys = publisherKeys(flags, profile);
  let document: unknown;
  try {
    document = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    const reason = error instanceof SyntaxError ? `is not JSON (${error.message})` : `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
    throw new FlagError(`verify-proof: ${file} ${reason}`);
  }
  let verdict;
  try {
    verdict = verifyProof(document, { publisherKeys: keys, profile });
  } catch (error) {
    if (error instanceof MalformedProof) throw new FlagError(`verify-proof: ${file} is not a proof document: ${error.message}`);
    throw error;
  }
  const width = Math.max(...verdict.steps.map((step) => step.name.length));
  for (const step of verdict.steps) process.stdout.write(`${step.ok ? 'ok  ' : 'FAIL'}  ${step.name.padEnd(width)}  ${step.detail}\n`);
  if (verdict.ok) {
    process.stdout.write(`verify-proof: ${file} holds: every step verified\n`);
    return 0;
  }
  const failedSteps = verdict.steps.filter((step) => !step.ok).map((step) => step.name);
  process.stdout.write(`verify-proof: ${file} is refused: ${failedSteps.join(', ')} failed\n`);
  return 1;
}
