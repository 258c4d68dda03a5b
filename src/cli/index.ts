export { runAppPasswordCommand } from './app-password-commands.js';
export { runUserCommand } from './user-commands.js';
export { EXIT_FAILED, EXIT_OK, EXIT_USAGE, type CliContext } from './cli-context.js';
