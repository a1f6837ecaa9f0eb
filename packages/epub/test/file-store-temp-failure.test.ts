import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FileStore } from '../src/index.js';
import { listTree, tempRoot } from './helpers.js';

// a leftover named `stuck` cannot be removed, as one owned by another user cannot (root, which runs
// the tests here, removes anything, so the refusal is made by the module)
vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  const rm: typeof real.rm = async (path, options) => {
    if (String(path).endsWith('stuck'))
      throw Object.assign(new Error(`EACCES: permission denied, rmdir '${String(path)}'`), {
        code: 'EACCES',
      });
    return real.rm(path, options);
  };
  return { ...real, rm };
});

describe('FileStore.cleanTemp with a leftover it cannot remove', () => {
  let root: string;
  let dispose: () => Promise<void>;
  let store: FileStore;
  beforeEach(async () => {
    ({ root, dispose } = await tempRoot());
    store = new FileStore(root);
    for (const name of ['a', 'stuck', 'z']) await mkdir(join(root, '.tmp', name), { recursive: true });
  });
  afterEach(() => dispose());

  it('throws without a listener', async () => {
    await expect(store.cleanTemp()).rejects.toMatchObject({ code: 'EACCES' });
  });

  it('tells the listener and goes on to the leftovers after it', async () => {
    const failures: Array<{ path: string; code: unknown }> = [];
    const removed = await store.cleanTemp(0, (path, err) =>
      failures.push({ path, code: (err as NodeJS.ErrnoException).code }),
    );
    expect(removed).toBe(2);
    expect(failures).toEqual([{ path: join(root, '.tmp', 'stuck'), code: 'EACCES' }]);
    expect(await listTree(join(root, '.tmp'))).toEqual(['stuck']);
  });
});
