/** rippled `channel_verify`: a payment-channel claim's signature checked; no ledger is read. */
import { channelVerify as verifyClaim } from '@ledger-node/rippled-api';
import type { MethodHandler } from './context';

export const channelVerify: MethodHandler = ({ request, source }) => verifyClaim(request, source.profile);
