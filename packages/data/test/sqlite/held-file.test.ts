import { fstatSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDb } from '../../src/create-db.js';
import { heldFiles, holdFile } from '../../src/sqlite/held-file.js';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'readlib-sync-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const isOpen = (fd: number) => {
  try {
    fstatSync(fd);
    return true;
  } catch {
    return false;
  }
};

describe('one descriptor per database file per process (closing one drops the process locks)', () => {
  it('shares the descriptor however the path is spelled, and closes it when the last holder lets go', () => {
    const file = join(tempDir(), 'db.sqlite');
    writeFileSync(file, '');
    const before = heldFiles();
    const a = holdFile(file);
    const b = holdFile(relative(process.cwd(), file));
    expect(b.fd).toBe(a.fd);
    expect(heldFiles()).toBe(before + 1);

    a.release();
    a.release(); // a second release of the same hold counts once
    expect(isOpen(b.fd)).toBe(true);
    b.release();
    expect(isOpen(b.fd)).toBe(false);
    expect(heldFiles()).toBe(before);
  });

  it('a handle holds its wal-index (and its file, with background checkpoints) until destroyed, after its connections', async () => {
    const file = join(tempDir(), 'db.sqlite');
    const before = heldFiles();
    const first = createDb({ dialect: 'sqlite', file }, { checkpoints: 'background' });
    const second = createDb({ dialect: 'sqlite', file }, { checkpoints: 'background' });
    expect(heldFiles()).toBe(before + 2);
    await first.destroy();
    // the other handle still has connections on the files: the descriptors (and their locks) stay
    expect(heldFiles()).toBe(before + 2);
    await second.destroy();
    expect(heldFiles()).toBe(before);

    const inline = createDb({ dialect: 'sqlite', file });
    expect(heldFiles()).toBe(before + 1);
    await inline.destroy();
    expect(heldFiles()).toBe(before);
  });
});
