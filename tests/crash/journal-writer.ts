/**
 * The crash test's child: writes a streaming conversation through the real journal code, printing
 * an acknowledgement after each write returns. The parent kills it with SIGKILL at random moments.
 * Run: node node_modules/jiti/lib/jiti-cli.mjs tests/crash/journal-writer.ts <dir>
 */
import { join } from 'node:path';
import { writeFileAtomic } from '../../electron/main/services/fs/atomic-write';
import { Journal } from '../../electron/main/services/chat/journal';

const dir = process.argv[2];
const journal = Journal.open(join(dir, 'journal.jsonl'));
let n = journal.messages().length;
const ack = (line: string) => process.stdout.write(line + '\n');
export const token = (id: string, i: number) => `${id}:${i} `;

ack(`open ${journal.report.tornBytes} ${journal.report.badLines}`);
for (;;) {
  const user = `m_u${process.pid}x${n++}`;
  journal.append([{ t: 'put', msg: { id: user, role: 'user', content: `question ${user}`, status: 'complete' } }]);
  writeFileAtomic(join(dir, 'meta.json'), JSON.stringify({ id: 'c_crash', messageCount: n, last: user }));
  ack(`put ${user}`);
  const reply = `m_a${process.pid}x${n++}`;
  journal.append([{ t: 'put', msg: { id: reply, role: 'assistant', content: '', status: 'streaming' } }]);
  ack(`put ${reply}`);
  // Checkpoints of a streaming reply: a few tokens each, fsynced, as the service does once a second.
  let i = 0;
  for (let c = 0; c < 20; c++) {
    let text = '';
    for (let k = 0; k < 3; k++) text += token(reply, i++);
    journal.append([{ t: 'append', id: reply, content: text }], c % 4 === 0);
    ack(`append ${reply} ${i}`);
  }
  let full = '';
  for (let k = 0; k < i; k++) full += token(reply, k);
  journal.append([{ t: 'put', msg: { id: reply, role: 'assistant', content: full, status: 'complete' } }]);
  writeFileAtomic(join(dir, 'meta.json'), JSON.stringify({ id: 'c_crash', messageCount: n, last: reply }));
  ack(`done ${reply} ${i}`);
}
