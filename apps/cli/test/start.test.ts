import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { countBooks, createDb, deleteBook, insertBook, setDemoState } from '@readlib/data';
import { sampleBook } from '@readlib/data/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawnStart } from './run-cli.js';

// README: `pnpm start` runs both services; when it cannot, it says why in one line (as a standalone
// service does) and exits 1.
describe('pnpm start that cannot start', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'readlib-start-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const refused = async (env: Record<string, string>) => {
    const { code, stdout, stderr } = await spawnStart(dir, env).exited;
    expect(code).toBe(1);
    expect(stdout).not.toMatch(/reader API +http/);
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    return stderr.trim();
  };

  it('names a bad environment variable, before touching the database', async () => {
    expect(await refused({ READER_PORT: 'abc' })).toBe(
      'readlib: cannot start: invalid configuration: READER_PORT must be integer',
    );
    expect(existsSync(join(dir, 'library.db'))).toBe(false);
  });

  it('names the service whose port is taken', async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      expect(await refused({ ADMIN_PORT: String(port) })).toMatch(
        new RegExp(
          `^readlib: cannot start: admin API: listen EADDRINUSE: .*127\\.0\\.0\\.1:${port}: another process listens on port ${port}: stop it, or choose another port with ADMIN_PORT$`,
        ),
      );
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it('a HOST neither service can listen on is refused before the database is made', async () => {
    // TEST-NET-1 (RFC 5737): an address no machine of a test run holds
    expect(await refused({ HOST: '192.0.2.1' })).toMatch(
      /^readlib: cannot start: reader API: listen EADDRNOTAVAIL: .*: HOST 192\.0\.2\.1 is not an address of this machine/,
    );
    expect(existsSync(join(dir, 'library.db'))).toBe(false);
  });

  it('names the database it cannot open', async () => {
    const notAFile = join(dir, 'a-folder');
    mkdirSync(notAFile);
    expect(await refused({ DATABASE_URL: notAFile })).toBe(
      `readlib: cannot start: cannot open the database at ${notAFile}: unable to open database file`,
    );
  });

  it('says how to create an operator in production, where none is generated', async () => {
    const env = { NODE_ENV: 'production', JWT_SECRET: 's'.repeat(40), DEMO_CATALOGUE: 'true' };
    expect(await refused(env)).toMatch(
      /^readlib: cannot start: admin API: no operator exists: set ADMIN_USERNAME and ADMIN_PASSWORD/,
    );
    // refused before the demo catalogue is written
    const h = createDb({ dialect: 'sqlite', file: join(dir, 'library.db') });
    try {
      expect(await countBooks(h.db)).toBe(0);
    } finally {
      await h.destroy();
    }
  });
});

// README: `pnpm start` prints where both services answer. On port 0 the system picks the ports, and
// the banner names those (it printed ":0" before).
describe('pnpm start', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'readlib-start-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('prints the addresses the services listen on, which answer', async () => {
    const started = spawnStart(dir);
    try {
      const banner = await started.printed(/console +http\S+/);
      const reader = /reader API +(http:\/\/127\.0\.0\.1:(\d+))/.exec(banner);
      const admin = /admin API +(http:\/\/127\.0\.0\.1:(\d+))/.exec(banner);
      expect(Number(reader?.[2])).toBeGreaterThan(0);
      expect(Number(admin?.[2])).toBeGreaterThan(0);
      expect((await fetch(`${reader![1]}/healthz`)).status).toBe(200);
      // the admin API answers in its envelope: this route needs an operator's token
      const list = await fetch(`${admin![1]}/book/list`);
      expect(list.status).toBe(401);
      // the operator console on the admin service: its page, or (not built here) how to build it
      const consoleUrl = /console +(http\S+)/.exec(banner)?.[1];
      expect(consoleUrl).toBe(`${admin![1]}/console/`);
      const page = await fetch(consoleUrl!);
      expect([200, 503]).toContain(page.status);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    } finally {
      expect((await started.stop()).code).toBe(0);
    }
  }, 60_000);

  it('a stop ends with a closed line: the signal and how long the drain took', async () => {
    const started = spawnStart(dir, { LOG_LEVEL: 'info' });
    await started.printed(/console +http\S+/);
    const { code, stdout } = await started.stop();
    expect(code).toBe(0);
    const lines = stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line));
    // the last line is `closed`; `closing` comes before it, though a line of the start written into the
    // same batch may land between them
    expect(lines.at(-1)).toEqual(
      expect.objectContaining({ level: 30, signal: 'SIGTERM', ms: expect.any(Number), msg: 'closed' }),
    );
    const closing = lines.findIndex((line) => line.msg === 'closing');
    expect(closing).toBeGreaterThanOrEqual(0);
    expect(closing).toBeLessThan(lines.length - 1);
    expect(lines[closing]).toEqual(expect.objectContaining({ level: 30, signal: 'SIGTERM', msg: 'closing' }));
  }, 60_000);

  // README: the demo catalogue on the first start only: it must not come back after the operators
  // deleted every book, and a first start stopped midway must not stay partial for good
  it('loads the demo catalogue once: not again once the catalogue was emptied, and finishes an interrupted load', async () => {
    const env = { DEMO_CATALOGUE: 'true' };
    const demoLine = /demo catalogue: (\d+) books added, (\d+) duplicates skipped/;
    const first = spawnStart(dir, env);
    const added = Number(demoLine.exec(await first.printed(demoLine))?.[1]);
    expect(added).toBeGreaterThanOrEqual(30);
    expect((await first.stop()).code).toBe(0);
    const h = createDb({ dialect: 'sqlite', file: join(dir, 'library.db') });
    try {
      const books = await h.db.selectFrom('books').select('file_name').execute();
      for (const b of books) await deleteBook(h.db, b.file_name);
      expect(await countBooks(h.db)).toBe(0);
      // a first start stopped midway leaves the marker at 'loading'
      await setDemoState(h.db, 'loading');
      await insertBook(h.db, sampleBook(), []);
    } finally {
      await h.destroy();
    }
    const resumed = spawnStart(dir, env);
    const again = demoLine.exec(await resumed.printed(demoLine));
    expect(Number(again?.[1])).toBe(added);
    expect((await resumed.stop()).code).toBe(0);
    const emptied = createDb({ dialect: 'sqlite', file: join(dir, 'library.db') });
    try {
      for (const b of await emptied.db.selectFrom('books').select('file_name').execute())
        await deleteBook(emptied.db, b.file_name);
    } finally {
      await emptied.destroy();
    }
    const third = spawnStart(dir, env);
    const banner = await third.printed(/admin API +http\S+/);
    expect(banner).not.toMatch(/demo catalogue/);
    expect((await third.stop()).code).toBe(0);
  }, 120_000);
});
