// The streaming baseline: the bare `ollama` client consuming a chat stream in its own Node process, as the app's
// main process does. Prints the chunks/s it saw.
import { Ollama } from 'ollama';

const [host, model] = process.argv.slice(2);
const client = new Ollama({ host });
const t = performance.now();
let got = 0;
const it = await client.chat({ model, messages: [{ role: 'user', content: 'go' }], stream: true });
try {
  for await (const part of it) if (!part.done) got++;
} finally {
  it.abort();
}
process.stdout.write(`${got / ((performance.now() - t) / 1000)}\n`);
