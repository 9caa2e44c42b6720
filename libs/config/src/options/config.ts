import { stringFlag, type FlagGroup } from '../flag';

/**
 * Where flag values come from besides the command line. The file's keys are flag names, its values
 * checked as the same flags on the command line (parse.ts); LEDGER_NODE_<FLAG> overrides it, a flag
 * on the command line overrides both.
 */
export const configOptions: FlagGroup = {
  title: 'Configuration (each flag also as LEDGER_NODE_<FLAG> or in -config; command line > environment > file > default)',
  flags: [
    stringFlag({
      name: 'config',
      description:
        'TOML (.toml) or JSON (.json) file of flag values keyed by flag name, e.g. rpcport = 7545; secrets stay in the files the *_file flags name',
      default: undefined,
      valueName: 'FILE',
    }),
  ],
};
