import { integerFlag, stringFlag, type FlagGroup } from '../flag';
import { parsePortRange } from '../ports';

export const devnetOptions: FlagGroup = {
  title: 'Devnet (ledger-node devnet, and the chain embedded by -dev)',
  flags: [
    stringFlag({ name: 'host', description: 'Address the devnet WebSocket server listens on', default: '127.0.0.1', valueName: 'HOST' }),
    integerFlag({
      name: 'port',
      description: 'Port of the devnet WebSocket server (0: any free port)',
      default: 6006,
      defaultLabel: '6006; with -dev, a free port',
      min: 0,
      max: 65535,
      valueName: 'PORT',
    }),
    stringFlag({
      name: 'port_range',
      description: 'Where a port given as 0 (and the devnet port -dev picks) is chosen, for a host whose jobs each own a range of ports',
      default: undefined,
      defaultLabel: 'any free port',
      valueName: 'LO-HI',
      check: (value) => {
        const range = parsePortRange(value);
        return typeof range === 'string' ? range : undefined;
      },
    }),
    integerFlag({ name: 'close_ms', description: 'Ledger close interval in milliseconds while transactions are pending', default: 1000, min: 10, max: 600_000, valueName: 'MS' }),
    integerFlag({
      name: 'idle_close_ms',
      description: 'Ledger close interval in milliseconds while no transaction is pending (never shorter than -close_ms); tests pass a short one to reach flag ledgers fast',
      default: 5000,
      min: 10,
      max: 600_000,
      valueName: 'MS',
    }),
    stringFlag({ name: 'replay', description: 'Serve the recorded ledgers (JSON files) in this directory instead of a live chain', default: undefined, valueName: 'DIR' }),
    integerFlag({ name: 'replay_rate', description: 'Ledgers per second announced on the ledger stream in replay mode', default: 1, min: 1, max: 100_000, valueName: 'N' }),
    integerFlag({ name: 'open_ledger_limit', description: 'Most transactions one open ledger takes; past it they are queued (terQUEUED) for the next ledgers, as rippled does when the open ledger is full (0: no limit)', default: 0, min: 0, max: 100_000, valueName: 'N' }),
    integerFlag({ name: 'load', description: 'Submit random payments at this many transactions per second (0: off)', default: 0, min: 0, max: 100_000, valueName: 'TPS' }),
    integerFlag({
      name: 'devnet_validators',
      description: 'Validators the devnet runs, each validating every ledger it closes (or replays) with the signing key its manifest names, listed by the devnet\'s validator-list publisher (served at /vl.json)',
      default: 5,
      min: 1,
      max: 32,
      valueName: 'N',
    }),
    stringFlag({
      name: 'devnet_keys',
      description: "Where the devnet keeps its publisher's and validators' keys (made at the first start, mode 0600); unset, they come from public entropy, the same on every devnet",
      default: undefined,
      defaultLabel: 'none (-dev: <data_dir>/devnet/network-keys.json)',
      valueName: 'FILE',
    }),
    stringFlag({
      name: 'devnet_chain',
      description:
        'Where the devnet saves its chain when it stops (every ledger, and the state of the last) and continues it from at its next start; the file is taken as it is read, so a devnet that stops without saving (killed) starts a new chain next time',
      default: undefined,
      defaultLabel: 'none: a new chain at every start (-dev: <data_dir>/devnet/chain.json)',
      valueName: 'FILE',
    }),
    integerFlag({ name: 'load_accounts', description: 'Number of funded accounts the load generator uses', default: 10, min: 2, max: 10_000, valueName: 'N' }),
  ],
};
