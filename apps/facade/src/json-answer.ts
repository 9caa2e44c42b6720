import type Koa from 'koa';

/** The type of every JSON answer, as Koa's `ctx.type = 'application/json'` spells it. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * Answers 200 with JSON already rendered (or a value Koa renders), without Koa's MIME lookups:
 * `ctx.type =` looks the name up on every answer, and a body set before its type has text/plain
 * looked up as well.
 */
export function answerJson(ctx: Koa.Context, body: unknown): void {
  ctx.status = 200;
  ctx.set('Content-Type', JSON_CONTENT_TYPE);
  ctx.body = body;
}
