// Why: the house-profile options (docs/options.md) as the start page shows them:
// the order, the kind of control each needs, and how a typed value is read back. Their
// explanations are words, so they live in the language files under `opt.KEY` / `opt.KEY.help`.
// `word` names a value besides a number that the option also takes (raspasy_zero_bonus:
// "price"); its label is `opt.KEY.WORD`.

export const OPTIONS = [
  ['players', { choices: [3, 4] }],
  ['pool_target', { min: 1 }],
  ['pool_help', {}],
  ['half_whist', {}],
  ['ten_whisted', {}],
  ['stalingrad', {}],
  ['whist_responsibility', { choices: ['full', 'half'] }],
  ['whist_split', { choices: ['greedy', 'gentleman'] }],
  ['whist_scale', { min: 1 }],
  ['mountain_scale', { min: 1 }],
  ['mountain_as_whists', { min: 0 }],
  ['pool_point_whists', { min: 10, step: 10 }],
  ['raspasy_price', { list: true }],
  ['raspasy_exit', { list: true }],
  ['raspasy_zero_bonus', { min: 0, word: 'price' }],
  ['raspasy_amnesty', {}],
  ['must_overtake', {}],
  ['dealer_whist', {}],
  ['whist_pass_half', {}],
  ['checked_ten_consolation', {}],
  ['whist_shortfall_cap', {}],
  ['raspasy_series', { choices: ['any', 'made'] }],
  ['raspasy_talon', { choices: ['lead', 'ignored'] }],
  ['dealer_consolation', {}],
  ['dealer_whist_consolation', { choices: ['own', 'all'] }],
  ['surrender', { choices: [0, 2, 3] }],
  ['surrender_max_level', { min: 6, max: 10 }],
  ['talon_bonus', {}],
  ['claims', {}],
  ['reveal_after_deal', {}],
];

/** A value as the sheet of options prints it. */
export function show(value) {
  if (Array.isArray(value)) return value.join(', ');
  return String(value);
}

/** Reads a list typed as "1, 2, 3". */
export function readList(text) {
  return text.split(/[\s,;]+/).filter(Boolean).map(Number);
}

/** The keys where `profile` differs from `base`, for the create request. */
export function overrides(profile, base) {
  const out = {};
  for (const [k] of OPTIONS) {
    if (JSON.stringify(profile[k]) !== JSON.stringify(base[k])) out[k] = profile[k];
  }
  return out;
}
