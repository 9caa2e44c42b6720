import { stringFlag } from '../flag';

export const chainIdChoices = ['xrpl', 'jingtum'] as const;

export const chainFlag = stringFlag({
  name: 'chain',
  description: 'Chain profile: xrpl (XRP Ledger) or jingtum (SWTC)',
  default: 'xrpl',
  choices: chainIdChoices,
});

export const logLevelFlag = stringFlag({
  name: 'log_level',
  description: 'Log level: trace, debug, info, warn, error, fatal or silent',
  default: 'info',
  valueName: 'LEVEL',
  choices: ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'],
});
