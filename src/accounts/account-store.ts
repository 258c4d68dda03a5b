import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Clock } from '../auth/clock.js';
import { hashPassword, verifyNothing, verifyPassword } from '../auth/passwords.js';
import type { AccountsDb } from './accounts-db.js';

/** A person who can log in at the account service. `id` is the OpenID `sub`. */
export interface Account {
  readonly id: string;
  readonly login: string;
  readonly email: string;
  readonly name: string;
  /** The operator vouches that the address belongs to the person (`--email-verified`); the `email_verified` claim. */
  readonly emailVerified: boolean;
  readonly createdAt: number;
}

/** What `addUser` needs; the password is hashed with argon2id and never stored. */
export interface NewAccount {
  login: string;
  email: string;
  name?: string;
  password: string;
  /** Default false. */
  emailVerified?: boolean;
}

export type AddAccountResult = { ok: true; account: Account } | { ok: false; error: { kind: 'invalid' | 'exists'; message: string } };

const LOGIN = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,59}$/;
const EMAIL = /^[^\s@]+@[^\s@]+$/;
export const MIN_PASSWORD_LENGTH = 8;

/** Accounts in the service's SQLite file. */
export class AccountStore {
  readonly #db: AccountsDb;
  readonly #clock: Clock;

  constructor(db: AccountsDb, clock: Clock) {
    this.#db = db;
    this.#clock = clock;
  }

  async add(input: NewAccount): Promise<AddAccountResult> {
    const problem = validate(input);
    if (problem !== null) return { ok: false, error: { kind: 'invalid', message: problem } };
    if (this.findByLogin(input.login) !== undefined) {
      return { ok: false, error: { kind: 'exists', message: `login "${input.login}" is already taken` } };
    }
    const passwordHash = await hashPassword(input.password);
    const name = input.name?.trim() || input.login;
    const createdAt = this.#clock();
    const emailVerified = input.emailVerified === true;
    try {
      const { lastInsertRowid } = this.#db
        .prepare('INSERT INTO accounts (login, email, name, password_hash, created_at, email_verified) VALUES (?, ?, ?, ?, ?, ?)')
        .run(input.login, input.email.trim(), name, passwordHash, createdAt, emailVerified ? 1 : 0);
      return {
        ok: true,
        account: { id: String(lastInsertRowid), login: input.login, email: input.email.trim(), name, emailVerified, createdAt },
      };
    } catch (error) {
      // A concurrent add of the same login between the check and the insert.
      if (error instanceof Error && /UNIQUE/.test(error.message)) {
        return { ok: false, error: { kind: 'exists', message: `login "${input.login}" is already taken` } };
      }
      throw error;
    }
  }

  findById(id: string): Account | undefined {
    if (!/^[1-9][0-9]{0,15}$/.test(id)) return undefined;
    return toAccount(this.#db.prepare('SELECT * FROM accounts WHERE id = ?').get(Number(id)));
  }

  findByLogin(login: string): Account | undefined {
    return toAccount(this.#db.prepare('SELECT * FROM accounts WHERE login = ?').get(login));
  }

  list(): Account[] {
    return this.#db
      .prepare('SELECT * FROM accounts ORDER BY id')
      .all()
      .map(toAccount)
      .filter((a): a is Account => a !== undefined);
  }

  /** The account when login and password match; an unknown login costs as much time as a wrong password. */
  async authenticate(login: string, password: string): Promise<Account | undefined> {
    const row: unknown = this.#db.prepare('SELECT * FROM accounts WHERE login = ?').get(login);
    const account = toAccount(row);
    if (account === undefined) {
      await verifyNothing(password);
      return undefined;
    }
    const hash = (row as { password_hash: unknown }).password_hash;
    if (typeof hash !== 'string') return undefined;
    return (await verifyPassword(hash, password)) ? account : undefined;
  }

  /**
   * Adds the accounts of a JSON file `[{login, email, name, password}]`; logins that already exist
   * are skipped. Returns how many were added, or throws with the first invalid entry's problem.
   */
  async importJson(file: string): Promise<{ added: number; skipped: number }> {
    const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
    if (!Array.isArray(parsed)) throw new Error(`${file}: expected a JSON array of {login, email, name, password}`);
    let added = 0;
    let skipped = 0;
    for (const [index, entry] of parsed.entries()) {
      const input = toNewAccount(entry);
      if (input === undefined) throw new Error(`${file}: entry ${index} needs string login, email and password`);
      const result = await this.add(input);
      if (result.ok) added += 1;
      else if (result.error.kind === 'exists') skipped += 1;
      else throw new Error(`${file}: entry ${index}: ${result.error.message}`);
    }
    return { added, skipped };
  }
}

/** OpenID claims of an account (profile and email scopes; the provider filters by granted scope). */
export function accountClaims(account: Account): Record<string, unknown> & { sub: string } {
  const email = account.email.trim().toLowerCase();
  return {
    sub: account.id,
    preferred_username: account.login,
    name: account.name,
    // The historical avatar is a Gravatar URL derived from the email's MD5.
    picture: `https://secure.gravatar.com/avatar/${createHash('md5').update(email).digest('hex')}`,
    email: account.email,
    // False unless the operator said the address was checked (`--email-verified`): nobody proved it here.
    email_verified: account.emailVerified,
  };
}

function validate(input: NewAccount): string | null {
  if (!LOGIN.test(input.login)) return 'login must be 1-60 characters: letters, digits, ".", "_", "@", "-"';
  if (!EMAIL.test(input.email.trim())) return `"${input.email}" is not an email address`;
  if (input.password.length < MIN_PASSWORD_LENGTH) return `the password must be at least ${MIN_PASSWORD_LENGTH} characters long`;
  if (input.name !== undefined && input.name.length > 200) return 'the name must be at most 200 characters long';
  return null;
}

function toNewAccount(entry: unknown): NewAccount | undefined {
  if (typeof entry !== 'object' || entry === null) return undefined;
  const { login, email, name, password, email_verified: emailVerified } = entry as Record<string, unknown>;
  if (typeof login !== 'string' || typeof email !== 'string' || typeof password !== 'string') return undefined;
  return { login, email, password, name: typeof name === 'string' ? name : undefined, emailVerified: emailVerified === true };
}

function toAccount(row: unknown): Account | undefined {
  if (typeof row !== 'object' || row === null) return undefined;
  const r = row as Record<string, unknown>;
  if (typeof r.id !== 'number' || typeof r.login !== 'string' || typeof r.email !== 'string' || typeof r.name !== 'string') {
    return undefined;
  }
  return {
    id: String(r.id),
    login: r.login,
    email: r.email,
    name: r.name,
    emailVerified: r.email_verified === 1,
    createdAt: Number(r.created_at),
  };
}
