/**
 * A minimal TOML writer for test config files: nested tables of strings, finite numbers,
 * booleans and arrays of those. Enough for a Codex `config.toml`; anything else is refused.
 */
const bareKey = /^[A-Za-z0-9_-]+$/;

function key(k: string): string {
  return bareKey.test(k) ? k : JSON.stringify(k);
}

function scalar(v: unknown, at: string): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v))) return String(v);
  throw new Error(`cannot write ${at} = ${String(v)} as TOML`);
}

function isTable(v: unknown): v is object {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Renders a table as TOML: scalars first, then sub-tables as `[a.b]` sections. */
export function toToml(table: object, path: ReadonlyArray<string> = []): string {
  const lines: string[] = [];
  const sections: string[] = [];
  for (const [k, v] of Object.entries(table)) {
    const at = [...path, k].join('.');
    if (isTable(v)) sections.push(toToml(v, [...path, k]));
    else if (Array.isArray(v)) lines.push(`${key(k)} = [${v.map((item) => scalar(item, at)).join(', ')}]`);
    else lines.push(`${key(k)} = ${scalar(v, at)}`);
  }
  const header = path.length > 0 && lines.length > 0 ? [`[${path.map(key).join('.')}]`] : [];
  return [...header, ...lines, ''].join('\n') + sections.join('');
}
