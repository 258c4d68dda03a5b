/**
 * Users, sessions and application passwords as a feature: the hourly purge of expired
 * sessions, and the `siteward user …` and `siteward app-password …` commands.
 */
import { runAppPasswordCommand } from './app-password-commands.js';
import { runUserCommand } from './user-commands.js';
import type { Feature } from '../contract.js';
import { runningServer } from '../../core/server-pid-file.js';
import { cliSource } from '../audit/index.js';

export const usersFeature: Feature = {
  name: 'users',
  register(ctx) {
    ctx.addJob({ name: 'purge-expired-sessions', everyMs: 3_600_000, run: () => ctx.auth.authenticator.sessions.purgeExpired() });
    const store = ctx.store;
    const twoFactor = ctx.need('twoFactor');
    ctx.addCommand({
      name: 'user',
      usage: [
        'user create <login> --email <e> --role <role> [--password <p> | --password-stdin]',
        'user list',
        'user set-password <login> [--password <p> | --password-stdin]',
        'user delete <login> [--force]   Refuses the last administrator without --force',
        'user 2fa reset <login>          Turns off the two-factor authentication of a user who lost their device',
      ],
      run: (args, io) =>
        runUserCommand(args, {
          store,
          homeUrl: ctx.site.homeUrl,
          runningServerUrl: async () => (await runningServer(ctx.config.dataDir))?.url ?? null,
          resetTwoFactor: (id) => twoFactor.remove(id, cliSource(), 'two_factor.reset'),
          ...io,
        }),
    });
    ctx.addCommand({
      name: 'app-password',
      usage: [
        'app-password create <login> <name>      Prints a new application password once',
        'app-password list <login>',
        'app-password revoke <login> <uuid>',
      ],
      run: (args, io) => runAppPasswordCommand(args, { store, ...io }),
    });
  },
};
