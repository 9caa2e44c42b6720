/**
 * A small seeded random source and the draws a built history makes from it, so that the same seed
 * gives the same accounts, transactions and ledger sizes on every run.
 */

/** mulberry32: 32 bits of state, uniform in [0, 1); enough for picking load, never for keys of value. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

export class Draws {
  constructor(readonly random: () => number) {}

  /** An integer in [min, max]. */
  integer(min: number, max: number): number {
    return min + Math.floor(this.random() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.random() < probability;
  }

  pick<T>(list: readonly T[]): T {
    if (list.length === 0) throw new Error('cannot pick from an empty list');
    return list[Math.floor(this.random() * list.length)]!;
  }

  /** A key of `weights`, each drawn in proportion to its weight. */
  weighted<K extends string>(weights: Readonly<Record<K, number>>): K {
    const entries = Object.entries(weights) as [K, number][];
    const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
    let point = this.random() * total;
    for (const [key, weight] of entries) {
      point -= weight;
      if (point < 0) return key;
    }
    return entries[entries.length - 1]![0];
  }

  /** Spread evenly on a log scale between `min` and `max` (amounts: many small, a few large). */
  logUniform(min: number, max: number): number {
    return min * Math.pow(max / min, this.random());
  }

  /** Erlang with shape 2 and mean 1: the sum of two exponential draws, halved. */
  erlang2(): number {
    return -Math.log((1 - this.random()) * (1 - this.random())) / 2;
  }

  /** `length` random bytes. */
  bytes(length: number): Uint8Array {
    return Uint8Array.from({ length }, () => Math.floor(this.random() * 256));
  }

  hex(byteLength: number): string {
    return Buffer.from(this.bytes(byteLength)).toString('hex').toUpperCase();
  }
}
