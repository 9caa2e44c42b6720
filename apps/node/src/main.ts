/**
 * The CLI: flags, then the command. Each command's module is imported when that command runs, so
 * that a process loads what its command needs (`--version` no gRPC, a service no account command,
 * the supervisor no service), and gRPC only where a command uses it.
 */
import { allFlags, checkSecretFiles, FlagError, helpWidth, parseFlags, readTlsFiles } from '@ledger-node/config';
import { isLedgerNodeError } from '@ledger-node/errors';
import { setLogFormat, type LogFormat } from '@ledger-node/telemetry';
import { commandHelpText, helpText } from './commands/help';
import { versionText } from './commands/version';
import { isServiceName, serviceNames } from './services';

const program = 'ledger-node';
/** The commands with a help page of their own (`ledger-node export --help`, `ledger-node help import`). */
const commandHelp = new Map<string, () => Promise<string>>([
  ['export', async () => (await import('./commands/export')).exportHelp],
  ['import', async () => (await import('./commands/import')).importHelp],
  ['verify-proof', async () => (await import('./commands/verify-proof')).verifyProofHelp],
]);

async function main(argv: string[]): Promise<number> {
  // A flag not on the command line may come from LEDGER_NODE_<FLAG> or the -config file.
  const { flags, positionals, help, version } = parseFlags(argv, allFlags, { env: process.env });
  if (version || (positionals[0] === 'version' && !help)) {
    rejectExtra(version ? positionals : positionals.slice(1));
    process.stdout.write(versionText());
    return 0;
  }
  if (help || positionals[0] === 'help') {
    // `ledger-node export --help`, `ledger-node help import`: the command's own page.
    const topics = positionals[0] === 'help' ? positionals.slice(1) : positionals;
    const width = helpWidth();
    const own = topics[0] === undefined ? undefined : ((await commandHelp.get(topics[0])?.()) ?? commandHelpText(topics, flags, width));
    process.stdout.write(own ?? helpText(flags, width));
    return 0;
  }
  const [command, ...rest] = positionals;
  // Every logger of this process, the supervisor's and a service's alike, in the format asked for.
  setLogFormat(flags.string('log_format') as LogFormat);
  // Secret files are refused before anything starts: too open to others, or a token too short.
  checkSecretFiles(flags);
  // Every gRPC server and client of this process over TCP uses this one identity (none: unix sockets only).
  const tls = readTlsFiles(flags);
  if (tls !== undefined) (await import('@ledger-node/grpc')).useTlsIdentity(tls);
  switch (command) {
    case undefined:
      return (await import('./supervisor/run')).runSupervisor(flags);
    case 'serve': {
      const [service, ...extra] = rest;
      if (!service || !isServiceName(service)) {
        throw new FlagError(`serve needs a service name: ${serviceNames.join(', ')}`);
      }
      rejectExtra(extra);
      return (await import('./commands/serve')).serve(service, flags);
    }
    case 'devnet':
      rejectExtra(rest);
      return (await import('./commands/serve')).serve('devnet', flags);
    case 'account':
      return (await import('./commands/account')).runAccountCommand(rest, flags);
    case 'verify-state':
      return (await import('./commands/verify-state')).runVerifyState(rest, flags);
    case 'verify-proof':
      return (await import('./commands/verify-proof')).runVerifyProof(rest, flags);
    case 'probe':
      return (await import('./commands/probe')).runProbe(rest, flags);
    case 'export':
      return (await import('./commands/export')).runExportCommand(rest, flags);
    case 'import':
      return (await import('./commands/import')).runImportCommand(rest, flags);
    default:
      throw new FlagError(`unknown command "${command}" (see --help)`);
  }
}

function rejectExtra(extra: string[]): void {
  if (extra.length > 0) throw new FlagError(`unexpected argument "${extra[0]}" (see --help)`);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof FlagError || (isLedgerNodeError(error) && error.kind === 'invalid_params')) {
      process.stderr.write(`${program}: ${(error as Error).message}\n`);
      process.exit(2);
    }
    process.stderr.write(`${program}: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
