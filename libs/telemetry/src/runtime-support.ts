/**
 * Whether the Node.js running ledger-node still gets security fixes. Node.js 26 (the Active LTS) is
 * what the container image runs and what ledger-node is built for; 24 (maintenance LTS) and 22.12+
 * are supported too. Node.js 20.19+ still runs it (the floor of package.json's `engines`),
 * deprecated: it is end of life since 2026-04-30, and the supervisor says so when it starts
 * (docs/operating.md "Runtime").
 */

/** The Node.js release ledger-node is built and shipped on (the container image's base). */
export const LTS_NODE_MAJOR = 26;

/**
 * The day each release line of Node.js leaves support, from the Node.js release schedule
 * (https://github.com/nodejs/Release): even lines are LTS, odd ones live six months.
 * A line not listed (a newer one) is taken as supported.
 */
const END_OF_LIFE: Readonly<Record<number, string>> = {
  18: '2025-04-30',
  19: '2023-06-01',
  20: '2026-04-30',
  21: '2024-06-01',
  22: '2027-04-30',
  23: '2025-06-01',
  24: '2028-04-30',
  25: '2026-06-01',
  26: '2029-04-30',
};

/**
 * The warning for a Node.js `version` (`v20.19.0`) whose line is end of life on `today`, or
 * undefined while it is supported.
 */
export function runtimeEndOfLife(version: string = process.version, today: Date = new Date()): string | undefined {
  const major = /^v?(\d+)\./.exec(version)?.[1];
  const endOfLife = major === undefined ? undefined : END_OF_LIFE[Number(major)];
  if (endOfLife === undefined || today.getTime() < Date.parse(`${endOfLife}T00:00:00Z`)) return undefined;
  return `Node.js ${version} is end of life since ${endOfLife} and gets no security fixes: run ledger-node on Node.js ${LTS_NODE_MAJOR} (LTS), as its container image does`;
}
