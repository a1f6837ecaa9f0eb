import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dialects, type Harness, harness, seedBook } from './helpers.js';

// decisions.md §1 (the store under /res/, "with range requests"): a download whose client stops reading
// makes no progress either way, and must not hold its socket and file handle for good, nor keep
// SIGTERM waiting. README: SOCKET_IDLE_TIMEOUT_MS, SHUTDOWN_TIMEOUT_MS.
const openFds = () => readdirSync('/proc/self/fd').length;

describe.each(dialects.slice(0, 1))('a client that stops reading a /res/ download ($name)', (dialect) => {
  let t: Harness | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  /**
   * Asks for a 32 MiB book over a real socket and never reads it; resolves once the answer began.
   * `closed`: when the server let go of its end (the client, paused, would not see it).
   */
  async function stalledDownload(
    env: Record<string, string>,
  ): Promise<{ sock: Socket; closed: Promise<number>; fds: number }> {
    t = await harness(dialect, env);
    mkdirSync(join(t.storage, 'epub'), { recursive: true });
    writeFileSync(join(t.storage, 'epub', 'big.epub'), Buffer.alloc(32 * 1024 * 1024, 7));
    await seedBook(t, { file_name: 'big', file_path: 'epub/big.epub' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const fds = openFds();
    const started = Date.now();
    const closed = new Promise<number>((resolve) =>
      t!.app.server.once('connection', (s: Socket) => s.on('close', () => resolve(Date.now() - started))),
    );
    const sock = connect((t.app.server.address() as { port: number }).port, '127.0.0.1');
    sock.on('error', () => {});
    await new Promise((r) => sock.once('connect', r));
    sock.write('GET /res/epub/big.epub HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise((r) => sock.once('readable', r));
    sock.pause(); // from here on the client takes nothing: both socket buffers fill and stay full
    return { sock, closed, fds };
  }

  it('its connection and file handle are let go once nothing moved for SOCKET_IDLE_TIMEOUT_MS', async () => {
    const { sock, closed, fds } = await stalledDownload({ SOCKET_IDLE_TIMEOUT_MS: '500' });
    const after = await Promise.race([closed, new Promise<number>((r) => setTimeout(() => r(-1), 15_000))]);
    expect(after).toBeGreaterThan(400);
    await new Promise((r) => setTimeout(r, 100));
    // the client's own socket is the one handle more than before the download: no file handle is held
    expect(openFds()).toBeLessThanOrEqual(fds + 1);
    sock.destroy();
  }, 30_000);

  it('closing the service cuts it after SHUTDOWN_TIMEOUT_MS instead of waiting for it', async () => {
    const { sock, closed } = await stalledDownload({
      SOCKET_IDLE_TIMEOUT_MS: '0',
      SHUTDOWN_TIMEOUT_MS: '300',
    });
    const started = Date.now();
    await t!.app.close();
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await closed).toBeGreaterThan(0);
    sock.destroy();
  }, 30_000);
});
