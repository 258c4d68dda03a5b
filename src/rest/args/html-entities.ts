/**
 * WordPress `esc_html()` (UTF-8 site): `wp_kses_normalize_entities`, then PHP
 * `htmlspecialchars($s, ENT_QUOTES, 'UTF-8', false)`. Used by `sanitize_text_field` on a `<`
 * that does not start a tag.
 */

/** `$allowedentitynames` of WordPress kses: the HTML 4 entities plus `apos`. */
const ALLOWED_ENTITY_NAMES = new Set(
  (
    'nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn ' +
    'acute micro para middot cedil ordm raquo iquest Agrave Aacute Acirc Atilde Auml Aring AElig ' +
    'Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde Ograve Oacute Ocirc Otilde ' +
    'Ouml times Oslash Ugrave Uacute Ucirc Uuml Yacute THORN szlig agrave aacute acirc atilde auml ' +
    'aring aelig ccedil egrave eacute ecirc euml igrave iacute icirc iuml eth ntilde ograve oacute ' +
    'ocirc otilde ouml divide oslash ugrave uacute ucirc uuml yacute thorn yuml quot amp lt gt apos ' +
    'OElig oelig Scaron scaron Yuml circ tilde ensp emsp thinsp zwnj zwj lrm rlm ndash mdash lsquo ' +
    'rsquo sbquo ldquo rdquo bdquo dagger Dagger permil lsaquo rsaquo euro fnof Alpha Beta Gamma ' +
    'Delta Epsilon Zeta Eta Theta Iota Kappa Lambda Mu Nu Xi Omicron Pi Rho Sigma Tau Upsilon Phi ' +
    'Chi Psi Omega alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron ' +
    'pi rho sigmaf sigma tau upsilon phi chi psi omega thetasym upsih piv bull hellip prime Prime ' +
    'oline frasl weierp image real trade alefsym larr uarr rarr darr harr crarr lArr uArr rArr dArr ' +
    'hArr forall part exist empty nabla isin notin ni prod sum minus lowast radic prop infin ang and ' +
    'or cap cup int sim cong asymp ne equiv le ge sub sup nsub sube supe oplus otimes perp sdot ' +
    'lceil rceil lfloor rfloor lang rang loz spades clubs hearts diams sup1 sup2 sup3 frac14 frac12 ' +
    'frac34 there4'
  ).split(' '),
);

/** PHP's HTML 4.01 table, which htmlspecialchars consults: the same names without `apos`. */
function isHtml4Entity(name: string): boolean {
  return name !== 'apos' && ALLOWED_ENTITY_NAMES.has(name);
}

/** kses `valid_unicode()`. */
function validUnicode(cp: number): boolean {
  return (
    cp === 0x9 ||
    cp === 0xa ||
    cp === 0xd ||
    (cp >= 0x20 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd) ||
    (cp >= 0x10000 && cp <= 0x10ffff)
  );
}

/**
 * `wp_kses_normalize_entities`: every `&` becomes `&amp;` unless it starts an allowed named
 * entity or a valid numeric one (`&#00065;` → `&#065;`, `&#X41;` → `&#x41;`).
 */
export function normalizeEntities(s: string): string {
  return s
    .replaceAll('&', '&amp;')
    .replace(/&amp;([A-Za-z]{2,8}[0-9]{0,2});/g, (_m, name: string) => (ALLOWED_ENTITY_NAMES.has(name) ? `&${name};` : `&amp;${name};`))
    .replace(/&amp;#(0*[0-9]{1,7});/g, (_m, digits: string) =>
      validUnicode(Number(digits)) ? `&#${digits.replace(/^0+/, '').padStart(3, '0')};` : `&amp;#${digits};`,
    )
    .replace(/&amp;#[Xx](0*[0-9A-Fa-f]{1,6});/g, (_m, hex: string) =>
      validUnicode(parseInt(hex, 16)) ? `&#x${hex.replace(/^0+/, '')};` : `&amp;#x${hex};`,
    );
}

const NUMERIC_ENTITY = /&#(?:[xX]([0-9A-Fa-f]+)|([0-9]+));/y;
const NAMED_ENTITY = /&([A-Za-z0-9]+);/y;

/** The entity a `&` at `i` starts, as htmlspecialchars(double_encode: false) accepts it, or null. */
function entityAt(s: string, i: number): string | null {
  NUMERIC_ENTITY.lastIndex = i;
  const numeric = NUMERIC_ENTITY.exec(s);
  if (numeric) {
    const cp = numeric[1] !== undefined ? parseInt(numeric[1], 16) : Number(numeric[2]);
    return cp <= 0x10ffff ? numeric[0] : null;
  }
  NAMED_ENTITY.lastIndex = i;
  const named = NAMED_ENTITY.exec(s);
  return named && isHtml4Entity(named[1]) ? named[0] : null;
}

const SPECIAL: Readonly<Record<string, string>> = { '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#039;' };

/**
 * WordPress `esc_html()`: escapes `< > " '` and every `&` that does not begin a valid entity.
 *
 * @example
 * escHtml('< b & "c"') // '&lt; b &amp; &quot;c&quot;'
 */
export function escHtml(input: string): string {
  if (!/[&<>"']/.test(input)) return input;
  const s = normalizeEntities(input);
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '&') {
      const entity = entityAt(s, i);
      if (entity) {
        out += entity;
        i += entity.length - 1;
      } else {
        out += '&amp;';
      }
    } else {
      out += SPECIAL[c] ?? c;
    }
  }
  return out;
}
