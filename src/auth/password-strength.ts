/**
 * The one rule for a new password, wherever it is chosen: `siteward user create` and
 * `user set-password`, the `/setup` page, the password-reset form, and (for whoever builds it)
 * a REST user update. Besides the length bounds of `checkPassword`, the password must score at
 * least 3 of 4 on zxcvbn (`@zxcvbn-ts/core` with the common and English dictionaries): the
 * strength estimator WordPress's own password meter uses, where 3 is the first score it calls
 * "medium" rather than weak. Score 3 means roughly 10^8 guesses or more; `password`,
 * `12345678`, a login or e-mail address with a digit appended all score 0–2.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { isPlainObject } from '../core/objects.js';
import { RankedWords } from './ranked-words.js';
import { checkPassword, userError, type UserError } from './user-validation.js';

/** The lowest zxcvbn score (0–4) a new password may have. */
export const MIN_PASSWORD_SCORE = 3;
/** zxcvbn's work grows with length; beyond this the rest of the password only adds strength. */
const ESTIMATED_LENGTH = 100;

/**
 * zxcvbn's word lists, in the order `{ ...common.dictionary, ...en.dictionary }` gives them
 * (the order matches are found in), each a file of its language package.
 */
const WORD_LISTS = [
  ['diceware', '@zxcvbn-ts/language-common/dist/diceware.json.esm.js'],
  ['passwords', '@zxcvbn-ts/language-common/dist/passwords.json.esm.js'],
  ['commonWords', '@zxcvbn-ts/language-en/dist/commonWords.json.esm.js'],
  ['firstnames', '@zxcvbn-ts/language-en/dist/firstnames.json.esm.js'],
  ['lastnames', '@zxcvbn-ts/language-en/dist/lastnames.json.esm.js'],
  ['wikipedia', '@zxcvbn-ts/language-en/dist/wikipedia.json.esm.js'],
] as const;
const GRAPHS = '@zxcvbn-ts/language-common/dist/adjacencyGraphs.json.esm.js';
const TRANSLATIONS = '@zxcvbn-ts/language-en/dist/translations.esm.js';

const require = createRequire(import.meta.url);

/**
 * A list file's words, comma-separated in rank order, read as text: importing the module would
 * keep its source and an array of 10,000s of strings for the life of the process.
 */
async function readWordList(file: string): Promise<string> {
  const text = await readFile(require.resolve(file), 'utf8');
  const list = /^var \w+ = "([^"\\]*)"\.split\(','\);$/m.exec(text);
  if (!list) throw new Error(`${file}: not the word list zxcvbn-ts 3 ships (a quoted, comma-separated string)`);
  return list[1]!;
}

/** A small data module's default export (graphs, translations), checked to be an object. */
async function importObject(file: string): Promise<Record<string, unknown>> {
  const loaded: unknown = await import(file);
  const value = typeof loaded === 'object' && loaded !== null && 'default' in loaded ? loaded.default : undefined;
  if (!isPlainObject(value)) throw new Error(`${file}: expected an object as its default export`);
  return value;
}

/**
 * zxcvbn looks words up with `word in list` and `list[word]`: a proxy answers both from the
 * compact list, so zxcvbn's own matching and scoring run unchanged.
 */
function asLookup(words: RankedWords): Record<string, number> {
  return new Proxy(Object.create(null) as Record<string, number>, {
    has: (_, key) => typeof key === 'string' && words.rank(key) !== undefined,
    get: (_, key) => (typeof key === 'string' ? words.rank(key) : undefined),
  });
}

/** zxcvbn's verdict on a password: its score (0–4), its estimate of guesses, and its feedback. */
export interface PasswordEstimate {
  score: number;
  guesses: number;
  warning: string | null;
  suggestions: string[];
}
type Estimator = (password: string, userInputs: string[]) => PasswordEstimate;
let estimator: Promise<Estimator> | undefined;
let loadedLists: ReadonlyMap<string, RankedWords> | undefined;

/**
 * Loaded on first use, most processes never need it. The word lists are held as
 * `RankedWords` rather than the object per list zxcvbn builds from `setOptions({ dictionary })`
 * (about 3.5 MB instead of 24 MB, and no peak while building them: docs/performance.md).
 */
function loadEstimator(): Promise<Estimator> {
  estimator ??= (async () => {
    const { zxcvbn, zxcvbnOptions } = await import('@zxcvbn-ts/core');
    const lists = new Map<string, RankedWords>();
    for (const [name, file] of WORD_LISTS) lists.set(name, RankedWords.fromCommaList(await readWordList(file)));
    const [graphs, translations] = await Promise.all([importObject(GRAPHS), importObject(TRANSLATIONS)]);
    zxcvbnOptions.setOptions({
      graphs: graphs as typeof zxcvbnOptions.graphs,
      translations: translations as typeof zxcvbnOptions.translations,
    });
    // Replaces what setOptions would build; zxcvbn adds its per-call userInputs list beside these.
    zxcvbnOptions.rankedDictionaries = Object.fromEntries([...lists].map(([name, words]) => [name, asLookup(words)]));
    zxcvbnOptions.rankedDictionariesMaxWordSize = Object.fromEntries([...lists].map(([name, words]) => [name, words.maxWordLength]));
    loadedLists = lists;
    return (password, userInputs) => {
      const result = zxcvbn(password, userInputs);
      return { score: result.score, guesses: result.guesses, warning: result.feedback.warning, suggestions: result.feedback.suggestions };
    };
  })();
  return estimator;
}

/** Bytes the loaded word lists hold (0 before the first estimate): the memory test's measure. */
export function wordListBytes(): number {
  let bytes = 0;
  for (const words of loadedLists?.values() ?? []) bytes += words.byteSize;
  return bytes;
}

/** zxcvbn's estimate of `password`, given the words it must not lean on (see newPasswordProblem). */
export async function estimatePassword(password: string, related: readonly string[] = []): Promise<PasswordEstimate> {
  return (await loadEstimator())(
    password.slice(0, ESTIMATED_LENGTH),
    related.filter((word) => word !== '').flatMap((word) => [word, ...word.split(/[@.\s_-]+/)]),
  );
}

/**
 * Why a new password is refused, or null when it may be used. `related` are words the
 * password must not lean on (the login, the e-mail address, the site name).
 *
 * @example
 * const problem = await newPasswordProblem(password, [login, email]);
 * if (problem) return error(400, problem.message);
 */
export async function newPasswordProblem(password: string, related: readonly string[] = []): Promise<UserError | null> {
  const basic = checkPassword(password);
  if (basic) return basic;
  const estimate = await estimatePassword(password, related);
  if (estimate.score >= MIN_PASSWORD_SCORE) return null;
  const why = [estimate.warning, ...estimate.suggestions].filter((s): s is string => typeof s === 'string' && s !== '').join(' ');
  return userError(
    'weak_password',
    `This password is too easy to guess (strength ${estimate.score} of 4; at least ${MIN_PASSWORD_SCORE} is needed).${why ? ` ${why}` : ''} A few unrelated words, or a generated password, will do.`,
  );
}
