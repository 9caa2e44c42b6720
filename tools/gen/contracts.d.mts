/** The repository root; buf and the plugin paths in proto/buf.gen.yaml are relative to it. */
export declare const repoRoot: string;
/** `libs/contracts/src`, relative to an output base. */
export declare const contractsSrcRelative: string;
/** Fails with buf's findings when a proto file breaks the lint rules of proto/buf.yaml. */
export declare function lintProtos(): void;
/** proto/release: the buf images of released contracts. */
export declare const releaseDir: string;
/** The image of the newest release (by version), or undefined when none is recorded. */
export declare function lastRelease(): string | undefined;
/** Fails with buf's findings when the protos under `protoDir` (default proto/) break the release image `against`. */
export declare function checkBreaking(against: string, protoDir?: string): void;
/** Relative paths (POSIX separators, sorted) of every file under a directory; none when it is absent. */
export declare function listFiles(directory: string): string[];
/** Generates the contracts under `<outputBase>/libs/contracts/src` and returns that folder. */
export declare function generateContracts(outputBase: string): string;
/** The index barrel for a folder of generated files. */
export declare function renderIndex(genDir: string): string;
