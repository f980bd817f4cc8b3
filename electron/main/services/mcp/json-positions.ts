/**
 * A strict JSON parser that remembers where every value and key starts, so a config error can point at its line and
 * column (JSON.parse gives no position in Node 20), and secret strings can be replaced in place without reformatting.
 */

interface JsonSpan {
  /** Offset of the value's first character (for a string: its opening quote). */
  start: number;
  end: number;
  /** Offset of the property key that holds the value, when it has one. */
  keyStart?: number;
}

export interface PositionedJson {
  value: unknown;
  /** Spans by JSON path, joined with NUL ('' is the root). */
  spans: Map<string, JsonSpan>;
}

export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

export const pathKey = (path: readonly (string | number)[]): string => path.map(String).join('\0');

export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < Math.min(offset, text.length); i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

export function parsePositioned(text: string): PositionedJson {
  const spans = new Map<string, JsonSpan>();
  let i = 0;
  const fail = (msg: string, at = i): never => {
    throw new JsonSyntaxError(msg, at);
  };
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  const describe = () => (i >= text.length ? 'the end of the text' : `'${text[i]}'`);

  const str = (): string => {
    const start = i++;
    let out = '';
    for (;;) {
      if (i >= text.length) fail('This string is not closed with "', start);
      const c = text[i];
      if (c === '"') break;
      if (c === '\n' || c < ' ') fail('A line break or control character inside a string (use \\n)');
      if (c === '\\') {
        const e = text[i + 1];
        const simple: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r' };
        if (e === 't') out += '\t';
        else if (e in simple) out += simple[e];
        else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
          out += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
          i += 4;
        } else fail(`Invalid escape \\${e ?? ''} in a string`);
        i += 2;
        continue;
      }
      out += c;
      i++;
    }
    i++;
    return out;
  };

  const value = (path: (string | number)[], keyStart?: number): unknown => {
    ws();
    const start = i;
    let v: unknown;
    const c = text[i];
    if (c === '{') {
      i++;
      const obj: Record<string, unknown> = {};
      ws();
      if (text[i] === '}') i++;
      else
        for (;;) {
          ws();
          if (text[i] !== '"')
            fail(
              text[i] === '}'
                ? 'A comma before } (trailing commas are not JSON)'
                : `Expected a "key", found ${describe()}`,
            );
          const ks = i;
          const k = str();
          if (Object.hasOwn(obj, k)) fail(`Duplicate key "${k}"`, ks);
          ws();
          if (text[i] !== ':') fail(`Expected : after "${k}", found ${describe()}`);
          i++;
          Object.defineProperty(obj, k, { value: value([...path, k], ks), enumerable: true, writable: true });
          ws();
          if (text[i] === ',') i++;
          else if (text[i] === '}') {
            i++;
            break;
          } else fail(`Expected , or } after a value, found ${describe()}`);
        }
      v = obj;
    } else if (c === '[') {
      i++;
      const arr: unknown[] = [];
      ws();
      if (text[i] === ']') i++;
      else
        for (;;) {
          ws();
          if (text[i] === ']') fail('A comma before ] (trailing commas are not JSON)');
          arr.push(value([...path, arr.length]));
          ws();
          if (text[i] === ',') i++;
          else if (text[i] === ']') {
            i++;
            break;
          } else fail(`Expected , or ] after a value, found ${describe()}`);
        }
      v = arr;
    } else if (c === '"') v = str();
    else {
      const m = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(i, i + 400));
      if (!m) fail(`Expected a value, found ${describe()}`);
      i += m![0].length;
      v = JSON.parse(m![0]);
    }
    spans.set(pathKey(path), { start, end: i, keyStart });
    return v;
  };

  const v = value([]);
  ws();
  if (i < text.length) fail(`Unexpected ${describe()} after the end of the JSON`);
  return { value: v, spans };
}
