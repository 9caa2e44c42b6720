import { chainIds, getProfile } from '@ledger-node/chain';
import { stringFlag } from '../flag';

/** The chains -chain accepts: every profile of libs/chain, so a new profile needs no change here. */
export const chainIdChoices = chainIds;

export const chainFlag = stringFlag({
  name: 'chain',
  description: `Chain profile: ${chainIds.map((id) => `${id} = ${getProfile(id).displayName}`).join(', ')}`,
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
