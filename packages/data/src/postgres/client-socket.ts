import type pg from 'pg';

/**
 * How long closing a connection waits for it to end cleanly (its query, or the server's goodbye)
 * before its socket is closed. A service closes its database after its requests had SHUTDOWN_TIMEOUT_MS
 * and were cut: what still runs then answers no one, and on a server that stopped answering it would
 * hold the stop until query_timeout (statement timeout plus a margin), past an orchestrator's grace.
 */
export const CLOSE_GRACE_MS = 1000;

/** The socket under a node-postgres client (`client.connection.stream`, which its types leave out). */
export function socketOf(client: pg.ClientBase): { destroy(): void } | undefined {
  return (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream;
}

/** Runs `closing`; past CLOSE_GRACE_MS, closes the sockets of `clients` still open, which ends it. */
export async function closeWithin(
  closing: Promise<unknown>,
  clients: () => Iterable<pg.ClientBase>,
): Promise<void> {
  const cut = setTimeout(() => {
    for (const client of clients()) socketOf(client)?.destroy();
  }, CLOSE_GRACE_MS);
  try {
    await closing;
  } finally {
    clearTimeout(cut);
  }
}
