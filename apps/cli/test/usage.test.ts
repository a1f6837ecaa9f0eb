import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseCommandLine, UsageError } from '../src/usage.js';
import { runCli } from './run-cli.js';

// The usage text's promise: exit code 0 done, 1 failed, 2 usage error, and a usage error touches nothing.
describe('pnpm cli help and usage errors', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'readlib-usage-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('prints the usage for help, --help and -h, and exits 0 without creating a database', async () => {
    for (const help of ['help', '--help', '-h']) {
      const { code, out } = await runCli(dir, [help]);
      expect({ help, code, first: out.split('\n')[0] }).toEqual({
        help,
        code: 0,
        first: 'usage: pnpm cli <command>',
      });
    }
    expect(readdirSync(dir)).toEqual([]);
  }, 60_000);

  it('answers a usage error with exit code 2 before opening the database', async () => {
    const cases: Array<[string[], string]> = [
      [[], 'error: name a command'],
      [['frobnicate'], 'error: unknown command: frobnicate'],
      [['operator:create'], 'error: operator:create: a username is required'],
      [['migrate', '--category', 'x'], "error: migrate: Unknown option '--category'"],
    ];
    for (const [args, first] of cases) {
      const { code, out } = await runCli(dir, args);
      expect({ args, code, first: out.split('\n')[0] }).toEqual({
        args,
        code: 2,
        first: expect.stringContaining(first),
      });
      expect(out).toContain('usage: pnpm cli <command>');
    }
    expect(existsSync(join(dir, 'library.db'))).toBe(false);
  }, 60_000);

  it('checks every command line against what its command accepts', () => {
    expect(parseCommandLine(['import', 'a', 'b', '--category', 'Poetry'])).toEqual({
      command: 'import',
      positionals: ['a', 'b'],
      values: { category: 'Poetry' },
    });
    expect(parseCommandLine(['import', '--help'])).toBe('help');
    const refused = (argv: string[]) => {
      try {
        parseCommandLine(argv);
      } catch (err) {
        expect(err).toBeInstanceOf(UsageError);
        return (err as Error).message;
      }
      return 'accepted';
    };
    expect(refused(['toString'])).toBe('unknown command: toString');
    expect(refused(['import'])).toBe('import: name at least one file or folder');
    expect(refused(['backup'])).toBe('backup: name a destination folder');
    expect(refused(['restore'])).toBe('restore: name the backup folder');
    expect(refused(['operator:password'])).toBe('operator:password: a username is required');
    expect(refused(['operator:create', 'ops', 'extra'])).toBe('operator:create: unexpected argument extra');
    expect(refused(['migrate', 'now'])).toBe('migrate: unexpected argument now');
    expect(refused(['operator:password', 'ops', '--nickname', 'x'])).toMatch(
      /^operator:password: Unknown option/,
    );
    expect(refused(['import', 'a', '--category'])).toMatch(
      /^import: Option '--category <value>' argument missing/,
    );
  });
});
