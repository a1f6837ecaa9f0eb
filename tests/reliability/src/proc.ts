import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDb, migrateToLatest } from '@readlib/data';

export const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const HERE = fileURLToPath(new URL('../', import.meta.url));

export const SCRIPTS = {
  reader: join(REPO, 'apps/reader-api/src/server.ts'),
  admin: join(REPO, 'apps/admin-api/src/server.ts'),
  cli: join(REPO, 'apps/cli/src/main.ts'),
};

export const OPERATOR = { username: 'ops', password: 'Pa55-word-never-logged-9317' };

/** A temp folder with a SQLite file and a store, and the environment the services need for them. */
export async function workspace(extra: Record<string, string> = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'readlib-proc-'));
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    DATABASE_URL: join(dir, 'library.db'),
    STORAGE_DIR: join(dir, 'storage'),
    JWT_SECRET: 'process-secret-'.padEnd(48, 'y'),
    ADMIN_USERNAME: OPERATOR.username,
    ADMIN_PASSWORD: OPERATOR.password,
    READER_PORT: '0',
    ADMIN_PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    RATE_LIMIT_PER_MINUTE: '100000000',
    LOGIN_ATTEMPTS_PER_MINUTE: '100000',
    DEMO_CATALOGUE: 'false',
    PUBLIC_BASE_URL: 'http://127.0.0.1:1',
    ...extra,
  };
  // the services refuse to start on an unmigrated database (`pnpm cli migrate` does this in production)
  const h = createDb({ dialect: 'sqlite', file: env.DATABASE_URL! });
  await migrateToLatest(h.db);
  await h.destroy();
  return {
    dir,
    env,
    dbFile: env.DATABASE_URL!,
    storage: env.STORAGE_DIR!,
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

export interface Proc {
  child: ChildProcess;
  /** every stdout and stderr line so far */
  output: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Runs a TypeScript entry point in its own node process (tsx as a loader, so signals reach it directly). */
export function run(script: string, env: Record<string, string>, args: string[] = []): Proc {
  const { NODE_OPTIONS: _drop, VITEST: _v, VITEST_MODE: _m, ...base } = process.env;
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', script, ...args], {
    cwd: HERE,
    env: { ...base, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  for (const stream of [child.stdout!, child.stderr!]) {
    let rest = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      output.push(...lines);
    });
    stream.on('end', () => rest && output.push(rest));
  }
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    output,
    exited,
    kill: async (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

export interface Service extends Proc {
  url: string;
}

/** Starts a service and waits for pino's "Server listening at" line (ephemeral port). */
export async function startService(
  kind: 'reader' | 'admin',
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<Service> {
  const proc = run(SCRIPTS[kind], env);
  const started = Date.now();
  for (;;) {
    for (const line of proc.output) {
      const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
      if (m) return { ...proc, url: m[1]! };
    }
    if (proc.child.exitCode !== null) throw new Error(`${kind} exited early:\n${proc.output.join('\n')}`);
    if (Date.now() - started > timeoutMs) {
      await proc.kill('SIGKILL');
      throw new Error(`${kind} did not start in ${timeoutMs} ms:\n${proc.output.join('\n')}`);
    }
    await sleep(50);
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function login(adminUrl: string): Promise<string> {
  const res = await fetch(`${adminUrl}/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(OPERATOR),
  });
  const body = (await res.json()) as { data?: { token: string } };
  if (res.status !== 200 || !body.data)
    throw new Error(`login failed: ${res.status} ${JSON.stringify(body)}`);
  return body.data.token;
}

/** POST /book/upload over real HTTP. */
export async function uploadOver(adminUrl: string, token: string, epub: Buffer, name = 'book.epub') {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(epub)], { type: 'application/epub+zip' }), name);
  const res = await fetch(`${adminUrl}/book/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as any };
}

export async function createOver(adminUrl: string, token: string, fileName: string) {
  const res = await fetch(`${adminUrl}/book/create`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ fileName }),
  });
  return { status: res.status, body: (await res.json()) as any };
}
