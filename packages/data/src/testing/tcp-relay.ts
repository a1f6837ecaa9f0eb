import { once } from 'node:events';
import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP relay in front of a server (Redis, PostgreSQL) that a test can cut (`down`), restore (`up`)
 * or freeze: while frozen, bytes are dropped but the connections stay open, so nothing answers, as in
 * a network partition or a stopped server.
 */
export class TcpRelay {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private frozen = false;
  port = 0;

  constructor(
    private readonly host: string,
    private readonly targetPort: number,
  ) {}

  async up(): Promise<void> {
    this.server = createServer((client) => {
      const upstream = connect(this.targetPort, this.host);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('error', () => {});
        s.on('close', () => this.sockets.delete(s));
      }
      client.on('data', (d) => this.frozen || upstream.write(d));
      upstream.on('data', (d) => this.frozen || client.write(d));
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    this.server.listen(this.port, '127.0.0.1');
    await once(this.server, 'listening');
    this.port = (this.server.address() as { port: number }).port;
  }

  freeze(frozen: boolean): void {
    this.frozen = frozen;
  }

  async down(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise((r) => server.close(r));
  }
}
