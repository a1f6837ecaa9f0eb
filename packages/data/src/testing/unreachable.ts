import { createServer, type Socket } from 'node:net';

/** A PostgreSQL URL on a loopback port nothing listens on (taken from the OS, then released). */
export async function refusingPostgresUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `postgres://postgres@127.0.0.1:${port}/test`;
}

/**
 * A PostgreSQL URL whose server accepts connections and never answers, as behind a network partition
 * that drops packets; `close()` ends it and every connection it took.
 */
export async function silentPostgres(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets: Socket[] = [];
  const server = createServer((socket) => void sockets.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `postgres://postgres@127.0.0.1:${port}/test`,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
