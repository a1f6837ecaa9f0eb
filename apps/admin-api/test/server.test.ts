import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testConfig } from '@readlib/config';
import { countOperators, createDb, migrateToLatest } from '@readlib/data';
import { describe, expect, it } from 'vitest';
import { operatorNotice, startAdminServer } from '../src/index.js';

describe('decisions.md §1 the admin service starts alone and answers over HTTP', () => {
  it('a port it cannot listen on is refused before it creates the first operator', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'readlib-admin-port-'));
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as { port: number };
    const config = {
      ...testConfig({ STORAGE_DIR: join(dir, 'storage'), ADMIN_PORT: String(port) }),
      env: 'development' as const,
    };
    const handle = createDb({ dialect: 'sqlite', file: join(dir, 'library.db') });
    await migrateToLatest(handle.db);
    try {
      await expect(startAdminServer(config, { db: handle.db, logger: false })).rejects.toThrow(
        `another process listens on port ${port}: stop it, or choose another port with ADMIN_PORT`,
      );
      expect(await countOperators(handle.db)).toBe(0);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
      await handle.destroy();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('starts on port 0, creates the first operator with a generated password, logs in and lists over fetch', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'readlib-admin-server-'));
    const config = {
      ...testConfig({ STORAGE_DIR: join(dir, 'storage'), ADMIN_PORT: '0' }),
      env: 'development' as const,
    };
    const handle = createDb({ dialect: 'sqlite', file: join(dir, 'library.db') });
    await migrateToLatest(handle.db);
    const server = await startAdminServer(config, { db: handle.db, logger: false });
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const { username, generatedPassword } = server.firstOperator;
      expect(username).toBe('admin');
      expect(operatorNotice(server.firstOperator, server.url)).toContain(generatedPassword);

      const login = await fetch(`${server.url}/user/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, password: generatedPassword }),
      });
      expect(login.status).toBe(200);
      const { token } = ((await login.json()) as { data: { token: string } }).data;
      const list = await fetch(`${server.url}/book/list?pageSize=5`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(list.status).toBe(200);
      expect(await list.json()).toEqual({
        code: 0,
        msg: 'success',
        data: [],
        page: 1,
        pageSize: 5,
        total: 0,
      });
      const anonymous = await fetch(`${server.url}/book/list`);
      expect(anonymous.status).toBe(401);
      expect(((await anonymous.json()) as { code: number }).code).toBe(-2);
      expect((await fetch(`${server.url}/docs`)).status).toBe(200);
    } finally {
      await server.close();
      await handle.destroy();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
