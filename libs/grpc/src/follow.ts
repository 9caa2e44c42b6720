/**
 * Follows a server stream until stopped: when the stream ends or fails, it is opened again after a
 * backoff (reset by every message), so a restarted service is picked up without intervention.
 */
export function followStream<T>(options: {
  /** Opens the stream (each time anew). */
  open: (signal: AbortSignal) => AsyncIterable<T>;
  onMessage: (message: T) => void;
  /** The stream ended or failed; the next attempt comes after `retryInMs`. */
  onInterrupted?: (error: unknown, retryInMs: number) => void;
  initialDelayMs?: number;
  maxDelayMs?: number;
}): { stop(): void } {
  const abort = new AbortController();
  const initialDelayMs = options.initialDelayMs ?? 250;
  const maxDelayMs = options.maxDelayMs ?? 5_000;
  void (async () => {
    let delayMs = initialDelayMs;
    while (!abort.signal.aborted) {
      let failure: unknown;
      try {
        for await (const message of options.open(abort.signal)) {
          delayMs = initialDelayMs;
          options.onMessage(message);
        }
      } catch (error) {
        failure = error;
      }
      if (abort.signal.aborted) return;
      options.onInterrupted?.(failure, delayMs);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      delayMs = Math.min(delayMs * 2, maxDelayMs);
    }
  })();
  return { stop: () => abort.abort() };
}
