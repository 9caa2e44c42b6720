/** rippled `server_definitions`: the chain profile's binary-codec definitions and their hash. */
import { serverDefinitions as definitionsAnswer } from '@ledger-node/rippled-api';
import type { MethodHandler } from './context';

export const serverDefinitions: MethodHandler = ({ request, source }) => definitionsAnswer(request, source.profile);
