/**
 * A 1 ms timer re-armed throughout: its longest gap is the longest the event loop was held, which every
 * other request of the service waits out. `stop()` lets the timer fire once more, then reports.
 */
export function watchLoop(): { stop(): Promise<number> } {
  let maxMs = 0;
  let armed = performance.now();
  const timer = setInterval(() => {
    maxMs = Math.max(maxMs, performance.now() - armed - 1);
    armed = performance.now();
  }, 1);
  return {
    async stop() {
      await new Promise((r) => setTimeout(r, 5));
      clearInterval(timer);
      return Math.round(maxMs * 10) / 10;
    },
  };
}
