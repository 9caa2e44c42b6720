/** rippled `server_definitions`: the chain profile's binary-codec definitions and their hash; no ledger is read. */
import { serverDefinitions as definitionsAnswer } from '@ledger-node/rippled-api';
import type { RippledMethod } from '../method';

export const serverDefinitions: RippledMethod = async ({ params }, { profile }) => definitionsAnswer(params, profile);
