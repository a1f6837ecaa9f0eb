import { SaxesParser } from 'saxes';
import type { Operation } from './contract.js';

export type Family = 'reader' | 'admin';

/** What must never reach a client: stack frames, source paths, driver and SQL error text. */
const LEAKS: Array<[string, RegExp]> = [
  ['stack frame', /\bat [\w.<>$]+ \(|\bat (file:|node:|\/)[^\s]*:\d+:\d+/],
  ['source path', /\/(work|home|tmp|usr)\/[^\s"]*\.(ts|js|mjs)\b|node_modules|node:internal/],
  ['sqlite error', /SQLITE_[A-Z]+|SqliteError|better-sqlite3/],
  [
    'postgres error',
    /syntax error at or near|violates (unique|foreign key|check) constraint|relation "[^"]+"|invalid byte sequence for encoding|duplicate key value/i,
  ],
  [
    'sql text',
    /\b(insert into|delete from|update \w+ set)\b|\bselect\b[^"]{1,200}\bfrom\s+"?(books|users|shelf_entries|ratings|operators)\b/i,
  ],
  ['error class', /\b(TypeError|ReferenceError|RangeError|SyntaxError): /],
];

export interface Outcome {
  status: number;
  body: string;
  contentType: string | undefined;
}

/**
 * The invariants of every answer: a status the route declares, never 5xx, a JSON envelope of the
 * service's family whose code agrees with the status, a body valid against the declared schema, no leak;
 * or, where the route declares a document for the status, a well-formed one of its media type. Returns
 * the problems found (empty when the answer is acceptable).
 */
export function checkAnswer(op: Operation, family: Family, out: Outcome, sent: string[] = []): string[] {
  const problems: string[] = [];
  // what the client sent may be echoed back (e.g. in a not-found path): only the service's own text counts
  let own = out.body;
  for (const s of sent)
    if (s.length >= 4) own = own.split(JSON.stringify(s).slice(1, -1)).join('').split(s).join('');
  const validate = op.responses.get(out.status);
  // 500 is declared everywhere but is never an acceptable answer; 502 (upstream refused) is, where declared
  if (out.status === 500 || (out.status >= 500 && !validate)) problems.push(`HTTP ${out.status}`);
  if (!validate) problems.push(`undeclared status ${out.status} (declared ${[...op.responses.keys()]})`);
  for (const [what, re] of LEAKS) {
    const m = re.exec(own);
    if (m) problems.push(`${what} in body: ${JSON.stringify(m[0])}`);
  }
  const document = op.documents.get(out.status);
  if (document) return [...problems, ...documentProblems(document, out)];
  let json: any;
  try {
    json = JSON.parse(out.body);
  } catch {
    problems.push(`body is not JSON: ${out.body.slice(0, 120)}`);
    return problems;
  }
  if (!/application\/json/.test(out.contentType ?? '')) problems.push(`content-type ${out.contentType}`);
  if (json === null || typeof json !== 'object' || typeof json.msg !== 'string') {
    problems.push('no envelope');
    return problems;
  }
  const code = family === 'reader' ? json.error_code : json.code;
  const foreign = family === 'reader' ? 'code' : 'error_code';
  if (!Number.isInteger(code))
    problems.push(`envelope without integer ${family === 'reader' ? 'error_code' : 'code'}`);
  if (foreign in json) problems.push(`envelope of the other family (${foreign})`);
  if ((out.status === 200) !== (code === 0)) problems.push(`status ${out.status} with code ${code}`);
  if (validate && !validate(json)) {
    problems.push(`schema: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
  }
  return problems;
}

/**
 * A document answer (the OPDS feeds): of a media type its route declares, and well-formed as what it
 * says it is: JSON for `+json` types, XML for the others.
 */
function documentProblems(types: string[], out: Outcome): string[] {
  const type = out.contentType ?? '';
  if (!types.includes(type)) return [`content-type ${type} (declared ${types})`];
  if (type.endsWith('+json')) {
    try {
      JSON.parse(out.body);
      return [];
    } catch {
      return [`body is not JSON: ${out.body.slice(0, 120)}`];
    }
  }
  const problems: string[] = [];
  const parser = new SaxesParser({ xmlns: true });
  parser.on('error', (err) => {
    if (problems.length === 0) problems.push(`body is not well-formed XML: ${err.message}`);
  });
  parser.write(out.body).close();
  return problems;
}
