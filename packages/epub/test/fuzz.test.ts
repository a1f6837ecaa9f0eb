import { describe, expect, it } from 'vitest';
import { EpubError, parseEpub } from '../src/index.js';
import { makeEpub } from '../src/testing/index.js';

/** mulberry32: small, seeded, reproducible. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function outcome(buf: Buffer): Promise<string> {
  try {
    await parseEpub(buf);
    return 'ok';
  } catch (err) {
    if (!(err instanceof EpubError)) throw new Error(`non-EpubError escaped: ${String(err)}`, { cause: err });
    // UNREADABLE is the catch-all for unexpected failures: its presence would hide a parser bug.
    expect(err.code).not.toBe('UNREADABLE');
    return err.code;
  }
}

describe('random and mutated input only ever fails with EpubError', () => {
  const valid = makeEpub({
    version: 3,
    cover: true,
    title: '随机',
    chapters: [{ title: 'A', children: [{ title: 'B' }] }],
  });

  it('300 random buffers', async () => {
    const rand = prng(42);
    for (let i = 0; i < 300; i++) {
      const buf = Buffer.alloc(Math.floor(rand() * 2048));
      for (let j = 0; j < buf.length; j++) buf[j] = Math.floor(rand() * 256);
      // Some start with a ZIP signature to get past the first check.
      if (i % 2 === 0 && buf.length >= 4) buf.writeUInt32LE(0x04034b50, 0);
      await outcome(buf);
    }
  });

  it('400 mutations of a valid EPUB (byte flips, truncations, splices)', async () => {
    const rand = prng(7);
    const codes = new Map<string, number>();
    for (let i = 0; i < 400; i++) {
      let buf = Buffer.from(valid);
      const mode = i % 4;
      if (mode === 0 || mode === 3) {
        for (let k = 0; k < 1 + Math.floor(rand() * 8); k++)
          buf[Math.floor(rand() * buf.length)] = Math.floor(rand() * 256);
      }
      if (mode === 1) buf = buf.subarray(0, Math.floor(rand() * buf.length));
      if (mode === 2) {
        const at = Math.floor(rand() * buf.length);
        buf = Buffer.concat([buf.subarray(0, at), Buffer.from([Math.floor(rand() * 256)]), buf.subarray(at)]);
      }
      const code = await outcome(buf);
      codes.set(code, (codes.get(code) ?? 0) + 1);
    }
    expect(codes.size).toBeGreaterThan(1);
  });
});
