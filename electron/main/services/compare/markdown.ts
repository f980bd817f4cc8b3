import type { ChatFigures } from '@shared/contract/chat-message';
import type { CompareAnswer, CompareRun, CompareSlot } from '@shared/contract/compare';
import { chatTitle } from '@shared/chat-title';
import { inertMarkdown } from '@shared/inert-markdown';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "26 Nov 2026, 18:30 UTC": the app's date format, with the time a comparison ran. */
function when(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const hm = d.toISOString().slice(11, 16);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}, ${hm} UTC`;
}

const ms = (v: number | undefined) =>
  v === undefined ? '–' : v < 1000 ? `${Math.round(v)} ms` : `${(v / 1000).toFixed(1)} s`;
const rate = (v: number | undefined) => (v === undefined ? '–' : `${v.toFixed(1)} tok/s`);
const count = (v: number | undefined) => (v === undefined ? '–' : String(Math.round(v)));

/** The figures a slot stands for: the medians over its complete answers, else its one answer's. */
const slotFigures = (s: CompareSlot): ChatFigures | undefined => s.median ?? s.answers[0]?.figures;

/** A table cell: no pipe or line break may split the row. */
const cell = (text: string) =>
  inertMarkdown(text)
    .replace(/\|/g, '\\|')
    .replace(/\s*\n\s*/g, ' ');

function figuresLine(f: ChatFigures | undefined, loadMs: number | undefined): string {
  const parts = [`first token ${ms(f?.ttftMs)}`, rate(f?.tokensPerSecond), `${count(f?.evalTokens)} tokens`];
  return (loadMs === undefined ? parts : [`load ${ms(loadMs)}`, ...parts]).join(' · ');
}

function answerBlock(a: CompareAnswer, heading: string | undefined, loadMs: number | undefined): string[] {
  const mark = a.status === 'stopped' ? ' (stopped)' : a.status === 'error' ? ' (failed)' : '';
  const out = heading ? [`### ${heading}${mark}`, ''] : mark ? [`_${mark.trim()}_`, ''] : [];
  if (a.thinking) out.push('<details><summary>Thinking</summary>', '', inertMarkdown(a.thinking), '', '</details>', '');
  if (a.content) out.push(inertMarkdown(a.content), '');
  if (a.error) out.push(`> Error: ${inertMarkdown(a.error.message)}`, '');
  if (a.figures || loadMs !== undefined) out.push(`_${figuresLine(a.figures, loadMs)}_`, '');
  return out;
}

/**
 * A comparison as Markdown: what was sent and how it ran, a figures table, then each slot's answers. The run is
 * given as the user may see it: a blind comparison not voted on yet keeps "Model A"… and no panes.
 */
export function compareMarkdown(run: CompareRun): { filename: string; mime: string; text: string } {
  const repeat = run.repeat > 1;
  const out: string[] = [`# Comparison: ${inertMarkdown(chatTitle(run.prompt))}`, ''];
  out.push(`- Date: ${when(run.createdAt)}`);
  out.push(`- Plan: ${run.plan.mode === 'parallel' ? 'together' : 'one after another'}. ${run.plan.reason}`);
  if (repeat) out.push(`- Repeat: each pane answered ${run.repeat} times; the figures are medians`);
  const params = Object.entries(run.params);
  if (params.length) out.push(`- Parameters: ${params.map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(', ')}`);
  if (run.blind)
    out.push(
      run.vote
        ? `- Blind vote: ${run.vote.winner === null ? 'a tie' : `${inertMarkdown(run.slots[run.vote.winner]?.label ?? '?')} won`}`
        : '- Blind: the names stay hidden until the vote',
    );
  out.push('', '| Pane | Load | First token | Tokens/s | Tokens |', '| --- | --- | --- | --- | --- |');
  for (const s of run.slots) {
    const f = slotFigures(s);
    out.push(
      `| ${cell(s.label)} | ${ms(s.loadMs)} | ${ms(f?.ttftMs)} | ${rate(f?.tokensPerSecond)} | ${count(f?.evalTokens)} |`,
    );
  }
  if (repeat) out.push('', `_Medians of ${run.repeat} answers (complete ones only)._`);
  out.push('', '## Prompt', '', inertMarkdown(run.prompt), '');
  if (run.system) out.push('## System prompt', '', inertMarkdown(run.system), '');
  for (const s of run.slots) {
    out.push(`## ${inertMarkdown(s.label)}`, '');
    const own = s.pane && Object.keys(s.pane.params).length ? s.pane.params : undefined;
    if (own)
      out.push(
        `- Own parameters: ${Object.entries(own)
          .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
          .join(', ')}`,
        '',
      );
    s.answers.forEach((a, i) =>
      out.push(...answerBlock(a, repeat ? `Answer ${i + 1}` : undefined, i ? undefined : s.loadMs)),
    );
    if (repeat && s.median) out.push(`_Median: ${figuresLine(s.median, s.loadMs)}_`, '');
  }
  return {
    filename: `comparison-${run.createdAt.slice(0, 10)}.md`,
    mime: 'text/markdown',
    text: out.join('\n'),
  };
}
