/**
 * The one rule for a new password, wherever it is chosen: `siteward user create` and
 * `user set-password`, the `/setup` page, the password-reset form, and (for whoever builds it)
 * a REST user update. Besides the length bounds of `checkPassword`, the password must score at
 * least 3 of 4 on zxcvbn (`@zxcvbn-ts/core` with the common and English dictionaries): the
 * strength estimator WordPress's own password meter uses, where 3 is the first score it calls
 * "medium" rather than weak. Score 3 means roughly 10^8 guesses or more; `password`,
 * `12345678`, a login or e-mail address with a digit appended all score 0–2.
 */
import { checkPassword, userError, type UserError } from './user-validation.js';

/** The lowest zxcvbn score (0–4) a new password may have. */
export const MIN_PASSWORD_SCORE = 3;
/** zxcvbn's work grows with length; beyond this the rest of the password only adds strength. */
const ESTIMATED_LENGTH = 100;

type Estimator = (password: string, userInputs: string[]) => { score: number; warning: string | null; suggestions: string[] };
let estimator: Promise<Estimator> | undefined;

/** Loaded on first use: the dictionaries are large and most processes never need them. */
function loadEstimator(): Promise<Estimator> {
  estimator ??= (async () => {
    const [{ zxcvbn, zxcvbnOptions }, common, en] = await Promise.all([
      import('@zxcvbn-ts/core'),
      import('@zxcvbn-ts/language-common'),
      import('@zxcvbn-ts/language-en'),
    ]);
    zxcvbnOptions.setOptions({
      dictionary: { ...common.dictionary, ...en.dictionary },
      graphs: common.adjacencyGraphs,
      translations: en.translations,
    });
    return (password, userInputs) => {
      const result = zxcvbn(password, userInputs);
      return { score: result.score, warning: result.feedback.warning, suggestions: result.feedback.suggestions };
    };
  })();
  return estimator;
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
  const estimate = (await loadEstimator())(
    password.slice(0, ESTIMATED_LENGTH),
    related.filter((word) => word !== '').flatMap((word) => [word, ...word.split(/[@.\s_-]+/)]),
  );
  if (estimate.score >= MIN_PASSWORD_SCORE) return null;
  const why = [estimate.warning, ...estimate.suggestions].filter((s): s is string => typeof s === 'string' && s !== '').join(' ');
  return userError(
    'weak_password',
    `This password is too easy to guess (strength ${estimate.score} of 4; at least ${MIN_PASSWORD_SCORE} is needed).${why ? ` ${why}` : ''} A few unrelated words, or a generated password, will do.`,
  );
}
