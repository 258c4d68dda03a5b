import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { estimatePassword, newPasswordProblem, wordListBytes, type PasswordEstimate } from './password-strength.js';
import { RankedWords } from './ranked-words.js';

const require = createRequire(import.meta.url);

/** Every `step`-th word of one of zxcvbn's lists (read as the estimator reads it). */
function sampleWords(file: string, step: number): string[] {
  const text = readFileSync(require.resolve(file), 'utf8');
  const words = /"([^"]*)"/.exec(text)![1]!.split(',');
  return words.filter((_, i) => i % step === 0);
}

/** A deterministic spread of passwords that exercise every matcher zxcvbn has on the lists. */
function passwords(): Array<[string, string[]]> {
  const words = [
    ...sampleWords('@zxcvbn-ts/language-common/dist/passwords.json.esm.js', 2999),
    ...sampleWords('@zxcvbn-ts/language-common/dist/diceware.json.esm.js', 1201),
    ...sampleWords('@zxcvbn-ts/language-en/dist/commonWords.json.esm.js', 1499),
    ...sampleWords('@zxcvbn-ts/language-en/dist/firstnames.json.esm.js', 601),
    ...sampleWords('@zxcvbn-ts/language-en/dist/lastnames.json.esm.js', 4999),
    ...sampleWords('@zxcvbn-ts/language-en/dist/wikipedia.json.esm.js', 1499),
  ];
  const leet = (w: string) => w.replace(/a/g, '4').replace(/e/g, '3').replace(/o/g, '0').replace(/s/g, '$');
  const cases: Array<[string, string[]]> = [];
  words.forEach((word, i) => {
    const next = words[(i * 7 + 3) % words.length]!;
    cases.push([word, []]);
    cases.push([word[0]!.toUpperCase() + word.slice(1) + String(1900 + (i % 120)), []]);
    cases.push([[...word].reverse().join(''), []]);
    cases.push([leet(word) + '!', []]);
    cases.push([`${word}-${next}`, []]);
    cases.push([`${word}${next}${i}`, [next]]);
  });
  cases.push(['Tr0ub4dor&3', []], ['correct horse battery staple', []], ['zxcvbnm,./', []], ['alice2024', ['alice', 'alice@example.org']]);
  return cases;
}

/**
 * The same passwords scored by stock zxcvbn-ts with its own dictionaries (`setOptions` builds an
 * object per list), in a thread of its own so that this file's estimator is not touched.
 */
function stockEstimates(cases: Array<[string, string[]]>): Promise<PasswordEstimate[]> {
  const worker = new Worker(
    `const { workerData, parentPort } = require('node:worker_threads');
     const { zxcvbn, zxcvbnOptions } = require(workerData.core);
     const common = require(workerData.common);
     const en = require(workerData.en);
     zxcvbnOptions.setOptions({ dictionary: { ...common.dictionary, ...en.dictionary }, graphs: common.adjacencyGraphs, translations: en.translations });
     parentPort.postMessage(workerData.cases.map(([password, inputs]) => {
       const r = zxcvbn(password, inputs);
       return { score: r.score, guesses: r.guesses, warning: r.feedback.warning, suggestions: r.feedback.suggestions };
     }));`,
    {
      eval: true,
      workerData: {
        cases,
        core: require.resolve('@zxcvbn-ts/core'),
        common: require.resolve('@zxcvbn-ts/language-common'),
        en: require.resolve('@zxcvbn-ts/language-en'),
      },
    },
  );
  return new Promise((resolve, reject) => {
    worker.once('message', (value: PasswordEstimate[]) => {
      void worker.terminate();
      resolve(value);
    });
    worker.once('error', reject);
  });
}

describe('password strength', () => {
  it('scores, estimates and explains every password exactly as stock zxcvbn-ts with its own dictionaries does', async () => {
    const cases = passwords();
    expect(cases.length).toBeGreaterThan(500);
    const expected = await stockEstimates(cases);
    const actual: PasswordEstimate[] = [];
    // Straight to zxcvbn's input: the related words are passed as they are, not split.
    for (const [password, inputs] of cases) actual.push(await estimatePassword(password, inputs));
    const differences = cases.flatMap(([password], i) =>
      JSON.stringify(actual[i]) === JSON.stringify(expected[i])
        ? []
        : [`${password}: ${JSON.stringify(actual[i])} ≠ ${JSON.stringify(expected[i])}`],
    );
    expect(differences).toEqual([]);
    // The spread reaches every verdict, so the comparison covers each score's path.
    expect(new Set(expected.map((e) => e.score))).toEqual(new Set([0, 1, 2, 3, 4]));
  }, 60_000);

  it('holds zxcvbn’s word lists in under 4 MB once loaded', async () => {
    await newPasswordProblem('a long enough password to load the lists');
    // Six lists of 187,000 words: as zxcvbn's objects they cost about 24 MB of heap.
    expect(wordListBytes()).toBeGreaterThan(1_000_000);
    expect(wordListBytes()).toBeLessThan(4 * 1024 * 1024);
  });

  it('refuses a common password and a login with a digit, and accepts a few unrelated words', async () => {
    expect((await newPasswordProblem('password123'))?.message).toMatch(/^This password is too easy to guess \(strength [0-2] of 4/);
    expect((await newPasswordProblem('alice2024', ['alice', 'alice@example.org']))?.message).toMatch(/too easy to guess/);
    expect(await newPasswordProblem('velvet ankle orbit tuesday')).toBeNull();
  });
});

describe('ranked words', () => {
  const words = RankedWords.fromCommaList('the,of,and,zebra,of,éclair,a');

  it('answers each word’s rank, a repeated word its later rank, and nothing for other words', () => {
    expect([words.rank('the'), words.rank('and'), words.rank('zebra'), words.rank('éclair'), words.rank('a')]).toEqual([1, 3, 4, 6, 7]);
    expect(words.rank('of')).toBe(5);
    for (const other of ['', 'th', 'thee', 'zebr', 'zebras', 'b', 'constructor', 'Éclair']) expect(words.rank(other)).toBeUndefined();
    expect(words.size).toBe(6);
    expect(words.maxWordLength).toBe(6);
  });
});
