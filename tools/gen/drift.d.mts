/** Files that differ between a fresh generation and the committed contracts, as relative paths. */
export interface Drift {
  /** Generated but not committed. */
  missing: string[];
  /** Committed under gen/ but no longer generated. */
  extra: string[];
  /** Committed with different bytes. */
  changed: string[];
}
/** The files the generator owns inside a contracts src folder (index.ts and gen/**). */
export declare function generatedFiles(contractsSrc: string): string[];
/** Compares a fresh generation with the committed folder, file by file. */
export declare function findDrift(freshSrc: string, committedSrc: string): Drift;
/** True when the drift report lists no file. */
export declare function hasDrift(drift: Drift): boolean;
/** One line per differing file, prefixed by what differs. */
export declare function describeDrift(drift: Drift): string[];
