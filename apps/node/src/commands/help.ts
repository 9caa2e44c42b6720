import {
  accountOptions,
  apiOptions,
  devnetOptions,
  envVariable,
  flagGroups,
  helpEntry,
  limitOptions,
  renderFlagHelp,
  securityOptions,
  serviceOptions,
  storageOptions,
  syncOptions,
  verifyOptions,
  wrapParagraph,
  type FlagGroup,
  type ParsedFlags,
} from '@ledger-node/config';

/** Where the commands' texts start in the usage list. */
const COMMAND_COLUMN = 41;

const commands: [string, string][] = [
  ['ledger-node [flags]', 'start the node: every needed service as a child process'],
  ['ledger-node serve <service> [flags]', 'run one service alone: ledger-store, sync, keystore, submission, facade, devnet'],
  ['ledger-node devnet [flags]', 'run a local devnet (a rippled-compatible single-node chain)'],
  ['ledger-node account list [-json]', 'list the local accounts'],
  ['ledger-node account generate [-nickname NAME] [-key_type ed25519]', 'generate a new local account'],
  ['ledger-node verify-state -ledger N', "recompute the stored account state root at ledger N and compare it with the ledger's account_hash (exit 1 if not equal)"],
  [
    'ledger-node verify-proof FILE [-validator_list_keys KEY[,KEY]]',
    'verify a proof of a transaction (XPOP, XLS-41) or of account state offline, step by step (see ledger-node verify-proof --help)',
  ],
  ['ledger-node probe <service>', 'ask ledger-store, keystore, submission or sync for its health (gRPC, over mutual TLS on TCP); exit 0 when SERVING'],
  ['ledger-node export FILE|-', 'write every ledger of the store (the node stopped) to FILE or stdout as a ledger stream (see ledger-node export --help)'],
  ['ledger-node import FILE', 'verify every ledger of a ledger stream and store it, e.g. to move RocksDB to PostgreSQL (see ledger-node import --help)'],
  ['ledger-node version', 'print the version, the git commit and the Node.js version (also --version)'],
];

const usageList = (entries: readonly [string, string][], width: number) => entries.map(([usage, text]) => helpEntry(usage, text, COMMAND_COLUMN, width)).join('\n');

function flagSources(width: number): string {
  return wrapParagraph(
    `Flags take one dash or two: -flag value, -flag=value; booleans -sync, -sync=false. Every flag can also be set in the environment as LEDGER_NODE_<FLAG> (${envVariable('rpcport')}=7545) or in the file -config names (TOML or JSON, keyed by flag name: rpcport = 7545). Where several set a flag, the command line wins over the environment, the environment over the file, the file over the default. A flag that is set shows [its value from where] after its default.`,
    width,
  );
}

/** The CLI's --help, wrapped to `width`; given the parsed flags, each set flag shows its value and where it came from. */
export function helpText(flags: ParsedFlags | undefined, width: number): string {
  return `${wrapParagraph('ledger-node: a verified ledger node for XRP-Ledger-derived chains (XRP Ledger, Jingtum/SWTC)', width)}

Usage:
${usageList(commands, width)}

${flagSources(width)}

${renderFlagHelp(flagGroups, flags, width)}

Environment:
${[
  ['LEDGER_NODE_<FLAG>', `a flag's value (above); ${envVariable('config')} names a -config file`],
  ['LEDGER_NODE_PASSWORD', 'keystore passphrase (when -password_file is not given; not a flag)'],
  ['OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_*', 'OpenTelemetry export (off when unset)'],
]
  .map(([name, text]) => helpEntry(name!, text!, 27, width))
  .join('\n')}
`;
}

interface CommandPage {
  usage: [string, string][];
  /** The flag groups that are this command's own; the general ones are in ledger-node --help. */
  groups: readonly FlagGroup[];
}

/** The flags each service run alone has of its own (`ledger-node serve <service> --help`). */
const serviceGroups: Record<string, readonly FlagGroup[]> = {
  'ledger-store': [storageOptions, serviceOptions],
  sync: [syncOptions, serviceOptions],
  keystore: [accountOptions, serviceOptions],
  submission: [serviceOptions],
  facade: [apiOptions, securityOptions, limitOptions, serviceOptions],
  devnet: [devnetOptions],
};

const commandOf = (prefix: string) => commands.filter(([usage]) => usage.startsWith(`ledger-node ${prefix}`));

/** The page of `ledger-node <command> --help` for a command whose page is made of its flag groups. */
function commandPage(positionals: readonly string[]): CommandPage | undefined {
  const [command, service] = positionals;
  switch (command) {
    case 'account':
      return { usage: commandOf('account'), groups: [accountOptions] };
    case 'devnet':
      return { usage: commandOf('devnet'), groups: [devnetOptions] };
    case 'verify-state':
      return { usage: commandOf('verify-state'), groups: [verifyOptions, storageOptions] };
    case 'probe':
      return { usage: commandOf('probe'), groups: [serviceOptions] };
    case 'serve': {
      const groups = service === undefined ? undefined : serviceGroups[service];
      if (groups === undefined) return { usage: commandOf('serve'), groups: [serviceOptions] };
      return { usage: [[`ledger-node serve ${service} [flags]`, `run the ${service} service alone`]], groups };
    }
    default:
      return undefined;
  }
}

/** `ledger-node <command> --help` for account, devnet, verify-state, probe and serve [service]; undefined for any other. */
export function commandHelpText(positionals: readonly string[], flags: ParsedFlags | undefined, width: number): string | undefined {
  const page = commandPage(positionals);
  if (page === undefined) return undefined;
  return `Usage:
${usageList(page.usage, width)}

${renderFlagHelp(page.groups, flags, width)}

${wrapParagraph('The flags every command takes (-config, -data_dir, -chain, -network_id, -log_level, the addresses and TLS files of the services, …) and where a flag can be set: ledger-node --help.', width)}
`;
}
