// The start-up baseline: a bare Node HTTP server serving an empty page, started the same way as the web mode.
import { createServer } from 'node:http';

const page =
  '<!doctype html><html><head><meta charset="utf-8"><title>empty</title></head><body><main id="ready">empty</main></body></html>';
const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(page);
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`Empty page: http://127.0.0.1:${server.address().port}/\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
