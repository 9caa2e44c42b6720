import type { FlagGroup, FlagSpec } from '../flag';
import { accountOptions } from './account';
import { configOptions } from './config';
import { devnetOptions } from './devnet';
import { limitOptions } from './limits';
import { apiOptions, nodeOptions, syncOptions } from './node';
import { observabilityOptions } from './observability';
import { securityOptions } from './security';
import { serviceOptions } from './services';
import { storageOptions } from './storage';
import { verifyOptions } from './verify';

export { chainIdChoices } from './shared';
export { accountOptions, apiOptions, devnetOptions, limitOptions, securityOptions, serviceOptions, storageOptions, syncOptions, verifyOptions };
export { metricsListener, metricsPortOffsets, type MetricsService } from './observability';
export { TRUST_FLAGS } from './node';

/** Every flag of every command, in the order --help shows them. */
export const flagGroups: readonly FlagGroup[] = [configOptions, nodeOptions, storageOptions, syncOptions, apiOptions, securityOptions, limitOptions, observabilityOptions, serviceOptions, accountOptions, devnetOptions, verifyOptions];

export const allFlags: readonly FlagSpec[] = flagGroups.flatMap((group) => group.flags);
