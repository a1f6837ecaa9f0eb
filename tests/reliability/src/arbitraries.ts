import fc from 'fast-check';
import type { JsonSchema, Operation } from './contract.js';

/** Values that exist in the seeded database, so valid inputs reach real rows, not only "not found". */
export interface Pools {
  fileNames: string[];
  openIds: string[];
}

const LONE_SURROGATES = ['\uD800', '\uDFFF', 'a\uD83Db', '\uDC00\uD800'];

/** Hostile strings (docs/reliability.md): unicode edges, SQL, traversal, control characters, 100 KB. */
export const HOSTILE_STRINGS: string[] = [
  '',
  ' ',
  '\u0000',
  'abc\u0000def',
  '\u202Eevil\u202C',
  'مرحبا بالعالم',
  '\u200B\u200C\u200D\uFEFF',
  '👨‍👩‍👧‍👦🏳️‍🌈',
  'e\u0301\u0301\u0301',
  '𠜎𠜱𠝹',
  '\r\n\t\u0007\u001b[31m',
  "' OR '1'='1",
  "'; DROP TABLE books; --",
  '1) UNION SELECT password FROM operators --',
  '%_%',
  '\\',
  '"',
  "'",
  '../../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '/etc/passwd',
  'C:\\Windows\\System32',
  '....//....//',
  '%2e%2e%2f%2e%2e%2f',
  '%252e%252e%252f',
  '<script>alert(1)</script>',
  '${7*7}{{7*7}}',
  '__proto__',
  'constructor',
  'null',
  'undefined',
  'NaN',
  '-1',
  '0',
  '1e309',
  '99999999999999999999999999',
  '{"openId":"a","fileName":"b"}',
  ...LONE_SURROGATES,
  'a'.repeat(100 * 1024),
  '红'.repeat(35 * 1024),
];

export const HOSTILE_NUMBERS: string[] = [
  '0',
  '-1',
  '-0',
  '1.5',
  '1e3',
  '0x10',
  '2147483648',
  '9007199254740993',
  '1e309',
  '99999999999999999999999999999',
  '-99999999999999999999',
  'NaN',
  'Infinity',
  '',
  ' 1',
  'one',
  'true',
  '[]',
];

/** Raw query fragments that are not valid percent-encoding or UTF-8 (overlong, truncated, NUL). */
export const RAW_GARBAGE = ['%', '%zz', '%c0%ae%c0%ae%2f', '%ED%A0%80', '%00', '%ff%fe', '%e4%b8', '+%2B+'];

export const hostileString = () => fc.constantFrom(...HOSTILE_STRINGS);

/** A string of mixed scripts, emoji and control characters, as a fuzzer would send. */
export const unicodeString = (maxLength = 40) =>
  fc.oneof(
    fc.string({ maxLength, unit: 'grapheme' }),
    fc.string({ maxLength, unit: 'binary' }),
    fc.string({ maxLength }),
  );

/** A valid value of a JSON schema (TypeBox output), using pools for the names the database knows. */
export function valid(schema: JsonSchema | undefined, name: string, pools: Pools): fc.Arbitrary<unknown> {
  if (!schema) return fc.constant(undefined);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  const alts = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(alts)) return fc.oneof(...alts.map((s: JsonSchema) => valid(s, name, pools)));
  switch (schema.type) {
    case 'string': {
      const min = schema.minLength ?? 0;
      const max = Math.min(schema.maxLength ?? 64, 64);
      if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern));
      const pool = /filename/i.test(name) ? pools.fileNames : /openid/i.test(name) ? pools.openIds : [];
      const free = fc
        .oneof(
          fc.string({ minLength: min, maxLength: max }),
          fc.string({ minLength: min, maxLength: max, unit: 'grapheme' }),
        )
        .filter((s) => s.length >= min && s.length <= (schema.maxLength ?? 1e9));
      return pool.length ? fc.oneof({ arbitrary: fc.constantFrom(...pool), weight: 4 }, free) : free;
    }
    case 'integer':
      return fc.integer({
        min: schema.minimum ?? -1000,
        max: schema.maximum ?? Math.max(1000, schema.minimum ?? 0),
      });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(valid(schema.items, name, pools), { maxLength: 3 });
    case 'object': {
      const props: Record<string, JsonSchema> = schema.properties ?? {};
      const required: string[] = schema.required ?? [];
      const arbs = Object.fromEntries(Object.entries(props).map(([k, s]) => [k, valid(s, k, pools)]));
      return fc.record(arbs, { requiredKeys: required });
    }
    default:
      return fc.anything();
  }
}

/** A value of the wrong type for a schema (or hostile for strings). */
export function wrong(schema: JsonSchema | undefined): fc.Arbitrary<unknown> {
  const others = fc.oneof(
    fc.constant(null),
    fc.boolean(),
    fc.constantFrom(0, -1, 1e308, -1e308, 2 ** 53 + 1, 0.5),
    fc.constant([]),
    fc.constant({}),
    fc.constant({ __proto__: { admin: true } }),
    fc.array(fc.string(), { minLength: 2, maxLength: 3 }),
  );
  if (schema?.type === 'string') return fc.oneof(others, hostileString());
  return fc.oneof(others, hostileString());
}

/** Percent-encodes like encodeURIComponent, lone surrogates as their (invalid) 3-byte UTF-8 form. */
export function encodeLoose(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    let out = '';
    for (let i = 0; i < value.length; i++) {
      const c = value.charCodeAt(i);
      const next = value.charCodeAt(i + 1);
      if (c >= 0xd800 && c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        out += encodeURIComponent(value[i]! + value[i + 1]!);
        i++;
      } else if (c >= 0xd800 && c <= 0xdfff) {
        out += [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)]
          .map((b) => `%${b.toString(16).toUpperCase()}`)
          .join('');
      } else out += encodeURIComponent(value[i]!);
    }
    return out;
  }
}

/** One generated request: query pairs (repeatable, pre-encoded when raw), body and content type. */
export interface GenRequest {
  kind: string;
  pairs: Array<[string, string, boolean?]>;
  body?: string | Buffer;
  contentType?: string;
}

export function toUrl(path: string, pairs: GenRequest['pairs']): string {
  const qs = pairs.map(([k, v, raw]) => `${encodeLoose(k)}=${raw ? v : encodeLoose(v)}`).join('&');
  return qs ? `${path}?${qs}` : path;
}

const asQueryValue = (v: unknown): string =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : JSON.stringify(v);

function shelfArb(pools: Pools): fc.Arbitrary<string> {
  return fc
    .record({ openId: fc.constantFrom(...pools.openIds), fileName: fc.constantFrom(...pools.fileNames) })
    .map((o) => JSON.stringify(o));
}

export const BAD_SHELF = [
  '{',
  '{"openId":"a"',
  '[]',
  'null',
  '"text"',
  '42',
  '{"openId":1,"fileName":2}',
  '{"openId":"","fileName":""}',
  '{"openId":"a"}',
  '{"__proto__":{"openId":"a"},"fileName":"b"}',
  '{"openId":"a","fileName":"b","extra":{"deep":[1,2,3]}}',
  `${'['.repeat(5000)}${']'.repeat(5000)}`,
  '{"openId":"../../etc/passwd","fileName":"../../etc/passwd"}',
  '{"openId":"\\u0000","fileName":"\\ud800"}',
  "{'openId':'a','fileName':'b'}",
  '%7B%22openId%22',
];

/** Valid query of an operation: required params always, optional ones sometimes. */
function validQuery(op: Operation, pools: Pools): fc.Arbitrary<GenRequest['pairs']> {
  const parts = op.query.map((p) => {
    const value = p.name === 'shelf' ? shelfArb(pools) : valid(p.schema, p.name, pools).map(asQueryValue);
    const pair = value.map((v): [string, string] => [p.name, v]);
    return p.required ? pair.map((x) => [x]) : fc.option(pair, { nil: undefined }).map((x) => (x ? [x] : []));
  });
  return fc.tuple(...parts).map((lists) => lists.flat() as GenRequest['pairs']);
}

/** A request that breaks the contract in one of the ways docs/reliability.md lists. */
function invalidQuery(op: Operation, pools: Pools): fc.Arbitrary<GenRequest> {
  return validQuery(op, pools).chain((pairs) => {
    const names = op.query.map((p) => p.name);
    const muts: Array<fc.Arbitrary<GenRequest>> = [
      // unknown, hostile parameter names
      fc
        .tuple(fc.constantFrom('__proto__', 'constructor', 'a[b]', 'openId[]', '', '%00'), hostileString())
        .map(([k, v]) => ({ kind: 'unknown-param', pairs: [...pairs, [k, v]] })),
      // raw bytes that are not valid percent-encoding / UTF-8
      fc.constantFrom(...RAW_GARBAGE).map((g) => ({
        kind: 'raw-garbage',
        pairs: [...pairs, [names[0] ?? 'x', g, true] as [string, string, boolean]],
      })),
    ];
    if (names.length) {
      muts.push(
        fc
          .tuple(fc.constantFrom(...names), fc.oneof(hostileString(), unicodeString()))
          .map(([n, v]) => ({ kind: 'hostile-value', pairs: [...pairs.filter(([k]) => k !== n), [n, v]] })),
        fc
          .tuple(fc.constantFrom(...names), fc.constantFrom(...HOSTILE_NUMBERS))
          .map(([n, v]) => ({ kind: 'bad-number', pairs: [...pairs.filter(([k]) => k !== n), [n, v]] })),
        fc
          .tuple(fc.constantFrom(...names), fc.string({ maxLength: 8 }))
          .map(([n, v]) => ({ kind: 'duplicated', pairs: [...pairs, [n, v], [n, `${v}x`]] })),
      );
      const required = op.query.filter((p) => p.required).map((p) => p.name);
      if (required.length)
        muts.push(
          fc
            .constantFrom(...required)
            .map((n) => ({ kind: 'missing-required', pairs: pairs.filter(([k]) => k !== n) })),
        );
      if (names.includes('shelf'))
        muts.push(
          fc.constantFrom(...BAD_SHELF).map((s) => ({
            kind: 'bad-shelf',
            pairs: [...pairs.filter(([k]) => k !== 'shelf'), ['shelf', s] as [string, string]],
          })),
        );
    }
    return fc.oneof(...muts);
  });
}

/** A body that breaks the contract: wrong types, missing fields, invalid JSON, wrong content type. */
function invalidBody(op: Operation, pools: Pools): fc.Arbitrary<GenRequest> {
  const schema = op.body!;
  const props = Object.keys(schema.properties ?? {});
  return (valid(schema, 'body', pools) as fc.Arbitrary<Record<string, unknown>>).chain((body) => {
    const json = (b: unknown, kind: string): GenRequest => ({
      kind,
      pairs: [],
      body: JSON.stringify(b),
      contentType: 'application/json',
    });
    const muts: Array<fc.Arbitrary<GenRequest>> = [
      fc
        .constantFrom(
          '{',
          '{"a":}',
          '',
          'null',
          '[]',
          '"string"',
          '123',
          '{"__proto__":{"admin":true}}',
          '{"constructor":{"prototype":{"admin":true}}}',
          `${'['.repeat(10000)}${']'.repeat(10000)}`,
          '\u0000',
          '\uFEFF{}',
        )
        .map((text) => ({ kind: 'invalid-json', pairs: [], body: text, contentType: 'application/json' })),
      fc
        .constantFrom(
          'text/plain',
          'application/xml',
          'multipart/form-data; boundary=x',
          'application/x-www-form-urlencoded',
          'application/json; charset=utf-16',
          'image/png',
          '',
        )
        .map((ct) => ({ kind: 'content-type', pairs: [], body: JSON.stringify(body), contentType: ct })),
      fc.oneof(fc.constant([]), fc.constant('x'), fc.constant(42)).map((b) => json(b, 'not-object')),
    ];
    if (props.length) {
      muts.push(
        fc
          .tuple(fc.constantFrom(...props), wrong(undefined))
          .map(([k, v]) => json({ ...body, [k]: v }, 'wrong-type')),
        fc
          .tuple(fc.constantFrom(...props), fc.oneof(hostileString(), unicodeString()))
          .map(([k, v]) => json({ ...body, [k]: v }, 'hostile-value')),
      );
    }
    const required: string[] = schema.required ?? [];
    if (required.length)
      muts.push(
        fc.constantFrom(...required).map((k) => {
          const { [k]: _drop, ...rest } = body;
          return json(rest, 'missing-required');
        }),
      );
    return fc.oneof(...muts);
  });
}

/** Valid or invalid requests of one operation, in roughly equal measure. */
export function requestArb(op: Operation, pools: Pools): fc.Arbitrary<GenRequest> {
  const query = validQuery(op, pools);
  if (op.body) {
    const validReq = fc.tuple(query, valid(op.body, 'body', pools), fc.boolean()).map(
      ([pairs, body, form]): GenRequest =>
        form
          ? {
              kind: 'valid-form',
              pairs,
              body: new URLSearchParams(
                Object.entries(body as object).map(([k, v]): [string, string] => [k, asQueryValue(v)]),
              ).toString(),
              contentType: 'application/x-www-form-urlencoded',
            }
          : { kind: 'valid', pairs, body: JSON.stringify(body), contentType: 'application/json' },
    );
    return fc.oneof(validReq, invalidBody(op, pools), invalidQuery(op, pools));
  }
  const validReq = query.map((pairs): GenRequest => ({ kind: 'valid', pairs }));
  return fc.oneof(validReq, invalidQuery(op, pools));
}
