import { FlagError, type ParsedFlags } from '@ledger-node/config';

/** `account list` and `account generate`: the keystore's local accounts. */
export async function runAccountCommand(args: string[], _flags: ParsedFlags): Promise<number> {
  const [action, ...extra] = args;
  if (action !== 'list' && action !== 'generate') {
    throw new FlagError('account needs a command: list or generate');
  }
  if (extra.length > 0) throw new FlagError(`unexpected argument "${extra[0]}" (see --help)`);
  process.stderr.write(`ledger-node: account ${action} is not yet available in this version\n`);
  return 1;
}
