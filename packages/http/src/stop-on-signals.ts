import type { FastifyBaseLogger } from 'fastify';

export interface StopOptions {
  /** the service's logger once it runs; before that a stop writes no line */
  log: () => FastifyBaseLogger | undefined;
  /** stops taking requests, lets those in flight finish (SHUTDOWN_TIMEOUT_MS), then closes the database */
  close: () => Promise<void>;
  /** process.exit, which flushes the log destination first (pino's exit hook) */
  exit?: (code: number) => void;
}

/**
 * SIGTERM (systemd's stop) and SIGINT (Ctrl-C) stop the process once: a `closing` line, the close, then
 * `closed` with how long the drain took, and exit 0; a close that fails writes `close failed` at error
 * and exits 1. The last line tells whoever reads the journal a clean stop from a crash. Returns whether
 * a stop has begun, for a start that must not go on meanwhile.
 */
export function stopOnSignals(opts: StopOptions): () => boolean {
  const exit = opts.exit ?? ((code: number) => process.exit(code));
  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    const began = performance.now();
    const ms = () => Math.round(performance.now() - began);
    opts.log()?.info({ signal }, 'closing');
    try {
      await opts.close();
    } catch (err) {
      opts.log()?.error({ signal, ms: ms(), err }, 'close failed');
      return exit(1);
    }
    opts.log()?.info({ signal, ms: ms() }, 'closed');
    exit(0);
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => void stop(signal));
  return () => stopping;
}
