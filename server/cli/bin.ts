// dist/cli.js, the `kanban` command's bin (esbuild adds the #!/usr/bin/env node line). It answers
// `kanban --version` and `kanban --help` from text written into it at build time, because loading
// the command itself (dist/cli-main.js) costs more than the rest of such a call; anything else is
// handed to dist/cli-main.js, which reads the same process.argv. See esbuild.mjs.

declare const KANBAN_VERSION: string;
declare const KANBAN_MAIN_HELP: string;

const VERSION_FLAGS = ['--version', '-v', '-V'];
const HELP_WORDS = ['--help', '-h', 'help'];

function answerFromBin(text: string): void {
  // `kanban --help | head -1`: the reader left, which is not an error.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
  process.stdout.write(`${text}\n`);
}

const args = process.argv.slice(2);
if (args.length === 1 && VERSION_FLAGS.includes(args[0])) answerFromBin(KANBAN_VERSION);
else if (args.length === 0 || (args.length === 1 && HELP_WORDS.includes(args[0]))) answerFromBin(KANBAN_MAIN_HELP);
// eslint-disable-next-line @typescript-eslint/no-require-imports
else require('./cli-main.js');
