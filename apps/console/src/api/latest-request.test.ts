import { describe, expect, it } from 'vitest';
import { latestRequest } from './latest-request';

describe('only the latest round of requests counts', () => {
  it('a new round aborts the one before and makes it no longer current', () => {
    const rounds = latestRequest();
    const first = rounds.start();
    expect(first.current).toBe(true);
    expect(first.signal.aborted).toBe(false);
    const second = rounds.start();
    expect(first.signal.aborted).toBe(true);
    expect(first.current).toBe(false);
    expect(second.current).toBe(true);
  });

  it('an older answer arriving last is recognised as stale', async () => {
    const rounds = latestRequest();
    const shown: string[] = [];
    const answer = (value: string, after: number) =>
      new Promise<string>((resolve) => setTimeout(() => resolve(value), after));
    const ask = async (value: string, after: number) => {
      const round = rounds.start();
      const got = await answer(value, after);
      if (round.current) shown.push(got);
    };
    await Promise.all([ask('slow, older', 30), ask('fast, newer', 1)]);
    expect(shown).toEqual(['fast, newer']);
  });

  it('stop() ends the current round (a view that goes away)', () => {
    const rounds = latestRequest();
    const round = rounds.start();
    rounds.stop();
    expect(round.signal.aborted).toBe(true);
    expect(round.current).toBe(false);
  });
});
