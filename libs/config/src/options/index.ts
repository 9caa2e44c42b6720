import type { FlagGroup, FlagSpec } from '../flag';
import { accountOptions } from './account';
import { devnetOptions } from './devnet';
import { apiOptions, nodeOptions, syncOptions } from './node';
import { securityOptions } from './security';
import { serviceOptions } from './services';

export { chainIdChoices } from './shared';

/** Every flag of every command, in the order --help shows them. */
export const flagGroups: readonly FlagGroup[] = [nodeOptions, syncOptions, apiOptions, securityOptions, serviceOptions, accountOptions, devnetOptions];

export const allFlags: readonly FlagSpec[] = flagGroups.flatMap((group) => group.flags);
