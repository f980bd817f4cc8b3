/**
 * The crash test's child: writes a streaming conversation through the real chat store (SQLite), printing an
 * acknowledgement after each write returns. The parent kills it with SIGKILL at random moments.
 * Run: JITI_ALIAS='{"@shared":"<root>/shared"}' node node_modules/jiti/lib/jiti-cli.mjs tests/crash/chat-writer.ts <dir>
 */
import { join } from 'node:path';
import { ChatStore } from '../../electron/main/services/chat/storage/store';
import { createLogger } from '../../electron/main/services/log';

const dir = process.argv[2];
const store = new ChatStore({ file: join(dir, 'chats.sqlite') }, createLogger());
const ack = (line: string) => process.stdout.write(line + '\n');
export const token = (id: string, i: number) => `${id}:${i} `;
const now = () => new Date().toISOString();

const id = store.list()[0]?.id ?? store.create({ title: 'crash', model: 'm' }).id;
const conv = store.get(id);
let n = conv.messages.length;
ack(`open ${conv.messages.filter((m) => m.status === 'streaming').length} ${n}`);
for (;;) {
  const user = `m_u${process.pid}x${n++}`;
  conv.put({ id: user, role: 'user', content: `question ${user}`, status: 'complete', createdAt: now() });
  ack(`put ${user}`);
  const reply = `m_a${process.pid}x${n++}`;
  conv.put({ id: reply, role: 'assistant', content: '', status: 'streaming', createdAt: now() });
  ack(`put ${reply}`);
  // Checkpoints of a streaming reply: a few tokens each, committed, as the service does twice a second.
  let i = 0;
  for (let c = 0; c < 20; c++) {
    let text = '';
    for (let k = 0; k < 3; k++) text += token(reply, i++);
    conv.append(reply, text, '');
    ack(`append ${reply} ${i}`);
  }
  const full = conv.find(reply)!.content;
  conv.put({ id: reply, role: 'assistant', content: full, status: 'complete', createdAt: now() });
  ack(`done ${reply} ${i}`);
}
