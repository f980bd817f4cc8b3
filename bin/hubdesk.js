#!/usr/bin/env node
'use strict';
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS bin that loads the built CLI */
// `hubdesk snippets …`: runs the built CLI (out/main/cli.js) over the same snippet service as the app.
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const cli = join(__dirname, '..', 'out', 'main', 'cli.js');
if (!existsSync(cli)) {
  process.stderr.write('hubdesk: the CLI is not built yet: run `npm run build` in the HubDesk folder first.\n');
  process.exit(1);
}
require(cli);
