import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ORPHAN_GRACE_MS } from '@readlib/catalog';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

// The admin API streams an upload into the store's .tmp folder; a CLI command run meanwhile (each one
// that uses the store opens the same runtime; migrate and the operator commands do not open the store)
// must leave it alone, as the admin API's own cleanup does.
describe('the temp files of the store and a CLI command', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'readlib-temp-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps an upload being received and sweeps a leftover older than the grace', async () => {
    const tmp = join(dir, 'store', '.tmp');
    mkdirSync(tmp, { recursive: true });
    const receiving = join(tmp, 'upload-receiving');
    const leftover = join(tmp, 'upload-crashed');
    writeFileSync(receiving, 'half an EPUB');
    writeFileSync(leftover, 'an EPUB nobody finished');
    const old = (Date.now() - ORPHAN_GRACE_MS - 60_000) / 1000;
    utimesSync(leftover, old, old);

    const nothing = join(dir, 'no-books');
    mkdirSync(nothing);
    expect((await runCli(dir, ['import', nothing])).code).toBe(0);
    expect(existsSync(receiving)).toBe(true);
    expect(existsSync(leftover)).toBe(false);
  }, 60_000);
});
