// The start-up baseline: a bare Node HTTP server serving an empty page, started the same way as the web mode.
// With `--page <file>` it serves that HTML instead (the start-up floor: the app's landing without the app).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const pageArg = process.argv.indexOf('--page');
const page =
  pageArg > 0
    ? readFileSync(process.argv[pageArg + 1], 'utf8')
    : '<!doctype html><html><head><meta charset="utf-8"><title>empty</title></head><body><main id="ready">empty</main></body></html>';
const server = createServer((req, res) => {
  if (pageArg > 0 && req.url !== '/') {
    res.writeHead(404);
    res.end();
    return;
  }
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(page);
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`Empty page: http://127.0.0.1:${server.address().port}/\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
