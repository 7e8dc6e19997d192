//! The page's kept picture of a table (the last snapshot, changed since by every item it
//! followed) beside a fresh snapshot fetched over a second socket: the follow test compares
//! them, and a test that waits in vain prints them to show where the page stands.

use fantoccini::Client;
use serde_json::Value;

use crate::js;

/// The page's kept picture, as a JSON string (`window.prefPicture`).
const PICTURE: &str = "return window.prefPicture()";

/// A snapshot for the page's own viewer over a second socket: the seat token the page keeps,
/// or none on a spectator's page. It is not the page's socket, so the page does not count it.
/// A spectator's probe changes the spectator count, which every page is told at most once
/// a second: a snapshot carries the count as last told, so it matches the page at its
/// version, and the probe stays open until the next one so that the count it made is told
/// once rather than again at every probe.
const FRESH: &str = "const id = location.pathname.split('/').pop();
  const watch = new URLSearchParams(location.search).has('watch');
  const mine = watch ? null : JSON.parse(localStorage.getItem(`pref:${id}:seat`) || 'null');
  const protocols = mine ? ['pref', `pref.token.${mine.token}`] : ['pref'];
  if (window.prefProbe) { window.prefProbe.close(); window.prefProbe = null; }
  const out = (m) => JSON.stringify({ version: m.version, table: m.table, deal_no: m.deal_no, deal: m.deal, turn: m.turn });
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://${location.host}/api/tables/${id}/ws`, protocols);
    ws.onmessage = (e) => {
      const m = JSON.parse(e.data);
      if (m.type !== 'snapshot') return;
      if (mine) { ws.close(); } else { window.prefProbe = ws; }
      resolve(out(m));
    };
    ws.onerror = () => reject(new Error('the second socket failed'));
  });";

/// The picture read back; a summary leaves out a spectator count of 0, which a page told
/// "0 watching" holds as 0, so a missing count reads as 0 on both sides.
fn parsed(v: &Value) -> Value {
    let mut picture = v
        .as_str()
        .and_then(|s| serde_json::from_str(s).ok())
        .unwrap_or(Value::Null);
    if let Some(table) = picture.get_mut("table").and_then(Value::as_object_mut) {
        table.entry("spectators").or_insert(Value::from(0));
    }
    picture
}

/// The page's kept picture (`version`, `table`, `deal_no`, `deal`, `turn`); `null` before
/// its first snapshot.
///
/// # Panics
/// If the script fails.
pub async fn kept_picture(c: &Client) -> Value {
    parsed(&js(c, PICTURE).await)
}

/// A fresh snapshot for the page's viewer, with the same fields as [`kept_picture`].
///
/// # Panics
/// If the script or the second socket fails.
pub async fn fresh_snapshot(c: &Client) -> Value {
    parsed(&js(c, FRESH).await)
}

/// Where the page stands, for a test that waited in vain: its body's data attributes, its
/// snapshots by cause, and each field of its kept picture that differs from a fresh
/// snapshot's.
///
/// # Panics
/// If a script fails.
pub async fn describe(c: &Client) -> String {
    let data = js(c, "return Object.assign({}, document.body.dataset)").await;
    let counts = js(c, "return window.prefSnapshots || null").await;
    let kept = kept_picture(c).await;
    let fresh = fresh_snapshot(c).await;
    let mut out = format!("data {data}\n  snapshots by cause {counts}\n");
    for key in ["version", "table", "deal_no", "deal", "turn"] {
        if kept[key] == fresh[key] {
            out.push_str(&format!("  {key}: the same as a fresh snapshot's\n"));
        } else {
            out.push_str(&format!(
                "  {key}: kept {}\n  {key}: fresh {}\n",
                kept[key], fresh[key]
            ));
        }
    }
    out
}
