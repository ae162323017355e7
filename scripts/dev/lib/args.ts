import { parseArgs, type ParseArgsConfig } from "node:util";
import { fail } from "../../lib/local";

/**
 * A command's flags: `--help` (or `-h`) prints the usage and exits 0; a flag the command does not
 * know is a one-line error with the usage, not a stack trace.
 */
export function commandLine<T extends ParseArgsConfig>(usage: string, config: T): ReturnType<typeof parseArgs<T>> {
  if (process.argv.slice(2).some((arg) => arg === "--help" || arg === "-h")) {
    process.stdout.write(`${usage}\n`);
    process.exit(0);
  }
  try {
    return parseArgs(config);
  } catch (error) {
    // node:util names the problem ("Unknown option '--nme'") and then gives advice meant for programmers.
    fail(`${(error instanceof Error ? error.message : String(error)).split(". ")[0]}\n  ${usage}`);
  }
}
