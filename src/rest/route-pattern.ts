/**
 * Route patterns: WordPress routes are PCRE patterns with `(?P<name>…)` groups; the spec adds
 * `:name` for one path segment. Patterns are kept verbatim (clients parse the groups from the
 * index) and compiled once into an anchored, case-insensitive JavaScript RegExp.
 */

export interface CompiledPattern {
  /** The pattern as stored and shown in the index (`:name` already rewritten). */
  readonly source: string;
  readonly regex: RegExp;
  /** True when the pattern has a capture group (such routes get no `_links.self`). */
  readonly hasVariables: boolean;
  /** Lower-cased literal text before the first regex construct, used to skip routes cheaply. */
  readonly literalPrefix: string;
}

const SEGMENT_PARAM = /\/:([A-Za-z_][A-Za-z0-9_]*)(?=\/|$)/g;

/** Rewrites the spec's `:name` segments into `(?P<name>[^/]+)`. */
export function expandSegmentParams(route: string): string {
  return route.replace(SEGMENT_PARAM, (_m, name: string) => `/(?P<${name}>[^/]+)`);
}

/** PCRE → JavaScript: `(?P<n>` → `(?<n>`, `(?P=n)` → `\k<n>`, `(?P>n)` is unsupported. */
function toJsRegexSource(pattern: string): string {
  return pattern.replace(/\(\?P<([A-Za-z_][A-Za-z0-9_]*)>/g, '(?<$1>').replace(/\(\?P=([A-Za-z_][A-Za-z0-9_]*)\)/g, '\\k<$1>');
}

/** True when the pattern contains a capturing group (named or not). */
function hasCaptureGroup(pattern: string): boolean {
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '(' && (pattern[i + 1] !== '?' || pattern.startsWith('(?P<', i) || /^\(\?<[A-Za-z_]/.test(pattern.slice(i, i + 4)))) {
      return true;
    }
  }
  return false;
}

const META = /[\\^$.|?*+()[\]{}]/;

/**
 * Compiles a stored route pattern. Throws a SyntaxError (with the pattern) when it is not a
 * valid regular expression.
 */
export function compilePattern(source: string): CompiledPattern {
  let regex: RegExp;
  try {
    regex = new RegExp(`^${toJsRegexSource(source)}$`, 'i');
  } catch (error) {
    throw new SyntaxError(`Invalid route pattern ${source}: ${(error as Error).message}`);
  }
  const metaAt = source.search(META);
  let literalPrefix = (metaAt === -1 ? source : source.slice(0, metaAt)).toLowerCase();
  // A quantifier applies to the character before it, which therefore is not fixed.
  if (metaAt > 0 && '?*{'.includes(source[metaAt]!)) literalPrefix = literalPrefix.slice(0, -1);
  return { source, regex, hasVariables: hasCaptureGroup(source), literalPrefix };
}

/** URL parameters of a match: named groups by name, unnamed groups by their position (1-based). */
export function matchParams(match: RegExpExecArray): Record<string, string> {
  const params: Record<string, string> = {};
  const groups = match.groups;
  if (groups) {
    for (const [name, value] of Object.entries(groups)) {
      if (value !== undefined) params[name] = value;
    }
  } else {
    for (let i = 1; i < match.length; i++) {
      const value = match[i];
      if (value !== undefined) params[String(i)] = value;
    }
  }
  return params;
}
