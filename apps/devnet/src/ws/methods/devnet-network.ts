/**
 * The devnet's controls of the network it plays (devnet only, like `ledger_accept`):
 * - `devnet_network`: the publisher, its site and list, and each validator (keys, manifest
 *   sequence, online, revoked, on the negative UNL of the newest validated ledger);
 * - `devnet_validator {validator, action}`: rotate its signing key, revoke its master key, take it
 *   offline or bring it back;
 * - `devnet_publish {sequence?, version?, expiration?, effective?, validators?, pending?}`: publish
 *   a new list (times in seconds from now, negative for the past).
 */
import { keylet } from '@ledger-node/chain';
import { invalidField, isJsonObject, missingField, type JsonObject } from '@ledger-node/rippled-api';
import { negativeUnlState, type NegativeUnlState } from '../../engine/negative-unl';
import type { PublishRequest } from '../../network/network';
import type { LedgerSource } from '../ledger-source';
import type { MethodHandler } from './context';

/** The NegativeUNL object of the newest validated ledger, when its state is held. */
export function validatedNegativeUnl(source: LedgerSource): NegativeUnlState | undefined {
  const ledger = source.validatedLedger();
  if (!ledger || !source.holdsState(ledger.header.ledgerIndex)) return undefined;
  const entry = source.stateEntry(keylet.negativeUnl(), ledger.header.ledgerIndex);
  return entry === undefined ? undefined : negativeUnlState(entry.json);
}

function readInteger(request: JsonObject, field: string, label = field): number | undefined {
  const value = request[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw invalidField(label, 'integer');
  return value;
}

export const devnetNetwork: MethodHandler = ({ source, network }) => network.describe(validatedNegativeUnl(source));

const ACTIONS = ['rotate', 'revoke', 'offline', 'online'] as const;
type ValidatorAction = (typeof ACTIONS)[number];

export const devnetValidator: MethodHandler = ({ request, source, network }) => {
  const index = readInteger(request, 'validator');
  if (index === undefined) throw missingField('validator');
  const validator = network.validator(index);
  const action = request.action;
  if (action === undefined) throw missingField('action');
  if (typeof action !== 'string' || !(ACTIONS as readonly string[]).includes(action)) throw invalidField('action', ACTIONS.join(', '));
  switch (action as ValidatorAction) {
    case 'rotate':
      network.rotate(validator.index);
      break;
    case 'revoke':
      network.revoke(validator.index);
      break;
    case 'offline':
      network.setOnline(validator.index, false);
      break;
    case 'online':
      network.setOnline(validator.index, true);
      break;
  }
  const described = network.describe(validatedNegativeUnl(source)).validators as JsonObject[];
  return { validator: described[validator.index] };
};

function readPublishRequest(request: JsonObject): PublishRequest {
  const publish: PublishRequest = {};
  const sequence = readInteger(request, 'sequence');
  if (sequence !== undefined) publish.sequence = sequence;
  const version = readInteger(request, 'version');
  if (version !== undefined) {
    if (version !== 1 && version !== 2) throw invalidField('version', '1 or 2');
    publish.version = version;
  }
  const expiration = readInteger(request, 'expiration');
  if (expiration !== undefined) publish.expiration = expiration;
  const effective = readInteger(request, 'effective');
  if (effective !== undefined) publish.effective = effective;
  if (request.validators !== undefined) {
    const validators = request.validators;
    if (!Array.isArray(validators) || !validators.every((index) => typeof index === 'number' && Number.isSafeInteger(index))) {
      throw invalidField('validators', 'an array of validator indexes');
    }
    publish.validators = validators as number[];
  }
  if (request.pending !== undefined) {
    const pending = request.pending;
    if (!isJsonObject(pending)) throw invalidField('pending', 'object');
    const pendingEffective = readInteger(pending, 'effective', 'pending.effective');
    if (pendingEffective === undefined) throw missingField('pending.effective');
    publish.pending = { effective: pendingEffective };
    const pendingSequence = readInteger(pending, 'sequence', 'pending.sequence');
    if (pendingSequence !== undefined) publish.pending.sequence = pendingSequence;
    const pendingExpiration = readInteger(pending, 'expiration', 'pending.expiration');
    if (pendingExpiration !== undefined) publish.pending.expiration = pendingExpiration;
  }
  return publish;
}

export const devnetPublish: MethodHandler = ({ request, network }) => {
  const list = network.publish(readPublishRequest(request));
  return { list, document: network.document };
};
