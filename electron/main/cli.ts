import { run } from './cli/run';

/** The bin's entry (`hubdesk …`): exit code 1 and one line on stderr for any error, never a stack trace. */
async function main(argv = process.argv.slice(2)): Promise<void> {
  try {
    process.exitCode = await run(
      argv,
      process.env,
      (s) => process.stdout.write(s),
      (s) => process.stderr.write(s),
    );
  } catch (e) {
    const msg = (e instanceof Error ? e.message : String(e)).split('\n')[0];
    process.stderr.write(`hubdesk: ${msg}\n`);
    process.exitCode = 1;
  }
}

void main();
