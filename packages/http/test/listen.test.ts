import { createServer, type Server } from 'node:net';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { assertCanListen, listenAdvice, listenOn } from '../src/index.js';

describe('a refused listen says which setting to change', () => {
  const apps: Array<ReturnType<typeof Fastify>> = [];
  const taken: Server[] = [];
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
    for (const server of taken.splice(0)) await new Promise((resolve) => server.close(resolve));
  });
  const app = () => {
    const made = Fastify();
    apps.push(made);
    return made;
  };
  const refusal = (host: string, port: number, variable: string) =>
    listenOn(app(), host, port, variable).then(
      () => 'listened',
      (err: Error) => err.message,
    );

  it('a taken port: Node message, then the variable to change', async () => {
    const server = createServer();
    taken.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    expect(await refusal('127.0.0.1', port, 'READER_PORT')).toBe(
      `listen EADDRINUSE: address already in use 127.0.0.1:${port}: another process listens on port ${port}: stop it, or choose another port with READER_PORT`,
    );
  });

  it('a HOST that is no name or no address of this machine names HOST', async () => {
    expect(await refusal('not a host!', 0, 'ADMIN_PORT')).toMatch(
      /^getaddrinfo (ENOTFOUND|EAI_AGAIN) not a host!: HOST "not a host!" is not a name this machine resolves: set HOST to one of its addresses/,
    );
    // TEST-NET-1 (RFC 5737): an address no machine of a test run holds
    expect(await refusal('192.0.2.1', 0, 'ADMIN_PORT')).toMatch(
      /^listen EADDRNOTAVAIL: .*: HOST 192\.0\.2\.1 is not an address of this machine: set HOST to one of its addresses/,
    );
  });

  it('a privileged port (refused to a user that is not root, so not provoked here) points above 1023', () => {
    const refused = Object.assign(new Error('listen EACCES: permission denied 0.0.0.0:80'), {
      code: 'EACCES',
    });
    expect(listenAdvice(refused, '0.0.0.0', 80, 'READER_PORT')).toBe(
      'port 80 needs privileges this user lacks: choose a port above 1023 with READER_PORT (a proxy in front listens on 80 or 443)',
    );
    expect(listenAdvice(new Error('something else'), '0.0.0.0', 80, 'READER_PORT')).toBeUndefined();
  });

  it('assertCanListen refuses in the same words before anything is built, and leaves a free port free', async () => {
    const server = createServer();
    taken.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await expect(assertCanListen('127.0.0.1', port, 'ADMIN_PORT')).rejects.toThrow(
      `listen EADDRINUSE: address already in use 127.0.0.1:${port}: another process listens on port ${port}: stop it, or choose another port with ADMIN_PORT`,
    );
    await expect(assertCanListen('192.0.2.1', 0, 'ADMIN_PORT')).rejects.toThrow(
      /HOST 192\.0\.2\.1 is not an address of this machine/,
    );
    // a port it could bind is let go at once: the service's own listen takes it next
    await new Promise((resolve) => server.close(resolve));
    taken.splice(0);
    await assertCanListen('127.0.0.1', port, 'ADMIN_PORT');
    expect(await listenOn(app(), '127.0.0.1', port, 'ADMIN_PORT')).toBe(`http://127.0.0.1:${port}`);
  });

  it('listens as app.listen does, resolving with the address', async () => {
    expect(await listenOn(app(), '127.0.0.1', 0, 'READER_PORT')).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });
});
