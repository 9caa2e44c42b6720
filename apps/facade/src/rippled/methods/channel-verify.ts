/** rippled `channel_verify`: a payment-channel claim's signature checked; no ledger is read. */
import { channelVerify as verifyClaim } from '@ledger-node/rippled-api';
import type { RippledMethod } from '../method';

export const channelVerify: RippledMethod = async ({ params }, { profile }) => verifyClaim(params, profile);
