/** Parses `a=1,b=2` lists used for per-appId settings; a malformed item is a start-up error, not a silent skip. */
export function parsePairs(value: string, name: string): Record<string, string> {
  // no prototype: a client-sent appId such as "constructor" or "__proto__" must find nothing here
  const out: Record<string, string> = Object.create(null);
  for (const item of value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const at = item.indexOf('=');
    if (at <= 0 || at === item.length - 1) throw new Error(`${name}: "${item}" is not key=value`);
    out[item.slice(0, at)] = item.slice(at + 1);
  }
  return out;
}
