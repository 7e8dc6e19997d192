// Why: the house-profile options (docs/options.md) as the start page shows them:
// the order, the kind of control each needs, and how a typed value is read back. Their
// explanations are words, so they live in the language files under `opt.KEY` / `opt.KEY.help`.
// `word` names a value besides a number that the option also takes (raspasy_zero_bonus:
// "price"); its label is `opt.KEY.WORD`. `group` files each option under one of GROUPS, the
// folds the start page shows them in (named `start.group.NAME`).

export const GROUPS = ['whist', 'raspasy', 'four', 'play', 'score'];

export const OPTIONS = [
  ['players', { group: 'score', choices: [3, 4] }],
  ['pool_target', { group: 'score', min: 1 }],
  ['pool_help', { group: 'score' }],
  ['half_whist', { group: 'whist' }],
  ['ten_whisted', { group: 'whist' }],
  ['stalingrad', { group: 'whist' }],
  ['whist_responsibility', { group: 'whist', choices: ['full', 'half'] }],
  ['whist_split', { group: 'whist', choices: ['greedy', 'gentleman'] }],
  ['whist_scale', { group: 'score', min: 1 }],
  ['mountain_scale', { group: 'score', min: 1 }],
  ['mountain_as_whists', { group: 'score', min: 0 }],
  ['pool_point_whists', { group: 'score', min: 10, step: 10 }],
  ['raspasy_price', { group: 'raspasy', list: true }],
  ['raspasy_exit', { group: 'raspasy', list: true }],
  ['raspasy_zero_bonus', { group: 'raspasy', min: 0, word: 'price' }],
  ['raspasy_amnesty', { group: 'raspasy' }],
  ['must_overtake', { group: 'play' }],
  ['dealer_whist', { group: 'four' }],
  ['whist_pass_half', { group: 'whist' }],
  ['checked_ten_consolation', { group: 'whist' }],
  ['whist_shortfall_cap', { group: 'whist' }],
  ['raspasy_series', { group: 'raspasy', choices: ['any', 'made'] }],
  ['raspasy_talon', { group: 'raspasy', choices: ['lead', 'ignored'] }],
  ['dealer_consolation', { group: 'four' }],
  ['dealer_whist_consolation', { group: 'four', choices: ['own', 'all'] }],
  ['surrender', { group: 'play', choices: [0, 2, 3] }],
  ['surrender_max_level', { group: 'play', min: 6, max: 10 }],
  ['talon_bonus', { group: 'four' }],
  ['misere_without_talon', { group: 'play' }],
  ['dark_games', { group: 'play' }],
  ['claims', { group: 'play' }],
  ['reveal_after_deal', { group: 'play' }],
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

/** The options of one group, in the order of OPTIONS. */
export function inGroup(group) {
  return OPTIONS.filter(([, spec]) => spec.group === group);
}

/** The keys where `profile` differs from `base`, for the create request. */
export function overrides(profile, base) {
  const out = {};
  for (const [k] of OPTIONS) {
    if (JSON.stringify(profile[k]) !== JSON.stringify(base[k])) out[k] = profile[k];
  }
  return out;
}
