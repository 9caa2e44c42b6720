import { chainIds, getProfile, readDefinitionsTable } from '@ledger-node/chain';
import { stringFlag } from '../flag';

/** The chains -chain accepts: every profile of libs/chain, so a new profile needs no change here. */
export const chainIdChoices = chainIds;

export const chainFlag = stringFlag({
  name: 'chain',
  description: `Chain profile: ${chainIds.map((id) => `${id} = ${getProfile(id).displayName}`).join(', ')}`,
  default: 'xrpl',
  choices: chainIdChoices,
});

export const definitionsFlag = stringFlag({
  name: 'definitions',
  description:
    "Binary-format definitions (rippled's definitions.json: types, fields, transaction and ledger-entry types, result codes) replacing the chain profile's own table, e.g. for the fields of an amendment newer than this release",
  default: undefined,
  defaultLabel: "the chain profile's table",
  valueName: 'FILE',
  // The reason without the "-definitions FILE: " the flag's own error line already starts with.
  check: fileCheck((file) => readDefinitionsTable(file), (message, file) => message.replace(`-definitions ${file}: `, '')),
});

/** A flag check that reads the file the flag names: undefined when it reads, else the reason it does not. */
export function fileCheck(read: (file: string) => unknown, reason: (message: string, file: string) => string = (message) => message): (file: string) => string | undefined {
  return (file) => {
    try {
      read(file);
      return undefined;
    } catch (error) {
      return reason((error as Error).message, file);
    }
  };
}

export const logLevelFlag = stringFlag({
  name: 'log_level',
  description: 'Log level: trace, debug, info, warn, error, fatal or silent',
  default: 'info',
  valueName: 'LEVEL',
  choices: ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'],
});
