import { execFile, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));
// by its path: a process started in another folder would not find the package `tsx`
export const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/**
 * `pnpm cli <args>` as a real process on a SQLite database and store inside `dir`: its exit code and
 * what it printed (stdout on success, stderr on failure), without the `database: ...` line every
 * command writes to stderr first (runCliStreams keeps it).
 */
export async function runCli(
  dir: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; out: string }> {
  const { code, stdout, stderr } = await runCliStreams(dir, args, env);
  const out = code === 0 ? stdout : stderr.replace(/^database: .*\n?/m, '');
  return { code, out: out.trim() };
}

/** runCli's process with both streams as written; `cwd` where it runs (default: the test's own). */
export async function runCliStreams(
  dir: string,
  args: string[],
  env: Record<string, string> = {},
  cwd?: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      ['--conditions=source', '--import', TSX, MAIN, ...args],
      {
        ...(cwd ? { cwd } : {}),
        env: {
          ...process.env,
          NODE_ENV: 'development',
          DATABASE_URL: join(dir, 'library.db'),
          STORAGE_DIR: join(dir, 'store'),
          DEMO_CATALOGUE: 'false',
          ...env,
        },
      },
    );
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const START = fileURLToPath(new URL('../src/start.ts', import.meta.url));

export interface StartedServices {
  /** resolves with what stdout printed once it matches `pattern`; rejects if the process exits first */
  printed(pattern: RegExp): Promise<string>;
  /** the exit code and what was printed on each stream */
  exited: Promise<{ code: number | null; stdout: string; stderr: string }>;
  /** SIGTERM, as an orchestrator stops it */
  stop(): Promise<{ code: number | null; stdout: string; stderr: string }>;
}

/**
 * `pnpm start` as a real process on a SQLite database and store inside `dir`, both services on free
 * ports of the loopback unless `env` says otherwise.
 */
export function spawnStart(dir: string, env: Record<string, string> = {}): StartedServices {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', START], {
    env: {
      ...process.env,
      NODE_ENV: 'development',
      HOST: '127.0.0.1',
      READER_PORT: '0',
      ADMIN_PORT: '0',
      LOG_LEVEL: 'warn',
      DATABASE_URL: join(dir, 'library.db'),
      STORAGE_DIR: join(dir, 'store'),
      DEMO_CATALOGUE: 'false',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.once('exit', (code) => resolve({ code, stdout, stderr })),
  );
  const printed = (pattern: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        if (!pattern.test(stdout)) return;
        child.stdout.off('data', check);
        resolve(stdout);
      };
      child.stdout.on('data', check);
      check();
      void exited.then((r) => reject(new Error(`start exited (${r.code}) first:\n${r.stdout}${r.stderr}`)));
    });
  const stop = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    return exited;
  };
  return { printed, exited, stop };
}
