import type { TSchema } from '@sinclair/typebox';
import { TypeGuard } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { describe, expect, it } from 'vitest';
import * as contracts from '../src/index.js';
import { contractSchemas } from '../src/index.js';
import { refsOf } from '../src/registry.js';

const exported: [string, TSchema][] = [];
for (const [name, value] of Object.entries(contracts as Record<string, unknown>)) {
  if (TypeGuard.IsSchema(value) && typeof value.$id === 'string') exported.push([name, value]);
}

/** Every `$id` below the top level of a schema. */
const nestedIdsOf = (node: unknown, depth = 0, found: string[] = []): string[] => {
  if (Array.isArray(node)) for (const item of node) nestedIdsOf(item, depth + 1, found);
  else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$id' && depth > 0) found.push(String(value));
      else nestedIdsOf(value, depth + 1, found);
    }
  }
  return found;
};

describe('contractSchemas registry (rule: $id = export name)', () => {
  it('every registered schema has a unique $id equal to its export name', () => {
    const ids = contractSchemas.map((schema) => schema.$id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const schema of contractSchemas) {
      expect(typeof schema.$id).toBe('string');
      expect((contracts as Record<string, unknown>)[schema.$id as string]).toBe(schema);
    }
  });

  it('every exported schema with an $id is registered', () => {
    expect(exported.length).toBe(contractSchemas.length);
    const registered = new Set(contractSchemas);
    const missing = exported.filter(([, schema]) => !registered.has(schema)).map(([name]) => name);
    expect(missing).toEqual([]);
    for (const [name, schema] of exported) expect(schema.$id).toBe(name);
  });

  it('envelope helpers carry no $id', () => {
    const { ReaderEnvelope, AdminEnvelope, AdminPage, ReaderAck, AdminAck, BookSummary } = contracts;
    for (const schema of [
      ReaderEnvelope(contracts.ref(BookSummary)),
      AdminEnvelope(contracts.ref(BookSummary)),
      AdminPage(contracts.ref(BookSummary)),
      ReaderAck(),
      AdminAck(),
    ]) {
      expect(schema.$id).toBeUndefined();
    }
  });

  it('references point at schemas registered earlier (or at the schema itself)', () => {
    const seen = new Set<string>();
    for (const schema of contractSchemas) {
      const id = schema.$id as string;
      for (const target of refsOf(schema)) {
        expect(target === id || seen.has(target), `${id} -> ${target}`).toBe(true);
      }
      seen.add(id);
    }
  });

  it('no schema embeds another $id (nested duplicate $ids break AJV)', () => {
    for (const schema of contractSchemas) expect(nestedIdsOf(schema), schema.$id).toEqual([]);
  });

  it('every schema compiles with the registry as references', () => {
    for (const schema of contractSchemas) {
      expect(() => TypeCompiler.Compile(schema, contractSchemas), schema.$id).not.toThrow();
    }
  });

  it('ref() produces the same JSON as Type.Ref: { $ref: <$id> }', () => {
    expect(JSON.parse(JSON.stringify(contracts.ref(contracts.BookSummary)))).toEqual({ $ref: 'BookSummary' });
  });
});
