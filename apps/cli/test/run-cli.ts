import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));

/**
 * `pnpm cli <args>` as a real process on a SQLite database and store inside `dir`: its exit code and
 * what it printed (stdout on success, stderr on failure).
 */
export async function runCli(
  dir: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; out: string }> {
  try {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', MAIN, ...args], {
      env: {
        ...process.env,
        NODE_ENV: 'development',
        DATABASE_URL: join(dir, 'library.db'),
        STORAGE_DIR: join(dir, 'store'),
        DEMO_CATALOGUE: 'false',
        ...env,
      },
    });
    return { code: 0, out: stdout.trim() };
  } catch (err) {
    const e = err as { code: number; stderr: string };
    return { code: e.code, out: e.stderr.trim() };
  }
}
