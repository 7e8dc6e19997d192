// Why: an exact result from the server ("-88/3") as players write it on the sheet and say
// it: a mixed number with the fraction's own glyph, "−29 ⅓" (a true minus sign; "n/d" where
// no glyph exists). The exact text stays in the element's title wherever it is shown.

const GLYPH = {
  '1/2': '½', '1/3': '⅓', '2/3': '⅔', '1/4': '¼', '3/4': '¾', '1/5': '⅕', '2/5': '⅖', '3/5': '⅗',
  '4/5': '⅘', '1/6': '⅙', '5/6': '⅚', '1/8': '⅛', '3/8': '⅜', '5/8': '⅝', '7/8': '⅞',
};

/** "n" or "n/d" (reduced, as the server sends it) as a mixed number: "−29 ⅓", "⅔", "+4" never. */
export function mixed(text) {
  if (text === null || text === undefined) return '—';
  const [n, d] = String(text).split('/').map(Number);
  const sign = n < 0 ? '−' : '';
  const a = Math.abs(n);
  if (!d || d === 1) return `${sign}${a}`;
  const whole = Math.floor(a / d);
  const part = `${a % d}/${d}`;
  const frac = GLYPH[part] || part;
  return `${sign}${whole ? `${whole} ${frac}` : frac}`;
}
