import { createDb, insertBook } from '@readlib/data';
import { sampleBook } from '@readlib/data/testing';
import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { type Service, sleep, startService, workspace } from '../src/proc.js';
import { recordFigures } from '../src/profile.js';
import { integrity } from '../src/store-check.js';

/** Holds BEGIN EXCLUSIVE on the database file from this process for `ms`. */
async function holdExclusive(file: string, ms: number): Promise<void> {
  const db = new SQLite(file);
  db.exec('BEGIN EXCLUSIVE');
  db.prepare('update counters set value = value where 1 = 0').run();
  await sleep(ms);
  db.exec('COMMIT');
  db.close();
}

const LEAK = /at \w.*\(|SQLITE_|SqliteError|node_modules/;

describe('the SQLite file locked by another process', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const c of cleanups) await c();
  });

  it('a lock shorter than the lock wait: writes wait and succeed; a longer one: 503 with retry-after; reads served throughout; never corruption', async () => {
    const ws = await workspace();
    cleanups.push(ws.remove);
    const h = createDb({ dialect: 'sqlite', file: ws.dbFile });
    const book = await insertBook(h.db, sampleBook({ title: 'Locked' }), []);
    await h.destroy();
    const svc: Service = await startService('reader', ws.env);
    cleanups.push(async () => void (await svc.kill('SIGKILL')));

    let n = 0;
    const write = async () => {
      const openId = `lock-${n++}`;
      const t = Date.now();
      const reg = await fetch(`${svc.url}/user/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ openId }),
      });
      const body = await reg.text();
      return {
        status: reg.status,
        body,
        ms: Date.now() - t,
        openId,
        retryAfter: reg.headers.get('retry-after'),
      };
    };
    const read = async () => {
      const t = Date.now();
      const r = await fetch(`${svc.url}/book/detail?fileName=${book.file_name}`);
      return { status: r.status, body: await r.text(), ms: Date.now() - t };
    };

    // 1.5 s: shorter than busy_timeout (5 s)
    const short = holdExclusive(ws.dbFile, 1500);
    await sleep(100);
    const pendingShort = Promise.all([write(), write(), write()]);
    await sleep(100);
    // the writes wait for the lock on their own connection, with timers: reads are served meanwhile
    const shortRead = await read();
    const shortWrites = await pendingShort;
    await short;
    for (const w of shortWrites) expect(w.status, w.body).toBe(200);
    expect(shortRead.status).toBe(200);
    expect(shortRead.ms).toBeLessThan(500);
    expect(Math.max(...shortWrites.map((w) => w.ms))).toBeGreaterThanOrEqual(1000);

    // 7 s: longer than busy_timeout
    const long = holdExclusive(ws.dbFile, 7000);
    await sleep(100);
    const pendingLong = Promise.all([write(), write()]);
    await sleep(1000);
    const longRead = await read();
    const longWrites = await pendingLong;
    await long;
    expect(longRead.status).toBe(200);
    expect(longRead.ms).toBeLessThan(500);
    // past busy_timeout: 503 with retry-after (docs/errors.md), never a 500
    for (const w of longWrites) {
      expect([200, 503], w.body).toContain(w.status);
      expect(w.body).not.toMatch(LEAK);
      if (w.status === 503) {
        expect(JSON.parse(w.body)).toEqual({ error_code: -1, msg: 'service busy, retry shortly' });
        expect(w.retryAfter).toBe('1');
      }
    }
    expect(longWrites.some((w) => w.status === 503)).toBe(true);
    // afterwards everything works again, and the file is sound
    const after = await write();
    expect(after.status).toBe(200);
    await svc.kill('SIGTERM');
    expect(integrity(ws.dbFile)).toBe('ok');
    // every acknowledged registration is there
    const check = new SQLite(ws.dbFile, { readonly: true });
    const acked = [...shortWrites, ...longWrites, after].filter((w) => w.status === 200).map((w) => w.openId);
    const present = acked.filter((o) => check.prepare('select 1 from users where open_id = ?').get(o));
    check.close();
    expect(present).toEqual(acked);
    const figures = {
      shortLock: {
        ms: 1500,
        writes: shortWrites.map((w) => ({ status: w.status, ms: w.ms })),
        readMs: shortRead.ms,
      },
      longLock: {
        ms: 7000,
        writes: longWrites.map((w) => ({ status: w.status, ms: w.ms, body: w.body })),
        readMs: longRead.ms,
      },
      acknowledged: acked.length,
      lost: acked.length - present.length,
    };
    recordFigures('lock', figures);
    console.log('[lock]', JSON.stringify(figures));
  }, 120_000);
});
