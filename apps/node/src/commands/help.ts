import { envVariable, flagGroups, renderFlagHelp, type ParsedFlags } from '@ledger-node/config';

/** The CLI's --help; given the parsed flags, each set flag shows its value and where it came from. */
export function helpText(flags?: ParsedFlags): string {
  return `ledger-node: a verified ledger node for XRP-Ledger-derived chains (XRP Ledger, Jingtum/SWTC)

Usage:
  ledger-node [flags]                    start the node: every needed service as a child process
  ledger-node serve <service> [flags]    run one service alone: ledger-store, sync, keystore, submission, facade, devnet
  ledger-node devnet [flags]             run a local devnet (a rippled-compatible single-node chain)
  ledger-node account list [-json]       list the local accounts
  ledger-node account generate [-nickname NAME] [-key_type ed25519]
                                         generate a new local account
  ledger-node verify-state -ledger N     recompute the stored account state root at ledger N and
                                         compare it with the ledger's account_hash (exit 1 if not equal)
  ledger-node verify-proof FILE [-validator_list_keys KEY[,KEY]]
                                         verify a proof of a transaction (XPOP, XLS-41) or of account
                                         state offline, step by step (see ledger-node verify-proof --help)
  ledger-node probe <service>            ask ledger-store, keystore, submission or sync for its health
                                         (gRPC, over mutual TLS on TCP); exit 0 when SERVING
  ledger-node export FILE|-              write every ledger of the store (the node stopped) to FILE or
                                         stdout as a ledger stream (see ledger-node export --help)
  ledger-node import FILE                verify every ledger of a ledger stream and store it, e.g. to move
                                         RocksDB to PostgreSQL (see ledger-node import --help)
  ledger-node version                    print the version, the git commit and the Node.js version (also --version)

Flags take one dash or two: -flag value, -flag=value; booleans -sync, -sync=false.
Every flag can also be set in the environment as LEDGER_NODE_<FLAG> (${envVariable('rpcport')}=7545)
or in the file -config names (TOML or JSON, keyed by flag name: rpcport = 7545). Where several set a
flag, the command line wins over the environment, the environment over the file, the file over the
default. A flag that is set shows [its value from where] after its default.

${renderFlagHelp(flagGroups, flags)}

Environment:
  LEDGER_NODE_<FLAG>       a flag's value (above); ${envVariable('config')} names a -config file
  LEDGER_NODE_PASSWORD     keystore passphrase (when -password_file is not given; not a flag)
  OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_*   OpenTelemetry export (off when unset)
`;
}
