import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EpubError, type EpubErrorCode } from '../src/index.js';

export const REAL = (name: string): string => new URL(`../fixtures/real/${name}`, import.meta.url).pathname;

export async function tempRoot(): Promise<{ root: string; dispose: () => Promise<void> }> {
  const root = await mkdtemp(join(tmpdir(), 'readlib-epub-'));
  return { root, dispose: () => rm(root, { recursive: true, force: true }) };
}

/** Every file and folder under `dir`, relative, sorted ([] when `dir` does not exist). */
export async function listTree(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true }).catch(() => [] as string[]);
  return entries.map(String).sort();
}

export async function expectEpubError(promise: Promise<unknown>, code: EpubErrorCode): Promise<EpubError> {
  try {
    await promise;
  } catch (err) {
    if (!(err instanceof EpubError)) throw new Error(`expected EpubError ${code}, got ${String(err)}`);
    if (err.code !== code) throw new Error(`expected ${code}, got ${err.code}: ${err.message}`);
    return err;
  }
  throw new Error(`expected EpubError ${code}, but it resolved`);
}

/** setImmediate callbacks run while `work` was pending: none when it held the event loop throughout. */
export async function turnsDuring(work: () => Promise<unknown>): Promise<number> {
  let turns = 0;
  let on = true;
  const turn = () => {
    turns += 1;
    if (on) setImmediate(turn);
  };
  setImmediate(turn);
  await work();
  const seen = turns;
  on = false;
  return seen;
}
