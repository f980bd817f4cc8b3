/**
 * Markdown for export with every raw HTML tag made inert: `<` outside code becomes `&lt;`, so any Markdown viewer
 * shows `<script>`, `<style>` or `<img onerror>` as the text the model wrote instead of running it. Code spans and
 * fenced or indented code blocks are kept byte for byte (viewers show them literally already).
 */
export function inertMarkdown(md: string): string {
  const out: string[] = [];
  let fence: string | undefined;
  let prevBlank = true;
  for (const line of md.split('\n')) {
    if (fence) {
      out.push(line);
      if (new RegExp(`^ {0,3}${fence[0]}{${fence.length},}\\s*$`).test(line)) fence = undefined;
      continue;
    }
    const open = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (open && !(open[1][0] === '`' && line.slice(open[0].length).includes('`'))) {
      fence = open[1];
      out.push(line);
      continue;
    }
    // An indented code block starts after a blank line (it cannot interrupt a paragraph).
    if (prevBlank && /^( {4}|\t)/.test(line)) {
      out.push(line);
      continue;
    }
    prevBlank = line.trim() === '';
    out.push(escapeOutsideCodeSpans(line));
  }
  return out.join('\n');
}

function escapeOutsideCodeSpans(line: string): string {
  let result = '';
  let i = 0;
  while (i < line.length) {
    const tick = line.indexOf('`', i);
    if (tick < 0) {
      result += escapeTags(line.slice(i));
      break;
    }
    result += escapeTags(line.slice(i, tick));
    const run = /^`+/.exec(line.slice(tick))![0];
    const close = line.indexOf(run, tick + run.length);
    // A code span closes with a backtick run of the same length; an unclosed run is literal text.
    if (close < 0 || line[close + run.length] === '`') {
      result += run;
      i = tick + run.length;
      continue;
    }
    result += line.slice(tick, close + run.length);
    i = close + run.length;
  }
  return result;
}

const escapeTags = (s: string) => s.replace(/</g, '&lt;');
