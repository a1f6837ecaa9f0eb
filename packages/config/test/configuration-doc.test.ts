import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EnvSchema } from '../src/index.js';

interface Row {
  names: string[];
  defaultText: string;
  accepted: string;
}

/** The table's rows: `| variable(s) | default | accepted | meaning |`. */
function tableRows(doc: string): Row[] {
  return doc
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const cells = line.split('|').map((cell) => cell.trim());
      return {
        names: [...(cells[1] ?? '').matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1] as string),
        defaultText: cells[2] ?? '',
        accepted: cells[3] ?? '',
      };
    });
}

interface PropertySchema {
  default?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  anyOf?: Array<{ const?: unknown }>;
}

const properties = EnvSchema.properties as Record<string, PropertySchema>;

/** A number as a word of the text: 1 is not found in 1024. */
const namesNumber = (text: string, n: number) => new RegExp(`(^|[^0-9])${n}([^0-9]|$)`).test(text);

describe('docs/configuration.md stays true', () => {
  const doc = readFileSync(new URL('../../../docs/configuration.md', import.meta.url), 'utf8');
  const rows = tableRows(doc);
  const rowOf = (name: string) => rows.find((row) => row.names.includes(name));

  it('documents every environment variable of the schema in its table', () => {
    const missing = Object.keys(EnvSchema.properties).filter((name) => !rowOf(name));
    expect(missing).toEqual([]);
  });

  it('documents no variable the schema does not read', () => {
    expect(rows.flatMap((row) => row.names).filter((name) => !(name in properties))).toEqual([]);
  });

  it("gives each variable the schema's default", () => {
    const wrong = Object.entries(properties).flatMap(([name, schema]) => {
      const row = rowOf(name);
      if (!row || schema.default === undefined) return [];
      const ok =
        schema.default === ''
          ? row.defaultText.startsWith('empty')
          : row.defaultText.startsWith(`\`${String(schema.default)}\``);
      return ok
        ? []
        : [`${name}: documented ${row.defaultText}, the schema says ${JSON.stringify(schema.default)}`];
    });
    expect(wrong).toEqual([]);
  });

  it("gives each variable the schema's limits and values", () => {
    const wrong = Object.entries(properties).flatMap(([name, schema]) => {
      const row = rowOf(name);
      if (!row) return [];
      const limits = [
        schema.minimum,
        schema.maximum,
        // 1 is any non-empty value: an empty one counts as unset
        schema.minLength === 1 ? undefined : schema.minLength,
        schema.maxLength,
      ].filter((n): n is number => n !== undefined);
      const values = (schema.anyOf ?? []).map((s) => `\`${String(s.const)}\``);
      return [
        ...limits
          .filter((n) => !namesNumber(row.accepted, n))
          .map((n) => `${name}: ${n} not in "${row.accepted}"`),
        ...values
          .filter((v) => !row.accepted.includes(v))
          .map((v) => `${name}: ${v} not in "${row.accepted}"`),
      ];
    });
    expect(wrong).toEqual([]);
  });
});
