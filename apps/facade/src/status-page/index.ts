import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type Koa from 'koa';

/** The page as served, and the Content-Security-Policy that lets only its own inline script and style run. */
export interface StatusPageDocument {
  html: string;
  contentSecurityPolicy: string;
}

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The one inline block of `tag` in the page; CSP hashes cover exactly the text between the tags. */
function inlineBlock(html: string, tag: 'script' | 'style'): string {
  const blocks = [...html.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'g'))];
  if (blocks.length !== 1) throw new Error(`the status page must hold exactly one inline <${tag}>, found ${blocks.length}`);
  return blocks[0]![1]!;
}

export function loadStatusPage(): StatusPageDocument {
  const html = readFileSync(new URL('./page.html', import.meta.url), 'utf8');
  // Nothing outside the page itself: no external script, style, font, image or frame, and fetch
  // only to this origin (the REST API under /v1 beside it).
  const contentSecurityPolicy = [
    "default-src 'none'",
    `script-src ${sha256(inlineBlock(html, 'script'))}`,
    `style-src ${sha256(inlineBlock(html, 'style'))}`,
    "connect-src 'self'",
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  return { html, contentSecurityPolicy };
}

/**
 * `GET /`: a status page (sync state, stored range, latest ledgers, search by ledger, transaction
 * or account) that reads the REST API from the browser. Other paths pass through.
 */
export function statusPage(document: StatusPageDocument = loadStatusPage()): Koa.Middleware {
  return async (ctx, next) => {
    if (ctx.path !== '/') return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.status = 405;
      ctx.set('Allow', 'GET, HEAD');
      ctx.body = { error: { code: 'method_not_allowed', message: `method ${ctx.method} not allowed on /: use GET` } };
      return;
    }
    ctx.set({
      'Content-Security-Policy': document.contentSecurityPolicy,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': 'no-cache',
    });
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = document.html;
  };
}
