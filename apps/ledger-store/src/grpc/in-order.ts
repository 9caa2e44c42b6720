/**
 * A stream of requests answered one after the other, in the order they came, with the next request
 * read and started while the one before is finished: `start` runs as a request is read (its checks)
 * and answers what finishes it, run once every request before it has finished. A request that fails
 * (in `start` or in finishing) ends the answers with its error after those before it, and nothing
 * after it is finished. At most `held` requests are read and not yet answered. Once `stop` aborts,
 * no request is read any more, and the answers end after those of the requests read.
 */
export async function* inOrder<Req, Res>(requests: AsyncIterable<Req>, held: number, stop: AbortSignal, start: (request: Req) => () => Promise<Res>): AsyncIterable<Res> {
  const answers: Promise<Res>[] = [];
  let previous: Promise<unknown> = Promise.resolve();
  let readerDone = false;
  let readerError: unknown;
  let stopped = false;
  // Wakes the answering loop (a request read, or no more) and the reader (room for another request).
  let wakeAnswers: (() => void) | undefined;
  let wakeReader: (() => void) | undefined;
  const onStop = () => {
    stopped = true;
    wakeAnswers?.();
    wakeReader?.();
  };
  if (stop.aborted) stopped = true;
  else stop.addEventListener('abort', onStop, { once: true });

  // The reader: not awaited by the answers (a client waiting for an answer sends nothing meanwhile).
  void (async () => {
    try {
      for await (const request of requests) {
        if (stopped) break;
        let finish: () => Promise<Res>;
        try {
          finish = start(request);
        } catch (error) {
          finish = () => Promise.reject(error);
        }
        // After the request before it has finished; after one that failed, never (its error stands).
        const answer = previous.then(finish);
        answer.catch(() => undefined);
        previous = answer;
        answers.push(answer);
        wakeAnswers?.();
        while (answers.length >= held && !stopped) await new Promise<void>((resolve) => (wakeReader = resolve));
        if (stopped) break;
      }
    } catch (error) {
      readerError = error;
    } finally {
      readerDone = true;
      wakeAnswers?.();
    }
  })();

  try {
    for (;;) {
      if (answers.length === 0) {
        if (stopped) return;
        if (readerDone) {
          if (readerError !== undefined) throw readerError;
          return;
        }
        await new Promise<void>((resolve) => (wakeAnswers = resolve));
        wakeAnswers = undefined;
        continue;
      }
      const answer = await answers[0]!;
      answers.shift();
      wakeReader?.();
      yield answer;
    }
  } finally {
    // The reader stops at its next request, or when the call ends.
    stop.removeEventListener('abort', onStop);
    onStop();
  }
}
