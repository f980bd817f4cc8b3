/** A Modelfile's PARAMETER values: a number, a string, or a list for a name given more than once (stop). */
export type ModelfileParameters = Record<string, string | number | (string | number)[]>;

/** Parses `name value` lines into Modelfile parameters; repeated names (stop) become lists. */
export function parseParameters(text: string): { params: ModelfileParameters; error?: string } {
  const params: ModelfileParameters = {};
  for (const [i, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-z_]+)\s+(.+)$/.exec(line);
    if (!m) return { params, error: `line ${i + 1}: expected "name value", e.g. "top_k 40"` };
    const [, key, rawValue] = m;
    let value: string | number = rawValue.trim();
    if (/^".*"$/.test(value)) value = value.slice(1, -1);
    else if (/^-?\d+(\.\d+)?$/.test(value)) value = Number(value);
    const prev = params[key];
    params[key] = prev === undefined ? value : [...(Array.isArray(prev) ? prev : [prev]), value];
  }
  return { params };
}
