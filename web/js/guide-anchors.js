// Why: a sentence of the score log names the rule that wrote it (R8.1) and links to it, so
// the guide gives every rule id it mentions an anchor (`#r8-1`) at its first mention: a
// table row of the examples or a paragraph. A rule the guide names nowhere falls back to the
// section that explains its chapter, so no link from the table lands on the top of the page.

import { guideAnchor } from './scorelog.js';

/** The anchor of a rule id: `R8.1` → `r8-1`. */
export function ruleAnchor(rule) {
  return rule.toLowerCase().replace(/\./g, '-');
}

const RULE = /\bR\d+(?:\.\d+)+\b/g;

/** Gives each rule id named in `root` an anchor at its first mention. */
export function anchorRules(root) {
  for (const el of root.querySelectorAll('td, p, li, dd')) {
    for (const rule of new Set(el.textContent.match(RULE) || [])) {
      const id = ruleAnchor(rule);
      if (document.getElementById(id)) continue;
      const mark = document.createElement('span');
      mark.id = id;
      mark.className = 'g-anchor';
      el.prepend(mark);
    }
  }
}

/** Scrolls to the rule the address names, or to the section of its chapter. */
export function showRule() {
  const m = /^#r(\d+(?:-\d+)+)$/.exec(location.hash);
  if (!m) return;
  const target = document.getElementById(`r${m[1]}`)
    || document.getElementById(guideAnchor(`R${m[1].replace(/-/g, '.')}`));
  if (!target) return;
  const row = target.closest('tr, p, li, dd') || target;
  row.classList.add('g-target');
  row.scrollIntoView({ block: 'center' });
}
