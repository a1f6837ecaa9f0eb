import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testConfig } from '@readlib/config';
import { createDb, migrateToLatest } from '@readlib/data';
import { describe, expect, it } from 'vitest';
import { operatorNotice, startAdminServer } from '../src/index.js';

describe('decisions.md §1 the admin service starts alone and answers over HTTP', () => {
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
