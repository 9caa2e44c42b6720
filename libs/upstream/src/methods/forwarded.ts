/**
 * The commands the node hands to the upstream whole because they need a live engine (as Clio
 * forwards them): ripple_path_find, path_find, simulate, submit_multisigned. Their answers are
 * handed on, so only their form is checked here (a JSON object); the forwarder bounds their size.
 */
import { z } from 'zod';
import type { CommonParams } from './fields';

export const FORWARDED_COMMANDS = ['ripple_path_find', 'path_find', 'simulate', 'submit_multisigned'] as const;
export type ForwardedCommand = (typeof FORWARDED_COMMANDS)[number];

/** A forwarded request's fields, checked by the forwarder before they are sent. */
export interface ForwardedParams extends CommonParams {
  readonly [field: string]: unknown;
}

export const forwardedResult = z.looseObject({});
export type ForwardedResult = z.infer<typeof forwardedResult>;
