import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
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

  it('prints the usage for no command, help, --help and -h, and exits 0 without creating a database', async () => {
    for (const help of [[], ['help'], ['--help'], ['-h']]) {
      const { code, out } = await runCli(dir, help);
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

  it('answers help without loading the services: only the command line module of the workspace', async () => {
    // a resolve hook that notes every module the CLI loads
    const loads = join(dir, 'loads.txt');
    const hook = join(dir, 'note-loads.mjs');
    writeFileSync(
      hook,
      `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const found = await next(specifier, context);
  appendFileSync(${JSON.stringify(loads)}, found.url + '\\n');
  return found;
}`,
    );
    const register = join(dir, 'register.mjs');
    writeFileSync(
      register,
      `import { register } from 'node:module'; register(${JSON.stringify(pathToFileURL(hook).href)});`,
    );
    const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));
    const workspaceModules = async (args: string[]) => {
      rmSync(loads, { force: true });
      const node = ['--conditions=source', '--import', 'tsx', '--import', register, main, ...args];
      await promisify(execFile)(process.execPath, node, {
        env: { ...process.env, DATABASE_URL: join(dir, 'library.db'), STORAGE_DIR: join(dir, 'store') },
      });
      const urls = readFileSync(loads, 'utf8').split('\n');
      return [
        ...new Set(
          urls
            .filter((u) => /\/(apps|packages)\//.test(u) && !u.includes('/node_modules/'))
            .map((u) => u.replace(/^.*\/(apps|packages)\//, '')),
        ),
      ].sort();
    };
    expect(await workspaceModules(['--help'])).toEqual(['cli/src/main.ts', 'cli/src/usage.ts']);
    // the hook sees a command's modules: the services' packages come with it
    expect(await workspaceModules(['migrate'])).toEqual(
      expect.arrayContaining(['cli/src/run-command.ts', 'data/src/index.ts', 'catalog/src/index.ts']),
    );
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
