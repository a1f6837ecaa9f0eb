/**
 * One round of requests of a view (a page of the list, a report window): its signal goes to every SDK
 * call of the round, and `current` says whether the round is still the view's latest.
 */
export interface RequestRound {
  readonly signal: AbortSignal;
  readonly current: boolean;
}

/**
 * The latest round only: starting one aborts the calls of the round before (their connections closed,
 * their answers never read), so an answer the operator no longer waits for never replaces a newer one,
 * whatever order the answers come in. A view calls `stop()` when it goes away.
 */
export function latestRequest() {
  let controller: AbortController | undefined;
  return {
    start(): RequestRound {
      controller?.abort();
      const mine = new AbortController();
      controller = mine;
      return {
        signal: mine.signal,
        get current() {
          return controller === mine && !mine.signal.aborted;
        },
      };
    },
    stop(): void {
      controller?.abort();
    },
  };
}
