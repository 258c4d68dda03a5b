export { createAccountsService, type AccountsService, type AccountsServiceOptions } from './accounts-service.js';
export { runAccountsCommand, DEFAULT_DATA_FILE, type AccountsCliIo, type AccountsCliHooks } from './accounts-cli.js';
export type { Account, NewAccount, AddAccountResult } from './account-store.js';
