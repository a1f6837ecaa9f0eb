import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createDb } from '@readlib/data';
import { sql } from 'kysely';
import { rng } from './gen.js';
import { dbConfigOf } from './sink.js';

export interface Server {
  url: string;
  pid: number;
  child: ChildProcess;
  stop(): Promise<void>;
  /** resident set size of the server process, MiB (Linux /proc) */
  rssMiB(): number;
  /** CPU time the server process has used so far (user + system, every thread), ms */
  cpuMs(): number;
}

const SERVE = fileURLToPath(new URL('../serve.ts', import.meta.url));

/** Starts `serve.ts --kind <kind>` in its own process (tsx), resolves when it listens. */
export function startServer(
  kind: 'reader' | 'admin' | 'bare',
  db?: string,
  extra: string[] = [],
): Promise<Server> {
  // BENCH_CPU_PROF=<dir>: each server process writes a V8 CPU profile there when it stops
  const prof = process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
    : [];
  // BENCH_NODE_ARGS: more flags for the server processes (e.g. --trace-gc), space-separated
  const more = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const args = [
    ...prof,
    ...more,
    '--conditions=source',
    '--import',
    'tsx',
    SERVE,
    '--kind',
    kind,
    ...(db ? ['--db', db] : []),
    ...extra,
  ];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    child.once('exit', (code) => reject(new Error(`${kind} server exited with ${code}`)));
    let started = false;
    lines.on('line', (line) => {
      // anything else the process prints (--trace-gc, say) goes to this one's stderr
      if (started || !line.startsWith('{"url"')) return void process.stderr.write(`${line}\n`);
      started = true;
      const { url, pid } = JSON.parse(line) as { url: string; pid: number };
      resolve({
        url,
        pid,
        child,
        rssMiB: () => rssOf(pid),
        cpuMs: () => cpuOf(pid),
        stop: () =>
          new Promise<void>((done) => {
            child.removeAllListeners('exit');
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
  });
}

import { readFileSync } from 'node:fs';

export function rssOf(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const m = /VmRSS:\s+(\d+) kB/.exec(status);
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** utime + stime of a process from /proc/<pid>/stat, in ms (clock ticks of 10 ms on Linux). */
export function cpuOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // fields after the command name, which is in parentheses and may hold spaces
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

export interface Sample {
  books: number;
  users: number;
  fileNames: string[];
  /** fileNames weighted like the view log (hot books come up more) */
  hotFileNames: string[];
  openIds: string[];
  authors: string[];
  titles: string[];
  categories: string[];
  /** ids of the categories with books (an OPDS category feed of an empty one is a 404) */
  categoryIds: number[];
}

const pick = <T>(r: () => number, a: readonly T[]) => a[Math.floor(r() * a.length)]!;

/**
 * A search keyword as readers type them: a substring of a title (60%) or an author, 1-2 characters of
 * CJK text, 3-7 of Latin, URL-encoded. Hits mostly; a substring across a word gap can miss.
 */
export function searchKeyword(s: Sample, r: () => number): string {
  const src = r() < 0.6 ? pick(r, s.titles) : pick(r, s.authors);
  const chars = Array.from(src);
  const len = /[\u3040-\u9fff]/u.test(src) ? 1 + Math.floor(r() * 2) : 3 + Math.floor(r() * 5);
  const i = Math.floor(r() * Math.max(1, chars.length - len));
  return encodeURIComponent(
    chars
      .slice(i, i + len)
      .join('')
      .trim() || src,
  );
}

/**
 * One keyword taken from a title, as a reader types a word they remember: the longest word (3-8
 * characters) of the first sampled Latin title, or two characters of a CJK one. Every request of
 * the "one title keyword" search asks for it, as the original clients' users repeat popular words.
 */
export function titleKeyword(s: Sample): string {
  for (const title of s.titles) {
    if (/[\u3040-\u9fff]/u.test(title)) continue;
    const words = title.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length >= 3 && w.length <= 8);
    const longest = words.sort((a, b) => b.length - a.length)[0];
    if (longest) return encodeURIComponent(longest);
  }
  return encodeURIComponent(
    Array.from(s.titles[0] ?? 'book')
      .slice(0, 2)
      .join(''),
  );
}

/** `n` keywords drawn as searchKeyword draws them, with their own seed: the same list every run. */
export function keywordMix(s: Sample, n: number): string[] {
  const r = rng(7);
  return Array.from({ length: n }, () => searchKeyword(s, r));
}

/** Values to build requests from, read from the benchmark database itself. */
export async function sampleOf(db: string, size = 2000): Promise<Sample> {
  const h = createDb(dbConfigOf(db));
  try {
    const [{ n }] = (
      await sql<{ n: number }>`select value as n from counters where name = 'books'`.execute(h.db)
    ).rows as [{ n: number }];
    const users = Number(
      (await sql<{ n: number }>`select max(id) as n from users`.execute(h.db)).rows[0]?.n ?? 0,
    );
    const r = rng(99);
    const positions = Array.from({ length: size }, () => 1 + Math.floor(r() * Number(n)));
    const rows = [];
    // in chunks: a statement holds at most 32,766 parameters on SQLite
    for (let i = 0; i < positions.length; i += 10_000) {
      rows.push(
        ...(await h.db
          .selectFrom('books')
          .select(['file_name', 'author', 'title'])
          .where('pos', 'in', positions.slice(i, i + 10_000))
          .execute()),
      );
    }
    const hot = await h.db
      .selectFrom('views')
      .innerJoin('books', 'books.id', 'views.book_id')
      .select('books.file_name')
      .orderBy('views.id', 'desc')
      .limit(size)
      .execute();
    const categories = await h.db.selectFrom('categories').select(['id', 'name', 'book_count']).execute();
    return {
      books: Number(n),
      users,
      fileNames: rows.map((x) => x.file_name),
      hotFileNames: hot.map((x) => x.file_name),
      openIds: Array.from({ length: size }, () => `bench-user-${1 + Math.floor(r() * Math.max(1, users))}`),
      authors: rows.map((x) => x.author),
      titles: rows.map((x) => x.title),
      categories: categories.map((c) => c.name),
      categoryIds: categories.filter((c) => Number(c.book_count) > 0).map((c) => c.id),
    };
  } finally {
    await h.destroy();
  }
}

/** Removes the shelf entries saved at or after `since` (a benchmark's own; the seed's are older). */
export async function removeShelvedSince(db: string, since: number): Promise<number> {
  const h = createDb(dbConfigOf(db));
  try {
    const res = await h.db.deleteFrom('shelf_entries').where('created_at', '>=', since).executeTakeFirst();
    return Number(res.numDeletedRows);
  } finally {
    await h.destroy();
  }
}
