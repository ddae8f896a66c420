// The `player-hypermedia` command: serve the API, render a document in any format, print help.
import { renderCommand, UsageError } from './render.js';
import { serve, SERVE_HELP } from './serve.js';
import { swaggerCommand } from './swagger.js';

/** The help text of the command. */
export const MAIN_HELP = `Usage: player-hypermedia <command> [options]

Commands:
  serve     start the example server (see: player-hypermedia serve --help)
  render    print a player or a friends page in any format (see: player-hypermedia render --help)
  swagger   print the Swagger 2.0 description (see: player-hypermedia swagger --help)

Options:
  -h, --help  show this help
`;

/**
 * Runs the command line and resolves with the exit code (the server of `serve` keeps running).
 *
 * @example
 * process.exitCode = await main(process.argv.slice(2));
 */
export async function main(argv: string[]): Promise<number> {
  quietOnClosedPipe(process.stdout);
  const [command, ...rest] = argv;
  try {
    if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
      process.stdout.write(MAIN_HELP);
      return command === undefined ? 2 : 0;
    }
    if (command === 'serve') {
      if (rest.includes('--help') || rest.includes('-h')) return void process.stdout.write(SERVE_HELP), 0;
      if (rest.length) throw new UsageError(`serve takes no arguments (configure it with environment variables)`);
      await serve(process.env);
      return 0;
    }
    if (command === 'render') return void process.stdout.write(renderCommand(rest)), 0;
    if (command === 'swagger') return void process.stdout.write(swaggerCommand(rest, process.env)), 0;
    throw new UsageError(`unknown command "${command}"`);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (error instanceof UsageError || code?.startsWith('ERR_PARSE_ARGS') || (error instanceof TypeError && /createPlayerService|baseUrl/.test(error.message))) {
      process.stderr.write(`player-hypermedia: ${(error as Error).message}\nRun player-hypermedia --help for usage.\n`);
      return 2;
    }
    process.stderr.write(`player-hypermedia: ${(error as Error).message}\n`);
    return 1;
  }
}

/**
 * A reader that stops early (`player-hypermedia swagger | head -c 10`) closes the pipe: the rest of the
 * output has nowhere to go, which is what the reader wanted, so the command ends quietly as POSIX tools
 * do instead of dying with an unhandled EPIPE.
 */
function quietOnClosedPipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

process.exitCode = await main(process.argv.slice(2));
