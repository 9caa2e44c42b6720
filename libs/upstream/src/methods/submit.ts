/** rippled `submit` (submit-only mode): a signed transaction blob handed to the network, with its preliminary result. */
import { z } from 'zod';
import { hex, type CommonParams } from './fields';

export interface SubmitParams extends CommonParams {
  tx_blob: string;
}

export const submitResult = z.looseObject({
  engine_result: z.string(),
  engine_result_code: z.number().int(),
  engine_result_message: z.string(),
  tx_blob: hex.optional(),
});
export type SubmitResult = z.infer<typeof submitResult>;
