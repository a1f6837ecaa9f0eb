/**
 * The committed OpenAPI documents rendered as Markdown (docs/api/): one page per service, each
 * operation with its parameters, body and responses, then the schemas it reaches as tables. Only the
 * constructs the services' documents use are rendered; the output depends on the document alone, so
 * a test can compare it with the committed pages.
 */

/** The parts of an OpenAPI 3.1 document this renderer reads. */
export interface OpenApiDocument {
  info: { title: string; description?: string; version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema>; securitySchemes?: Record<string, unknown> };
  security?: Array<Record<string, unknown>>;
}

interface Operation {
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema: Schema }> };
  responses: Record<string, { description?: string; content?: Record<string, { schema: Schema }> }>;
  security?: Array<Record<string, unknown>>;
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema: Schema;
}

export interface Schema {
  $ref?: string;
  type?: string | string[];
  description?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  additionalProperties?: boolean | Schema;
}

const REF_PREFIX = '#/components/schemas/';
const METHODS = ['get', 'head', 'post', 'put', 'patch', 'delete'];

const refName = (ref: string): string => ref.slice(REF_PREFIX.length);
/** GitHub's anchor of a `### name` heading (an operation's). */
const anchor = (name: string): string => name.toLowerCase().replace(/[^a-z0-9_-]/g, '');
/** A schema's own anchor: schema names may equal operationIds but for case (`Health`, `health`). */
const schemaAnchor = (name: string): string => `schema-${anchor(name)}`;
const link = (name: string): string => `[${name}](#${schemaAnchor(name)})`;

/** Text that fits in one table cell: one line, pipes escaped. */
const cell = (text: string | undefined): string =>
  (text ?? '').replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');
/** A value in a code span; the empty string shows as `""` (an empty span is not Markdown). */
const code = (value: unknown): string =>
  `\`${typeof value === 'string' && value !== '' ? value : JSON.stringify(value)}\``;

/** A schema's type in a few words: `string`, `integer`, `[BookSummary](#booksummary)[]`, `'a' or 'b'`. */
export function typeOf(schema: Schema): string {
  if (schema.$ref) return link(refName(schema.$ref));
  if (schema.anyOf) return schema.anyOf.map(typeOf).join(' or ');
  if (schema.enum) return schema.enum.map(code).join(' or ');
  if (schema.const !== undefined) return code(schema.const);
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const shown = types.map((t) => (t === 'array' ? `${schema.items ? typeOf(schema.items) : 'any'}[]` : t));
  const base = shown.length > 0 ? shown.join(' or ') : 'any';
  return schema.format ? `${base} (${schema.format})` : base;
}

/** Bounds and default of a schema, as short text. */
export function constraintsOf(schema: Schema): string {
  const parts: string[] = [];
  const range = (lo: number | undefined, hi: number | undefined, unit: string) => {
    if (lo !== undefined && hi !== undefined) parts.push(`${lo}-${hi}${unit}`);
    else if (lo !== undefined) parts.push(`≥ ${lo}${unit}`);
    else if (hi !== undefined) parts.push(`≤ ${hi}${unit}`);
  };
  range(schema.minimum, schema.maximum, '');
  range(schema.minLength, schema.maxLength, ' chars');
  range(schema.minItems, schema.maxItems, ' items');
  if (schema.pattern !== undefined) parts.push(`pattern ${code(schema.pattern)}`);
  if (schema.default !== undefined) parts.push(`default ${code(schema.default)}`);
  return parts.join(', ');
}

/** The component schemas a node refers to, directly or through other schemas. */
function collectRefs(node: unknown, schemas: Record<string, Schema>, found: Set<string>): void {
  if (Array.isArray(node)) {
    for (const item of node) collectRefs(item, schemas, found);
  } else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith(REF_PREFIX)) {
        const name = refName(value);
        if (!found.has(name)) {
          found.add(name);
          collectRefs(schemas[name], schemas, found);
        }
      } else {
        collectRefs(value, schemas, found);
      }
    }
  }
}

/** Rows of a property table: nested objects (inline, or items of an inline array) as dotted names. */
function propertyRows(schema: Schema, prefix = ''): string[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).flatMap(([name, prop]) => {
    const row = `| \`${prefix}${name}\` | ${cell(typeOf(prop))} | ${required.has(name) ? 'yes' : 'no'} | ${cell(constraintsOf(prop))} | ${cell(prop.description)} |`;
    const nested = prop.properties ? prop : prop.items?.properties ? prop.items : undefined;
    const nestedPrefix = `${prefix}${name}${prop.items ? '[]' : ''}.`;
    return [row, ...(nested ? propertyRows(nested, nestedPrefix) : [])];
  });
}

const PROPERTY_HEADER = ['| field | type | required | constraints | description |', '|---|---|---|---|---|'];

function renderSchema(name: string, schema: Schema): string[] {
  const out = [`<a id="${schemaAnchor(name)}"></a>`, '', `### ${name}`, ''];
  if (schema.description) out.push(schema.description, '');
  if (schema.properties) {
    out.push(...PROPERTY_HEADER, ...propertyRows(schema));
    if (schema.additionalProperties === false) out.push('', 'No other fields.');
  } else {
    const items = schema.items?.properties ? schema.items : undefined;
    out.push(`Type: ${typeOf(schema)}${constraintsOf(schema) ? ` (${constraintsOf(schema)})` : ''}.`);
    if (items) out.push('', 'Each item:', '', ...PROPERTY_HEADER, ...propertyRows(items));
  }
  out.push('');
  return out;
}

/** An answer's body in one line: an envelope with its fields (and `data`'s type), or the schema's type. */
export function bodyOf(schema: Schema): string {
  const props = schema.properties;
  if (props && ('error_code' in props || 'code' in props) && 'msg' in props) {
    const fields = Object.entries(props).map(([field, prop]) =>
      field === 'data' ? `data: ${typeOf(prop)}` : field,
    );
    return `envelope {${fields.join(', ')}}`;
  }
  return typeOf(schema);
}

function responseRows(op: Operation): string[] {
  // statuses answering the same body are one row
  const rows = new Map<string, string[]>();
  for (const [status, response] of Object.entries(op.responses)) {
    const content = Object.entries(response.content ?? {});
    const body =
      content.length === 0
        ? `(no body) ${cell(response.description)}`
        : content.map(([media, { schema }]) => `\`${media}\`: ${cell(bodyOf(schema))}`).join('<br>');
    rows.set(body, [...(rows.get(body) ?? []), status]);
  }
  return [...rows].map(([body, statuses]) => `| ${statuses.join(', ')} | ${body} |`);
}

function renderOperation(method: string, path: string, op: Operation, authByDefault: boolean): string[] {
  const out = [`### ${op.operationId}`, '', `\`${method.toUpperCase()} ${path}\`: ${op.summary ?? ''}`, ''];
  if (op.description) out.push(op.description, '');
  const auth = op.security ? op.security.length > 0 : authByDefault;
  out.push(auth ? 'Needs `Authorization: Bearer <token>`.' : 'No token.', '');
  if (op.parameters?.length) {
    out.push('| parameter | in | type | required | constraints | description |', '|---|---|---|---|---|---|');
    for (const p of op.parameters) {
      out.push(
        `| \`${p.name}\` | ${p.in} | ${cell(typeOf(p.schema))} | ${p.required ? 'yes' : 'no'} | ${cell(constraintsOf(p.schema))} | ${cell(p.description)} |`,
      );
    }
    out.push('');
  }
  if (op.requestBody) {
    const bodies = Object.entries(op.requestBody.content).map(
      ([media, { schema }]) => `\`${media}\` ${typeOf(schema)}`,
    );
    out.push(`Body${op.requestBody.required ? ' (required)' : ''}: ${bodies.join('; ')}.`, '');
  }
  out.push('| status | body |', '|---|---|', ...responseRows(op), '');
  return out;
}

interface Entry {
  method: string;
  path: string;
  op: Operation;
}

function operationsOf(doc: OpenApiDocument): Entry[] {
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    METHODS.filter((m) => ops[m]).map((method) => ({ method, path, op: ops[method] as Operation })),
  );
}

/** One service's page. `source` names the document it was made from, for the page's header. */
export function renderApiPage(doc: OpenApiDocument, source: string, regenerate: string): string {
  const authByDefault = (doc.security ?? []).length > 0;
  const entries = operationsOf(doc);
  const out = [
    `# ${doc.info.title}`,
    '',
    `<!-- generated from ${source} by \`${regenerate}\`: do not edit by hand -->`,
    '',
    `Version ${doc.info.version}. ${doc.info.description ?? ''}`.trim(),
    '',
    'Section numbers in descriptions (`spec §N`, `decisions.md §N`) are those of',
    '[docs/contract](../contract/README.md). Error codes and statuses: [docs/errors.md](../errors.md).',
    '',
    '## Operations',
    '',
    '| operationId | method and path | summary |',
    '|---|---|---|',
    ...entries.map(
      ({ method, path, op }) =>
        `| [${op.operationId}](#${anchor(op.operationId)}) | \`${method.toUpperCase()} ${path}\` | ${cell(op.summary)} |`,
    ),
    '',
  ];
  const tags = [...new Set(entries.map((e) => e.op.tags?.[0] ?? 'other'))];
  for (const tag of tags) {
    out.push(`## ${tag}`, '');
    for (const { method, path, op } of entries.filter((e) => (e.op.tags?.[0] ?? 'other') === tag)) {
      out.push(...renderOperation(method, path, op, authByDefault));
    }
  }
  const used = new Set<string>();
  collectRefs(doc.paths, doc.components.schemas, used);
  out.push('## Schemas', '');
  for (const name of [...used].sort())
    out.push(...renderSchema(name, doc.components.schemas[name] as Schema));
  return `${out.join('\n').trimEnd()}\n`;
}

/** The index page of docs/api. */
export function renderApiIndex(pages: Array<{ file: string; doc: OpenApiDocument; source: string }>): string {
  const rows = pages.map(
    ({ file, doc, source }) =>
      `| [${doc.info.title}](${file}) | ${operationsOf(doc).length} | \`${source}\` |`,
  );
  return [
    '# API reference',
    '',
    'Generated from the OpenAPI 3.1 documents the services serve at `/openapi.json` (committed in',
    '`packages/sdk/openapi/`): run `pnpm docs:api` after `pnpm openapi`; a test fails while these pages',
    'are out of date. What the endpoints mean: [docs/contract](../contract/README.md).',
    '',
    '| service | operations | made from |',
    '|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}
