import { testDialects } from '@readlib/data/testing';
import { describe, expect, it } from 'vitest';
import { runLoad } from '../src/load.js';
import { profile, recordFigures } from '../src/profile.js';

// `pnpm test`: a short run on SQLite; `pnpm soak`: the long run on SQLite and PostgreSQL.
const dialects = profile.soak ? (await testDialects()).map((d) => d.name) : (['sqlite'] as const);

describe.each(dialects)('mixed load with writes, uploads and accounting (%s)', (dialect) => {
  it(
    `${profile.loadSeconds} s at ${profile.loadConnections} connections: no 5xx, no acknowledged write lost`,
    async () => {
      const f = await runLoad({
        dialect,
        seconds: profile.loadSeconds,
        connections: profile.loadConnections,
      });
      recordFigures(`load-${dialect}`, f);
      console.log(`[load ${dialect}]`, JSON.stringify(f));
      expect(f.serverErrors).toBe(0);
      expect(f.networkErrors).toBe(0);
      expect((f as { failures?: string[] }).failures ?? []).toEqual([]);
      expect(f.requests).toBeGreaterThan(50);
      expect(f.acknowledged.shelf).toBeGreaterThan(0);
      expect(f.lost).toEqual({ shelf: 0, rating: 0, creates: 0 });
      if (dialect === 'sqlite') expect(f.integrity).toBe('ok');
    },
    (profile.loadSeconds + 180) * 1000,
  );
});
