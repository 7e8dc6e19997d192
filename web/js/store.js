// Why: a seat token must survive a reload or a new tab, so a player returns to his seat;
// the host token, the table's invite key and the last name used are kept the same way.
// Nothing else is stored.

const key = (table, what) => `pref:${table}:${what}`;

export const saved = {
  seat(table) {
    const raw = localStorage.getItem(key(table, 'seat'));
    try { return raw ? JSON.parse(raw) : null; } catch { return null; }
  },
  setSeat(table, seat, token) {
    localStorage.setItem(key(table, 'seat'), JSON.stringify({ seat, token }));
  },
  dropSeat(table) { localStorage.removeItem(key(table, 'seat')); },
  keeper(sheet) { return localStorage.getItem(key(sheet, 'keeper')); },
  setKeeper(sheet, token) { localStorage.setItem(key(sheet, 'keeper'), token); },
  host(table) { return localStorage.getItem(key(table, 'host')); },
  setHost(table, token) { localStorage.setItem(key(table, 'host'), token); },
  /** The invite key: from the page's `#invite=` (the invite link), kept here for a reload
   * and taken out of the address bar at once, so that the browser's history and a shared
   * screen do not show it. */
  invite(table) {
    const m = /^#invite=([0-9a-f]{32})$/.exec(location.hash);
    if (m && location.pathname === `/t/${table}`) {
      localStorage.setItem(key(table, 'invite'), m[1]);
      history.replaceState(history.state, '', location.pathname + location.search);
    }
    return localStorage.getItem(key(table, 'invite'));
  },
  setInvite(table, link) {
    const m = /#invite=([0-9a-f]{32})$/.exec(link);
    if (m) localStorage.setItem(key(table, 'invite'), m[1]);
  },
  name() { return localStorage.getItem('pref:name') || ''; },
  setName(name) { localStorage.setItem('pref:name', name); },
  lang() { return localStorage.getItem('pref:lang'); },
  setLang(lang) { localStorage.setItem('pref:lang', lang); },
};
