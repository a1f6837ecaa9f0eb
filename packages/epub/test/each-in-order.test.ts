import { describe, expect, it } from 'vitest';
import { eachInOrder, settledAll } from '../src/file-store.helpers.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// FileStore.putBook writes a book's files a few at a time into a temporary folder that it removes on
// failure: a failure must surface only after every write in flight has ended, and be the one a loop
// over the entries would have met first.
describe('eachInOrder / settledAll', () => {
  it('runs at most `limit` at once, in order, and everything when nothing fails', async () => {
    let running = 0;
    let most = 0;
    const started: number[] = [];
    await eachInOrder(
      Array.from({ length: 20 }, (_, i) => i),
      4,
      async (i) => {
        started.push(i);
        most = Math.max(most, ++running);
        await sleep(i % 3);
        running--;
      },
    );
    expect(started).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(most).toBe(4);
  });

  it('throws the earliest item failure after the running ones end, and starts no more', async () => {
    let running = 0;
    const started: number[] = [];
    const run = eachInOrder(
      Array.from({ length: 20 }, (_, i) => i),
      4,
      async (i) => {
        started.push(i);
        running++;
        try {
          if (i === 5) {
            await sleep(30);
            throw new Error('item 5');
          }
          if (i === 7) throw new Error('item 7');
          await sleep(5);
        } finally {
          running--;
        }
      },
    );
    await expect(run).rejects.toThrow('item 5');
    expect(running).toBe(0);
    expect(Math.max(...started)).toBeLessThan(12);
  });

  it('settledAll waits for every task and throws the first failure in the order given', async () => {
    let done = 0;
    const slow = sleep(20).then(() => {
      done++;
    });
    const late = sleep(10).then(() => {
      throw new Error('late');
    });
    await expect(settledAll([late, Promise.reject(new Error('early')), slow, undefined])).rejects.toThrow(
      'late',
    );
    expect(done).toBe(1);
  });
});
