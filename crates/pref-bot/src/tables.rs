//! A seat's exact result for each possible trick count of one deal, priced by the table's
//! profile through the core (`score.rs`).
//!
//! The solver answers with one number, the tricks of its target; a decision turns it into
//! whists through one of these tables, built once per decision (eleven small sheets), so
//! the sampled layouts cost no scoring at all.

use pref_core::{Contract, DealView, Outcome, OutcomeKind, Seat, WhistCall};

use crate::score::{Prices, Whists};

/// A seat's result for every count (0..=10) of the target's tricks.
pub(crate) type Table = [Whists; 11];

/// The active seats of the deal other than `seat`, clockwise from it.
fn others(view: &DealView, seat: Seat) -> Vec<Seat> {
    (1..view.players)
        .map(|i| Seat((seat.0 + i) % view.players))
        .filter(|&s| !(view.players == 4 && s == view.dealer))
        .collect()
}

/// Tricks per seat with `who` taking `t` and the two other active seats sharing the rest
/// evenly (the first after him takes an odd one): the solver counts one player's tricks.
fn split(view: &DealView, who: Seat, t: u8) -> [u8; 4] {
    let mut tricks = [0u8; 4];
    tricks[who.index()] = t;
    let rest = 10 - t;
    if let [a, b] = others(view, who)[..] {
        tricks[a.index()] = rest - rest / 2;
        tricks[b.index()] = rest / 2;
    }
    tricks
}

/// A trick contract's outcome with the declarer taking `t` tricks.
pub(crate) fn game_outcome(
    view: &DealView,
    declarer: Seat,
    contract: Contract,
    whist: [Option<WhistCall>; 4],
    t: u8,
    played: bool,
) -> Outcome {
    let tricks = split(view, declarer, t);
    Outcome {
        dark: false,
        no_talon: false,
        players: view.players,
        dealer: view.dealer,
        kind: OutcomeKind::Game {
            declarer,
            contract,
            whist,
            defence: None,
            talon_units: None,
        },
        tricks: played.then_some(tricks),
    }
}

/// `seat`'s results for the outcomes `f` builds from each trick count.
pub(crate) fn table(prices: &Prices, seat: Seat, f: impl Fn(u8) -> Outcome) -> Table {
    std::array::from_fn(|t| prices.result(&f(t as u8), seat.index()))
}

/// A declarer's results by the open-hand count of his tricks, taken at face value. The
/// open-hand count lets the declarer's finesses always work, but it lets the defence's
/// always work too, and the bots' card play gives up about as much on either side (the
/// double-dummy loss in `docs/bots.md`); valuing each count half as one trick fewer, as the
/// bots once did, priced most playable sixes below passing and sent half the deals to
/// raspasy.
pub(crate) fn declarer_table(
    prices: &Prices,
    view: &DealView,
    me: Seat,
    contract: Contract,
    whist: [Option<WhistCall>; 4],
) -> Table {
    table(prices, me, |t| {
        game_outcome(view, me, contract, whist, t, true)
    })
}

/// `seat`'s results by the misère declarer's tricks.
pub(crate) fn misere_table(prices: &Prices, view: &DealView, seat: Seat, declarer: Seat) -> Table {
    table(prices, seat, |t| Outcome {
        dark: false,
        no_talon: false,
        players: view.players,
        dealer: view.dealer,
        kind: OutcomeKind::Misere { declarer },
        tricks: Some(split(view, declarer, t)),
    })
}

/// `seat`'s raspasy results by its own tricks, the others sharing the rest evenly (the
/// raspasy model counts one player's tricks).
pub(crate) fn raspasy_table(prices: &Prices, view: &DealView, seat: Seat) -> Table {
    table(prices, seat, |t| Outcome {
        dark: false,
        no_talon: false,
        players: view.players,
        dealer: view.dealer,
        kind: OutcomeKind::Raspasy,
        tricks: Some(split(view, seat, t)),
    })
}

/// The whist decisions shown in the view, as an outcome holds them.
pub(crate) fn whists_array(view: &DealView) -> [Option<WhistCall>; 4] {
    let mut w = [None; 4];
    for (slot, c) in w.iter_mut().zip(&view.whist) {
        *slot = *c;
    }
    w
}

/// The whists a declarer expects: both defenders whist (R8.3's totals are the same with
/// one whister or two).
pub(crate) fn defenders_whist(view: &DealView, declarer: Seat) -> [Option<WhistCall>; 4] {
    let mut w = [None; 4];
    for s in others(view, declarer) {
        w[s.index()] = Some(WhistCall::Whist);
    }
    w
}

/// The mean of a table over trick counts, exact.
pub(crate) fn expect(table: &Table, counts: &[u8]) -> Whists {
    crate::score::mean(counts.iter().map(|&t| table[usize::from(t.min(10))]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use pref_core::{Card, Deal, PRESETS, Profile, Sheet, Strain, Viewer};

    /// The core's settlement of one deal on an empty sheet (R8, R9, R10.1, R10.3), written
    /// out here as the sheet's own API does it.
    fn core(profile: &Profile, o: &Outcome, streak: u32, seat: Seat) -> Whists {
        let mut sheet = Sheet::new(o.players);
        sheet.record(profile, o, streak);
        sheet.settlement(profile, true)[seat.index()]
    }

    /// For every preset, every seat, contract, whist decision and trick count, and misère
    /// and raspasy, the bot's tables hold exactly the core's settlement, and an expected
    /// value over a set of counts is exactly their mean.
    #[test]
    fn r8_r10_tables_are_the_cores_settlement_on_every_preset() {
        let deck: Vec<Card> = (0..32).map(Card::from_index).collect();
        let deck = deck.try_into().expect("32 cards");
        use WhistCall::{Half, Pass, Whist};
        let counts = [0u8, 3, 5, 6, 6, 7, 8, 10];
        let mut checked = 0;
        for name in PRESETS {
            let profile = Profile::preset(name).expect("a preset");
            let n = profile.players();
            let deal = Deal::new(&profile, Seat(n - 1), &deck, 0).expect("a deal");
            let view = deal.view(Viewer::Seat(Seat(0)));
            for streak in [0, 1, 2] {
                let prices = Prices {
                    profile: profile.clone(),
                    raspasy_before: streak,
                };
                let d = Seat(0);
                let defs = others(&view, d);
                let answers = [(Whist, Whist), (Whist, Pass), (Pass, Whist), (Whist, Half)];
                for seat in (0..n).map(Seat) {
                    for level in 6..=10 {
                        let contract = Contract::new(level, Strain::Hearts).expect("contract");
                        for (a, b) in answers {
                            let mut w = [None; 4];
                            w[defs[0].index()] = Some(a);
                            w[defs[1].index()] = Some(b);
                            let f = |t| game_outcome(&view, d, contract, w, t, true);
                            let tab = table(&prices, seat, f);
                            if seat == d {
                                // The declarer prices his own counts at face value.
                                assert_eq!(declarer_table(&prices, &view, d, contract, w), tab);
                            }
                            for t in 0..=10u8 {
                                assert_eq!(
                                    tab[usize::from(t)],
                                    core(&profile, &f(t), streak, seat)
                                );
                                checked += 1;
                            }
                            let exact: Vec<Whists> = counts
                                .iter()
                                .map(|&t| core(&profile, &f(t), streak, seat))
                                .collect();
                            let sum: Whists = exact.iter().sum();
                            assert_eq!(expect(&tab, &counts), sum / exact.len() as i64);
                        }
                    }
                    let mis = misere_table(&prices, &view, seat, d);
                    let rasp = raspasy_table(&prices, &view, seat);
                    for t in 0..=10u8 {
                        let mut tricks = [0u8; 4];
                        tricks[d.index()] = t;
                        let rest = 10 - t;
                        tricks[defs[0].index()] = rest - rest / 2;
                        tricks[defs[1].index()] = rest / 2;
                        let o = Outcome {
                            dark: false,
                            no_talon: false,
                            players: n,
                            dealer: view.dealer,
                            kind: OutcomeKind::Misere { declarer: d },
                            tricks: Some(tricks),
                        };
                        assert_eq!(mis[usize::from(t)], core(&profile, &o, streak, seat));
                        if n == 4 && seat == view.dealer {
                            // The four-player dealer plays no raspasy (R11.3).
                            continue;
                        }
                        let mut tricks = [0u8; 4];
                        tricks[seat.index()] = t;
                        let so = others(&view, seat);
                        tricks[so[0].index()] = rest - rest / 2;
                        tricks[so[1].index()] = rest / 2;
                        let o = Outcome {
                            kind: OutcomeKind::Raspasy,
                            tricks: Some(tricks),
                            ..o
                        };
                        assert_eq!(rasp[usize::from(t)], core(&profile, &o, streak, seat));
                    }
                }
            }
        }
        assert_eq!(checked, 8_580);
    }

    /// The same outcome is priced differently where the profiles differ (R8.3, R8.4, R9,
    /// R10): a Sochi table and a Leningrad or Rostov table never agree on a failed 7♥.
    #[test]
    fn presets_price_the_same_outcome_differently() {
        let deck: Vec<Card> = (0..32).map(Card::from_index).collect();
        let deck = deck.try_into().expect("32 cards");
        let value = |name: &str| {
            let profile = Profile::preset(name).expect("a preset");
            let deal = Deal::new(&profile, Seat(2), &deck, 0).expect("a deal");
            let view = deal.view(Viewer::Seat(Seat(0)));
            let prices = Prices {
                profile,
                raspasy_before: 0,
            };
            let contract = Contract::new(7, Strain::Hearts).expect("7♥");
            let w = defenders_whist(&view, Seat(0));
            table(&prices, Seat(0), |t| {
                game_outcome(&view, Seat(0), contract, w, t, true)
            })[5]
        };
        let (sochi, leningrad, rostov) = (value("sochi"), value("leningrad"), value("rostov"));
        assert_ne!(sochi, leningrad);
        assert_ne!(sochi, rostov);
        assert_ne!(leningrad, rostov);
    }
}
