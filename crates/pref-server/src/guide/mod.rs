//! The data of the rules guide (`GET /api/guide`, `web/guide.html`), computed by the rules
//! core so that the guide cannot disagree with the engine.
//!
//! - The worked deal (`tests/records/worked-deal.json`) is read as a game record and replayed
//!   through [`Deal`]: one step per call, the talon, the discard, the contract, each whist
//!   decision and each trick, every step with the whole picture (hands, talon, calls, tricks);
//!   the sheet after it comes from replaying the record through [`Game`].
//! - The scoring examples of the rules (R8, R9.2), a list of whist cases, the whists of a
//!   standing half-whist (R8.6), the raspasy price of each preset and a raspasy under the
//!   amnesty (R8.9), a short game closed and settled (R10), and the same examples scored under
//!   each preset: every number is what [`Sheet`] writes.
//!
//! Nothing here is typed in twice: the client interpolates these numbers into its words.

use std::sync::LazyLock;

use pref_core::{
    Action, Call, CardSet, Contract, Deal, Defence, Game, Outcome, OutcomeKind, PRESETS, Profile,
    Record, RecordDeal, Seat, Sheet, WhistCall,
};
use serde::Serialize;
use serde_json::{Map, Value, json};

/// The worked deal of `docs/worked-example.md` as a game record.
pub const WORKED_DEAL: &str = crate::data::WORKED_DEAL_JSON;

/// The presets the guide compares side by side, in its order.
pub const COMPARED: [&str; 3] = ["sochi", "leningrad", "rostov"];

/// The guide's answer (`GET /api/guide`): each part of the guide, computed by the core. The
/// fields are in alphabetical order, the order the answer has always had on the wire.
#[derive(Debug, Serialize)]
pub struct Guide {
    /// A raspasy under the amnesty (R8.9).
    pub amnesty: Value,
    /// The whist cases, scored.
    pub cases: Value,
    /// The examples scored under each compared preset.
    pub compare: Value,
    /// The presets compared side by side ([`COMPARED`]).
    pub compared: [&'static str; 3],
    /// The worked deal, step by step.
    pub deal: Value,
    /// The scoring examples of the rules (R8, R9.2).
    pub examples: Value,
    /// Every preset's profile by its name.
    pub presets: Map<String, Value>,
    /// The raspasy price of each preset.
    pub raspasy: Value,
    /// A short game closed and settled (R10).
    pub settlement: Value,
    /// Contract values, defence quotas and the half-whist's whists (R8, R8.6).
    pub values: Value,
}

/// Computed once: the inputs are constants.
static GUIDE: LazyLock<Result<Guide, String>> = LazyLock::new(build);

/// [`GUIDE`] as a JSON value, for the tests that read it part by part.
static DATA: LazyLock<Result<Value, String>> = LazyLock::new(|| {
    let guide = GUIDE.as_ref().map_err(Clone::clone)?;
    serde_json::to_value(guide).map_err(|e| e.to_string())
});

/// The guide's data, or why it could not be computed (a broken record or preset file).
///
/// # Errors
/// The reason, if the worked deal does not replay or a preset does not load.
pub fn data() -> Result<&'static Value, String> {
    DATA.as_ref().map_err(Clone::clone)
}

/// The guide's answer, or why it could not be computed.
///
/// # Errors
/// The reason, if the worked deal does not replay or a preset does not load.
pub fn guide() -> Result<&'static Guide, String> {
    GUIDE.as_ref().map_err(Clone::clone)
}

fn build() -> Result<Guide, String> {
    let sochi = Profile::sochi();
    let mut presets = Map::new();
    for name in PRESETS {
        let p = Profile::preset(name).ok_or_else(|| format!("preset {name} does not load"))?;
        presets.insert((*name).to_owned(), p.to_json());
    }
    Ok(Guide {
        values: values()?,
        deal: worked_deal()?,
        examples: examples()?,
        cases: cases()?,
        raspasy: raspasy()?,
        amnesty: amnesty(),
        settlement: settlement(&sochi)?,
        presets,
        compared: COMPARED,
        compare: compare()?,
    })
}

/// Contract values and defence quotas (R8), what a made misère earns, and the whists a
/// standing half-whist writes against each level that allows it (R8.6).
fn values() -> Result<Value, String> {
    let sochi = Profile::sochi();
    let rows: Vec<Value> = (6..=10)
        .filter_map(|level| Contract::new(level, pref_core::Strain::NoTrump))
        .map(|c| json!({ "level": c.level(), "value": c.value(), "quota": c.quota() }))
        .collect();
    let misere = scored(&sochi, &Sheet::new(3), &misere(Seat(0), [0, 5, 5]));
    let mut half = Vec::new();
    for (level, contract) in [(6, "6S"), (7, "7S")] {
        let standing = game(0, contract, [None, P, H], None)?;
        let sheet = scored(&sochi, &Sheet::new(3), &standing);
        half.push(json!({ "level": level, "whists": sheet["whists"][2][0] }));
    }
    Ok(json!({ "contracts": rows, "misere": misere["pool"][0], "half_whist": half }))
}

fn cards(set: CardSet) -> Vec<String> {
    set.iter().map(|c| c.to_string()).collect()
}

fn sheet_json(s: &Sheet) -> Value {
    json!({ "pool": s.pool(), "mountain": s.mountain(), "whists": s.whist_matrix() })
}

/// `outcome` written on a copy of `before`, under `profile`; the sheet after it.
fn scored(profile: &Profile, before: &Sheet, outcome: &Outcome) -> Value {
    let mut s = before.clone();
    s.record(profile, outcome, 0);
    sheet_json(&s)
}

/// An outcome as the guide shows it: its one form (the core's, as a record writes it) and,
/// for a trick contract, the contract's `value` and the defence's `quota` (R8), which the
/// guide's words quote.
fn outcome_json(o: &Outcome) -> Value {
    let mut v = json!(o.form());
    if let (OutcomeKind::Game { contract, .. }, Value::Object(m)) = (o.kind, &mut v) {
        m.insert("value".to_owned(), json!(contract.value()));
        m.insert("quota".to_owned(), json!(contract.quota()));
    }
    v
}

/// One step of the worked deal's diagram: what just happened and the whole picture after it.
struct Picture<'a> {
    deal: &'a Deal,
    calls: &'a [Value],
    trick: Option<Value>,
}

impl Picture<'_> {
    fn json(&self, kind: &str, what: Value) -> Value {
        let d = self.deal;
        let n = d.players();
        let seats = (0..n).map(Seat);
        json!({
            "kind": kind,
            "what": what,
            "hands": seats.clone().map(|s| cards(d.hand(s))).collect::<Vec<_>>(),
            "talon": d.talon(),
            "talon_up": d.talon_shown() > 0,
            "discard": cards(d.discard()),
            "calls": self.calls,
            "declarer": d.declarer().map(|s| s.0),
            "contract": d.contract(),
            "whists": d.whist_calls()[..n as usize].to_vec(),
            "trick": self.trick,
            "tricks": d.tricks_taken()[..n as usize].to_vec(),
        })
    }
}

/// The worked deal, step by step, and the sheet after it.
fn worked_deal() -> Result<Value, String> {
    let (record, game) = Record::read(WORKED_DEAL).map_err(|e| e.to_string())?;
    let Some(RecordDeal::Played {
        hands,
        talon,
        actions,
    }) = record.deals().first()
    else {
        return Err("the worked deal is not a played deal".to_owned());
    };
    let profile = record.profile();
    let dealer = record.first_dealer();
    let mut deal =
        Deal::from_hands(profile, dealer, hands, &talon[..], 0).map_err(|e| e.to_string())?;
    let mut calls: Vec<Value> = Vec::new();
    let mut steps = vec![
        Picture {
            deal: &deal,
            calls: &calls,
            trick: None,
        }
        .json("deal", json!({ "dealer": dealer.0 })),
    ];
    for &(seat, action) in actions {
        let here = match action {
            Action::Bid(Call::Bid(b)) | Action::Dark(Call::Bid(b)) => {
                deal.highest_bid().is_some_and(|(h, _)| h == b)
            }
            Action::Bid(Call::Pass)
            | Action::Dark(Call::Pass)
            | Action::Look
            | Action::Discard(_)
            | Action::Declare(_)
            | Action::Whist(_)
            | Action::Defence(_)
            | Action::Play(_)
            | Action::Surrender
            | Action::Claim(_)
            | Action::Answer(_) => false,
        };
        let tricks_before = deal.completed_tricks().len();
        deal.apply(seat, action).map_err(|e| e.to_string())?;
        let step = match action {
            // The worked deal is played in the light (no `dark_games`): no look, no dark call.
            Action::Look => None,
            Action::Bid(call) | Action::Dark(call) => {
                calls.push(json!({ "seat": seat.0, "call": call, "here": here }));
                let won = deal.declarer().is_some();
                Some((
                    "call",
                    json!({ "seat": seat.0, "call": call, "here": here, "won": won }),
                ))
            }
            Action::Discard(set) => {
                Some(("discard", json!({ "seat": seat.0, "cards": cards(set) })))
            }
            Action::Declare(c) => Some(("declare", json!({ "seat": seat.0, "contract": c }))),
            Action::Whist(w) => Some(("whist", json!({ "seat": seat.0, "call": w }))),
            Action::Defence(d) => Some(("defence", json!({ "seat": seat.0, "defence": d }))),
            Action::Surrender => Some(("surrender", json!({ "seat": seat.0 }))),
            // The guide's worked deal is played out to the last trick, without a claim.
            Action::Claim(_) | Action::Answer(_) => None,
            Action::Play(_) => deal.completed_tricks().get(tricks_before).map(|t| {
                let played: Vec<Value> = t
                    .cards()
                    .iter()
                    .map(|(s, c)| json!({ "seat": s.0, "card": c }))
                    .collect();
                (
                    "trick",
                    json!({ "no": tricks_before + 1, "leader": t.leader.0,
                                "cards": played, "winner": t.winner.0 }),
                )
            }),
        };
        if let Some((kind, what)) = step {
            let trick = (kind == "trick").then(|| what.clone());
            steps.push(
                Picture {
                    deal: &deal,
                    calls: &calls,
                    trick,
                }
                .json(kind, what),
            );
        }
    }
    let outcome = deal
        .outcome()
        .ok_or("the worked deal does not finish".to_owned())?;
    Ok(json!({
        "players": record.players(),
        "dealer": dealer.0,
        "first_hand": deal.first_hand().0,
        "dealt": deal.dealt_hands()[..deal.players() as usize].iter().map(|&h| cards(h)).collect::<Vec<_>>(),
        "steps": steps,
        "outcome": outcome_json(&outcome),
        "made": outcome.made(),
        "sheet": sheet_json(game.sheet()),
    }))
}

fn game(
    declarer: u8,
    contract: &str,
    whist: [Option<WhistCall>; 3],
    tricks: Option<[u8; 3]>,
) -> Result<Outcome, String> {
    let contract: Contract = contract.parse().map_err(|e| format!("{e:?}"))?;
    let mut w = [None; 4];
    w[..3].copy_from_slice(&whist);
    let whisters = whist
        .iter()
        .filter(|c| **c == Some(WhistCall::Whist))
        .count();
    let played = tricks.is_some();
    Ok(Outcome {
        dark: false,
        no_talon: false,
        players: 3,
        dealer: Seat(2),
        kind: OutcomeKind::Game {
            declarer: Seat(declarer),
            contract,
            whist: w,
            defence: (played && whisters == 1).then_some(Defence::Closed),
            talon_units: None,
        },
        tricks: tricks.map(|t| [t[0], t[1], t[2], 0]),
    })
}

fn misere(declarer: Seat, tricks: [u8; 3]) -> Outcome {
    Outcome {
        dark: false,
        no_talon: false,
        players: 3,
        dealer: Seat(2),
        kind: OutcomeKind::Misere { declarer },
        tricks: Some([tricks[0], tricks[1], tricks[2], 0]),
    }
}

fn raspasy_outcome(dealer: Seat, tricks: [u8; 3]) -> Outcome {
    Outcome {
        dark: false,
        no_talon: false,
        players: 3,
        dealer,
        kind: OutcomeKind::Raspasy,
        tricks: Some([tricks[0], tricks[1], tricks[2], 0]),
    }
}

const W: Option<WhistCall> = Some(WhistCall::Whist);
const P: Option<WhistCall> = Some(WhistCall::Pass);
const H: Option<WhistCall> = Some(WhistCall::Half);

/// The scoring examples of `worked-example.md` (1–4, 6, 7), each scored on an empty sheet.
fn example_outcomes() -> Result<Vec<(&'static str, &'static str, Outcome)>, String> {
    Ok(vec![
        (
            "ex1",
            "R8.1 R8.3",
            game(0, "7H", [None, W, W], Some([7, 2, 1]))?,
        ),
        (
            "ex2",
            "R8.2 R8.3",
            game(0, "7H", [None, W, W], Some([6, 3, 1]))?,
        ),
        (
            "ex3",
            "R8.3 R8.4",
            game(0, "6C", [None, W, W], Some([8, 2, 0]))?,
        ),
        (
            "ex4",
            "R8.2 R8.3",
            game(0, "6S", [None, W, P], Some([5, 3, 2]))?,
        ),
        ("ex6", "R8.9", raspasy_outcome(Seat(2), [0, 5, 5])),
        ("ex7", "R8.8", misere(Seat(0), [2, 4, 4])),
    ])
}

fn examples() -> Result<Value, String> {
    let sochi = Profile::sochi();
    let mut out: Vec<Value> = example_outcomes()?
        .iter()
        .map(|(id, rules, o)| {
            json!({ "id": id, "rules": rules, "outcome": outcome_json(o),
                    "sheet": scored(&sochi, &Sheet::new(3), o) })
        })
        .collect();
    out.insert(4, help_example(&sochi)?);
    Ok(Value::Array(out))
}

/// Example 5 (R9.2): pools 19, 17, 14 reached by conceded contracts and a raspasy, then A
/// makes an 8 worth 6 points.
fn help_example(sochi: &Profile) -> Result<Value, String> {
    let mut s = Sheet::new(3);
    for (declarer, contract) in [
        (0, "10S"),
        (0, "9S"),
        (1, "10S"),
        (1, "8S"),
        (2, "10S"),
        (2, "7S"),
    ] {
        s.record(
            sochi,
            &game(declarer, contract, conceded_whists(declarer), None)?,
            0,
        );
    }
    s.record(sochi, &raspasy_outcome(Seat(2), [0, 0, 10]), 0);
    let eight = game(0, "8S", conceded_whists(0), None)?;
    Ok(
        json!({ "id": "ex5", "rules": "R9.2", "outcome": outcome_json(&eight),
               "before": sheet_json(&s), "sheet": scored(sochi, &s, &eight) }),
    )
}

/// Two passes by the declarer's defenders.
fn conceded_whists(declarer: u8) -> [Option<WhistCall>; 3] {
    let mut w = [P; 3];
    w[declarer as usize] = None;
    w
}

/// Every way a trick contract is defended (R8.3–R8.7), each with one example.
fn case_outcomes() -> Result<Vec<(&'static str, &'static str, Outcome)>, String> {
    Ok(vec![
        (
            "both_made",
            "R8.1 R8.3",
            game(0, "7H", [None, W, W], Some([7, 2, 1]))?,
        ),
        (
            "both_failed",
            "R8.2 R8.3",
            game(0, "7H", [None, W, W], Some([6, 3, 1]))?,
        ),
        (
            "both_short",
            "R8.4",
            game(0, "6C", [None, W, W], Some([8, 2, 0]))?,
        ),
        (
            "both_short_high",
            "R8.4",
            game(0, "8S", [None, W, W], Some([10, 0, 0]))?,
        ),
        (
            "lone_made",
            "R8.3",
            game(0, "6S", [None, W, P], Some([6, 3, 1]))?,
        ),
        (
            "lone_failed",
            "R8.2 R8.3",
            game(0, "6S", [None, W, P], Some([5, 3, 2]))?,
        ),
        (
            "lone_short",
            "R8.4",
            game(0, "7S", [None, W, P], Some([9, 1, 0]))?,
        ),
        ("passes", "R8.5", game(0, "8D", [None, P, P], None)?),
        ("half", "R8.6", game(0, "6S", [None, P, H], None)?),
        (
            "returned",
            "R8.7",
            game(0, "6S", [None, W, H], Some([5, 3, 2]))?,
        ),
    ])
}

fn cases() -> Result<Value, String> {
    let sochi = Profile::sochi();
    Ok(case_outcomes()?
        .iter()
        .map(|(id, rules, o)| {
            json!({ "id": id, "rules": rules, "outcome": outcome_json(o),
                    "sheet": scored(&sochi, &Sheet::new(3), o) })
        })
        .collect())
}

/// The raspasy price per trick in the 1st to 4th raspasy in a row, the exit and the zero
/// bonus, per compared preset.
fn raspasy() -> Result<Value, String> {
    let mut by = Map::new();
    for name in COMPARED {
        let p = Profile::preset(name).ok_or_else(|| format!("preset {name} does not load"))?;
        let price: Vec<u32> = (1..=4).map(|n| p.raspasy_price_for(n)).collect();
        let exit: Vec<u8> = (1..=4).map(|n| p.min_level(n)).collect();
        by.insert(
            name.to_owned(),
            json!({ "price": price, "exit": exit, "zero_bonus": p.get("raspasy_zero_bonus"),
                    "mountain_scale": p.mountain_scale() }),
        );
    }
    Ok(Value::Object(by))
}

/// A 4–3–3 raspasy under Sochi with the amnesty agreed (`raspasy_amnesty`, R8.9), which the
/// guide describes although its own profile has it off.
fn amnesty() -> Value {
    let profile = Profile::sochi()
        .with("raspasy_amnesty", true)
        .expect("raspasy_amnesty is a boolean option");
    let tricks = [4, 3, 3];
    json!({ "tricks": tricks,
            "sheet": scored(&profile, &Sheet::new(3), &raspasy_outcome(Seat(2), tricks)) })
}

/// A short game under `profile` (Sochi) from the first deal to the last closed pool, and its
/// settlement (R10.1) with every term.
fn settlement(profile: &Profile) -> Result<Value, String> {
    let mut g = Game::new(profile.clone(), Seat(2)).map_err(|e| e.to_string())?;
    // Dealers are set from the rotation below; the defence of a lone whister is open.
    let deals = [
        game(0, "10S", [None, P, P], None)?,
        game(1, "10S", [P, None, P], None)?,
        game(2, "10S", [P, P, None], None)?,
        game(0, "8H", [None, W, W], Some([7, 2, 1]))?,
        raspasy_outcome(Seat(0), [2, 5, 3]),
        misere(Seat(2), [5, 5, 0]),
        game(0, "10S", [None, P, P], None)?,
        game(1, "7D", [W, None, P], Some([3, 7, 0]))?,
        game(1, "9C", [P, None, P], None)?,
    ];
    let mut list = Vec::new();
    for mut o in deals {
        o.dealer = g.dealer();
        if let OutcomeKind::Game { defence, .. } = &mut o.kind {
            *defence = defence.map(|_| Defence::Open);
        }
        g.record_outcome(o).map_err(|e| e.to_string())?;
        list.push(json!({ "outcome": outcome_json(&o), "sheet": sheet_json(g.sheet()) }));
    }
    let result = g
        .settlement()
        .ok_or("the settlement game does not close every pool".to_owned())?;
    let s = g.sheet();
    let n = s.players() as usize;
    let w = s.whist_matrix();
    let total: i64 = s.mountain().iter().sum();
    let rows: Vec<Value> = (0..n)
        .map(|p| {
            let written: i64 = w[p].iter().sum();
            let received: i64 = w.iter().map(|row| row[p]).sum();
            // R10.1's first term, 10·(avg − mountain): the result without the whists.
            let term = result[p] - (written - received);
            json!({ "mountain": s.mountain()[p], "written": written, "received": received,
                    "term": term.to_string(), "avg": (term / 10 + s.mountain()[p]).to_string(),
                    "result": result[p].to_string() })
        })
        .collect();
    let sum = result
        .iter()
        .copied()
        .reduce(|a, b| a + b)
        .ok_or("no players".to_owned())?;
    // The whists one mountain point is worth in R10.1, read back from the first player's
    // term: 10·(avg − mountain) = 10·(total − n·mountain) / n.
    let term = result[0] - (w[0].iter().sum::<i64>() - w.iter().map(|row| row[0]).sum::<i64>());
    let gap = total - s.mountain()[0] * n as i64;
    if gap == 0 {
        return Err("the settlement example needs a mountain apart from the mean".to_owned());
    }
    let scale = (term * n as i64 / gap).to_string();
    Ok(json!({
        "deals": list,
        "scale": scale,
        "sheet": sheet_json(s),
        "mountain_total": total,
        "players": n,
        "rows": rows,
        "sum": sum.to_string(),
    }))
}

/// The same examples scored under each compared preset.
fn compare() -> Result<Value, String> {
    let mut profiles = Vec::new();
    for name in COMPARED {
        profiles.push((
            name,
            Profile::preset(name).ok_or_else(|| format!("preset {name} does not load"))?,
        ));
    }
    let mut list = example_outcomes()?;
    list.push(("half", "R8.6", game(0, "6S", [None, P, H], None)?));
    Ok(list
        .iter()
        .map(|(id, rules, o)| {
            let by: Map<String, Value> = profiles
                .iter()
                .map(|(name, p)| ((*name).to_owned(), scored(p, &Sheet::new(3), o)))
                .collect();
            json!({ "id": id, "rules": rules, "outcome": outcome_json(o), "by": by })
        })
        .collect())
}
