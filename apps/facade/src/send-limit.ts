import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { RateLimited } from '@ledger-node/errors';
import { currentCallScope } from '@ledger-node/grpc';

/**
 * Sends per client (jt_sendTransaction, jt_sendRawTransaction, REST POST /transactions, the
 * rippled API's submit and submit_multisigned): at most `perSecond` a second each (-send_rate; 0:
 * no limit), the client named by its address (caller.ts: behind a trusted proxy, the address it
 * forwards). Every send costs the network a fee and the node a tracked submission, and an unfunded
 * key's blobs cost nothing to make. A client on this host (caller.ts names it `local:`) is the
 * operator's own backend and is not counted, as rippled lets local connections through, unless
 * `includeLocal` (-send_rate_local).
 */
export class SendLimit {
  private readonly limiter: RateLimiterMemory | undefined;

  constructor(
    private readonly perSecond: number,
    private readonly includeLocal = false,
  ) {
    this.limiter = perSecond > 0 ? new RateLimiterMemory({ points: perSecond, duration: 1 }) : undefined;
  }

  /** Takes one send from the current client's allowance, or refuses with when it may send again. */
  async take(): Promise<void> {
    if (!this.limiter) return;
    try {
      const scope = currentCallScope();
      if (!this.includeLocal && scope?.caller?.startsWith('local:')) return;
      await this.limiter.consume(scope?.address ?? scope?.caller ?? 'unnamed');
    } catch (refusal) {
      if (!(refusal instanceof RateLimiterRes)) throw refusal;
      const retryAfterMs = Math.max(1, refusal.msBeforeNext);
      throw new RateLimited(`too many sends from this client: at most ${this.perSecond} a second (-send_rate); try again in ${retryAfterMs} ms`, {
        retry_after_ms: retryAfterMs,
      });
    }
  }
}
