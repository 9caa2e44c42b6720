/**
 * A result already rendered as JSON (a cached answer, see answer-cache.ts), written into the
 * response as it is: no parse and no second stringify. `T` is the value the JSON holds.
 */
export class RenderedJson<T = unknown> {
  declare readonly value?: T;

  constructor(readonly json: string) {}

  static of<T>(value: T): RenderedJson<T> {
    return new RenderedJson<T>(JSON.stringify(value));
  }
}
