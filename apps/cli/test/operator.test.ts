import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { authenticateOperator } from '@readlib/catalog';
import { createDb } from '@readlib/data';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, spawnStart } from './run-cli.js';

// README: `pnpm cli operator:create` and `pnpm cli operator:password` (a reset refuses earlier tokens).
describe('pnpm cli operator:create / operator:password', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'readlib-operator-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const cli = (args: string[], env: Record<string, string> = {}) => runCli(dir, args, env);
  const canLogIn = async (username: string, password: string) => {
    const h = createDb({ dialect: 'sqlite', file: join(dir, 'library.db') });
    try {
      return await authenticateOperator(h.db, username, password).then(
        (op) => op.token_version,
        () => false,
      );
    } finally {
      await h.destroy();
    }
  };

  it('sets a generated or given password, moves the token version, and refuses unknown operators', async () => {
    expect(await cli(['operator:create', 'ops'], { OPERATOR_PASSWORD: 'first password' })).toEqual({
      code: 0,
      out: 'operator ops created',
    });
    expect(await canLogIn('ops', 'first password')).toBe(0);

    const reset = await cli(['operator:password', 'ops']);
    expect(reset.code).toBe(0);
    const generated = /changed to: (\S+); tokens issued before are refused$/.exec(reset.out)?.[1];
    expect(generated).toBeDefined();
    expect(await canLogIn('ops', 'first password')).toBe(false);
    expect(await canLogIn('ops', generated!)).toBe(1);

    const given = await cli(['operator:password', 'ops'], { OPERATOR_PASSWORD: 'second password' });
    expect(given).toEqual({ code: 0, out: 'password of ops changed; tokens issued before are refused' });
    expect(await canLogIn('ops', 'second password')).toBe(2);

    expect(await cli(['operator:password', 'nobody'])).toEqual({
      code: 1,
      out: 'error: operator:password: no operator nobody',
    });
    // the refused password came from the variable, which the message names
    expect(await cli(['operator:password', 'ops'], { OPERATOR_PASSWORD: 'short' })).toEqual({
      code: 1,
      out: 'error: operator:password: OPERATOR_PASSWORD: password must have at least 8 characters',
    });
    expect(await cli(['operator:create', 'ops2'], { OPERATOR_PASSWORD: 'short' })).toEqual({
      code: 1,
      out: 'error: operator:create: OPERATOR_PASSWORD: password must have at least 8 characters',
    });
  }, 60_000);

  it('forgets the development password pnpm start shows once operator:password changes it', async () => {
    const banner = /operator {4}.*\n/;
    const first = spawnStart(dir);
    const shown = /username: admin {3}password: (\S+)/.exec(await first.printed(banner))?.[1];
    expect((await first.stop()).code).toBe(0);
    expect(shown).toBeDefined();
    const note = join(dir, 'operator-login.txt');
    expect(existsSync(note)).toBe(true);

    // a note naming another operator is not this one's to remove
    await cli(['operator:create', 'ops'], { OPERATOR_PASSWORD: 'first password' });
    expect((await cli(['operator:password', 'ops'], { OPERATOR_PASSWORD: 'second password' })).out).toBe(
      'password of ops changed; tokens issued before are refused',
    );
    expect(existsSync(note)).toBe(true);

    const reset = await cli(['operator:password', 'admin'], { OPERATOR_PASSWORD: 'a new password' });
    expect(reset).toEqual({
      code: 0,
      out: `password of admin changed; tokens issued before are refused\nremoved ${note}, which held the previous password`,
    });
    expect(existsSync(note)).toBe(false);

    const again = spawnStart(dir);
    const line = banner.exec(await again.printed(banner))?.[0];
    expect((await again.stop()).code).toBe(0);
    expect(line).not.toContain(shown);
    expect(line).toMatch(/existing account/);
  }, 60_000);
});
