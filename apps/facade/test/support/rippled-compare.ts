/**
 * Field-by-field comparison of two rippled answers to the same request: every value that differs,
 * every field one side has and the other lacks, each named by its JSON path, and a short explicit
 * list of differences that are intended (each with its reason) that a comparison may forgive.
 */
import type { Json } from './rippled-node';

/** Marks a field one side does not have. */
export const ABSENT = '(absent)';

export interface Difference {
  /** The request that was sent (its `command` and parameters). */
  readonly request: Json;
  /** JSON path of the field inside the answer, e.g. `$.result.ledger.transactions[0].hash`. */
  readonly path: string;
  readonly reference: unknown;
  readonly candidate: unknown;
}

export interface IntendedDifference {
  /** The command it applies to, or `*` for every command. */
  readonly command: string;
  /** The JSON paths it forgives. */
  readonly path: RegExp;
  /** Narrows it further (e.g. to one API version, or to a field only one side has). */
  readonly when?: (difference: Difference) => boolean;
  /** Why the two servers answer differently there. */
  readonly reason: string;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The path of a member: `.name` for identifiers, `["…"]` otherwise. */
function memberPath(path: string, key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

/** Every leaf where `candidate` differs from `reference` (types, values, missing or extra fields and array members). */
export function differences(reference: unknown, candidate: unknown, request: Json, path = '$'): Difference[] {
  if (Array.isArray(reference) && Array.isArray(candidate)) {
    const found: Difference[] = [];
    for (let index = 0; index < Math.max(reference.length, candidate.length); index++) {
      const at = `${path}[${index}]`;
      if (index >= candidate.length) found.push({ request, path: at, reference: reference[index], candidate: ABSENT });
      else if (index >= reference.length) found.push({ request, path: at, reference: ABSENT, candidate: candidate[index] });
      else found.push(...differences(reference[index], candidate[index], request, at));
    }
    return found;
  }
  if (isObject(reference) && isObject(candidate)) {
    const keys = [...new Set([...Object.keys(reference), ...Object.keys(candidate)])].sort();
    return keys.flatMap((key) => {
      const at = memberPath(path, key);
      if (!Object.hasOwn(candidate, key)) return [{ request, path: at, reference: reference[key], candidate: ABSENT }];
      if (!Object.hasOwn(reference, key)) return [{ request, path: at, reference: ABSENT, candidate: candidate[key] }];
      return differences(reference[key], candidate[key], request, at);
    });
  }
  return Object.is(reference, candidate) ? [] : [{ request, path, reference, candidate }];
}

/** The intended difference that forgives `difference`, if any. */
export function intendedFor(difference: Difference, intended: readonly IntendedDifference[]): IntendedDifference | undefined {
  const command = String(difference.request.command);
  return intended.find(
    (entry) => (entry.command === '*' || entry.command === command) && entry.path.test(difference.path) && (entry.when?.(difference) ?? true),
  );
}

const shown = (value: unknown) => {
  const text = value === ABSENT ? ABSENT : JSON.stringify(value);
  return text === undefined ? 'undefined' : text.length > 160 ? `${text.slice(0, 157)}...` : text;
};

/** One line per difference (the first `maxLines`): the request, the path, both values, and the reason when intended. */
export function describeDifferences(found: readonly Difference[], intended: readonly IntendedDifference[], maxLines = 40): string {
  const lines = found.slice(0, maxLines).map((difference) => {
    const reason = intendedFor(difference, intended)?.reason;
    return `${reason === undefined ? 'UNLISTED' : 'intended'} ${JSON.stringify(difference.request)} ${difference.path}: reference ${shown(difference.reference)}, candidate ${shown(difference.candidate)}${reason === undefined ? '' : ` (${reason})`}`;
  });
  if (found.length > maxLines) lines.push(`… and ${found.length - maxLines} more`);
  return lines.join('\n');
}

/** The differences grouped by command and path (array positions as `[*]`), most frequent first, with a count and one example each. */
export function summarizeDifferences(found: readonly Difference[], intended: readonly IntendedDifference[]): string {
  const groups = new Map<string, { count: number; example: Difference }>();
  for (const difference of found) {
    const listed = intendedFor(difference, intended) === undefined ? 'UNLISTED' : 'intended';
    const key = `${listed} ${String(difference.request.command)}${difference.request.over === 'http' ? ' (HTTP)' : ''} ${difference.path.replace(/\[\d+\]/g, '[*]')}`;
    const group = groups.get(key);
    if (group) group.count++;
    else groups.set(key, { count: 1, example: difference });
  }
  return [...groups.entries()]
    .sort(([, a], [, b]) => b.count - a.count)
    .map(([key, { count, example }]) => `${String(count).padStart(5)} × ${key} — e.g. reference ${shown(example.reference)}, candidate ${shown(example.candidate)}`)
    .join('\n');
}

/** The JSON type of a value as rippled's clients read it. */
export function jsonType(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

/**
 * The answer reduced to its shape: every leaf replaced by its JSON type, arrays by the shape of
 * their first member. For answers about a live server (server_info, fee) whose values differ
 * between any two servers but whose fields and types a client reads.
 */
export function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.length === 0 ? [] : [shapeOf(value[0])];
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, shapeOf(member)]));
  return jsonType(value);
}
