import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDb, migrateToLatest } from '@readlib/data';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const SERVER = fileURLToPath(new URL('../src/server.ts', import.meta.url));
const PASSWORD = 'First-Operator-Pa55-4410';

/** `node apps/admin-api/dist/server.js` as a unit runs it (from the sources), until it listens; then SIGTERM. */
async function startAndStop(env: Record<string, string>): Promise<string[]> {
  const { NODE_OPTIONS: _drop, VITEST: _v, VITEST_MODE: _m, ...base } = process.env;
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', SERVER], {
    env: { ...base, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', () => out.includes('Server listening') && resolve());
    void exited.then(() => reject(new Error(`admin-api exited:\n${out}`)));
  });
  child.kill('SIGTERM');
  await exited;
  return out.split('\n').filter(Boolean);
}

// each test starts the service from its sources, which a loaded machine compiles slowly
describe('the first operator made from ADMIN_USERNAME and ADMIN_PASSWORD is logged once, without its password', {
  timeout: 90_000,
}, () => {
  let dir: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'readlib-first-operator-'));
    env = {
      NODE_ENV: 'production',
      DATABASE_URL: join(dir, 'library.db'),
      STORAGE_DIR: join(dir, 'storage'),
      JWT_SECRET: 'first-operator-secret-'.padEnd(40, 'z'),
      ADMIN_USERNAME: 'alice',
      ADMIN_PASSWORD: PASSWORD,
      HOST: '127.0.0.1',
      ADMIN_PORT: '0',
      LOG_LEVEL: 'info',
    };
    const handle = createDb({ dialect: 'sqlite', file: env.DATABASE_URL! });
    await migrateToLatest(handle.db);
    await handle.destroy();
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('the start that creates it says which operator, and where its password came from', async () => {
    const lines = await startAndStop(env);
    const created = lines.filter((l) => l.includes('"first operator created"'));
    expect(created.map((l) => JSON.parse(l))).toEqual([
      expect.objectContaining({ level: 30, username: 'alice', passwordFrom: 'ADMIN_PASSWORD' }),
    ]);
    expect(lines.join('\n')).not.toContain(PASSWORD);
  });

  it('a generated password (development) is printed once for the operator, never written to the log', async () => {
    const fresh = join(dir, 'generated.db');
    const handle = createDb({ dialect: 'sqlite', file: fresh });
    await migrateToLatest(handle.db);
    await handle.destroy();
    const { ADMIN_USERNAME: _u, ADMIN_PASSWORD: _p, ...rest } = env;
    const lines = await startAndStop({ ...rest, NODE_ENV: 'development', DATABASE_URL: fresh });
    const generated = /password: +(\S+)/.exec(lines.join('\n'))?.[1];
    expect(generated).toMatch(/^[\w-]{16}$/);
    const logLines = lines.filter((l) => l.startsWith('{'));
    expect(logLines.filter((l) => l.includes('"first operator created"')).map((l) => JSON.parse(l))).toEqual([
      expect.objectContaining({ username: 'admin', passwordFrom: 'generated' }),
    ]);
    expect(logLines.join('\n')).not.toContain(generated);
  });

  it('a later start, the operator already there, says nothing of it', async () => {
    const lines = await startAndStop(env);
    expect(lines.some((l) => l.includes('Server listening'))).toBe(true);
    expect(lines.filter((l) => l.includes('first operator'))).toEqual([]);
  });

  const warnings = async (changed: Record<string, string>) =>
    (await startAndStop({ ...env, ...changed }))
      .filter((l) => l.includes('first operator'))
      .map((l) => JSON.parse(l));

  it.each([
    {
      variable: 'ADMIN_PASSWORD',
      value: 'Changed-Pa55-in-the-env',
      username: 'alice',
      msg: /^ADMIN_PASSWORD is not this operator's password and is ignored: .* `pnpm cli operator:password <username>`$/,
    },
    {
      variable: 'ADMIN_USERNAME',
      value: 'bob',
      username: 'bob',
      msg: /^ADMIN_USERNAME names no operator and is ignored: .* `pnpm cli operator:create <username>`$/,
    },
  ])(
    'a later start with $variable changed warns that it is ignored, naming the command to use',
    async ({ variable, value, username, msg }) => {
      expect(await warnings({ [variable]: value })).toEqual([
        expect.objectContaining({ level: 40, username, msg: expect.stringMatching(msg) }),
      ]);
    },
  );
});
