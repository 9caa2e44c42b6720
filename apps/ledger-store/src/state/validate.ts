import type { PutStateObjectsRequest } from '@ledger-node/contracts';
import { InvalidParams } from '@ledger-node/errors';

const KEY_LENGTH = 32;
const ACCOUNT_ID_LENGTH = 20;
/** rippled ledger_data markers are 32-byte keys; other servers' markers stay well below this. */
const MAX_MARKER_BYTES = 1024;
/** A ledger_data page holds at most 2048 objects (rippled Tuning); more in one call is a mistake. */
export const MAX_STATE_OBJECTS_PER_PAGE = 8192;

/** The invariants of one state download page; InvalidParams naming the field. */
export function validateStateObjectsPage(request: PutStateObjectsRequest): void {
  if (!Number.isInteger(request.ledgerIndex) || request.ledgerIndex < 1) {
    throw new InvalidParams(`ledger_index must be a ledger sequence of at least 1, got ${request.ledgerIndex}`, 'ledger_index');
  }
  if (request.objects.length > MAX_STATE_OBJECTS_PER_PAGE) {
    throw new InvalidParams(`objects holds ${request.objects.length} objects; at most ${MAX_STATE_OBJECTS_PER_PAGE} per page`, 'objects');
  }
  if (request.marker.length > MAX_MARKER_BYTES) throw new InvalidParams(`marker must be at most ${MAX_MARKER_BYTES} bytes`, 'marker');
  if (request.complete && request.marker.length > 0) throw new InvalidParams('marker must be empty on the last page (complete)', 'marker');
  if (request.abandon && (request.complete || request.objects.length > 0)) throw new InvalidParams('abandon ends a download: it takes no objects and is not complete', 'abandon');
  const keys = new Set<string>();
  request.objects.forEach((object, position) => {
    const field = `objects[${position}]`;
    if (object.key.length !== KEY_LENGTH) throw new InvalidParams(`${field}.key must be ${KEY_LENGTH} bytes, got ${object.key.length}`, `${field}.key`);
    // A state holds each key once: ledger_data never pages an object twice.
    if (keys.has(object.key.toString('hex'))) throw new InvalidParams(`${field}.key appears twice in the page`, `${field}.key`);
    keys.add(object.key.toString('hex'));
    if (object.blob.length === 0) throw new InvalidParams(`${field}.blob must not be empty`, `${field}.blob`);
    object.ownerAccountIds.forEach((owner, ownerPosition) => {
      if (owner.length !== ACCOUNT_ID_LENGTH) {
        throw new InvalidParams(`${field}.owner_account_ids[${ownerPosition}] must be ${ACCOUNT_ID_LENGTH} bytes, got ${owner.length}`, `${field}.owner_account_ids[${ownerPosition}]`);
      }
    });
  });
}
