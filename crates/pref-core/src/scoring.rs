//! R8: what one finished deal writes on the sheet — mountain entries, whists and the pool
//! points earned — before the pool is closed (R9, `sheet.rs`).
//!
//! The entries of one deal are computed apart from the sheet they go on, because R8.10 puts
//! them in a fixed order (mountain, whists, then pool points seat by seat) whatever order the
//! rules below find them in, and because the same reading of the whist decisions serves the
//! consistency check of an outcome written by hand (`game.rs`).

use crate::action::WhistCall;
use crate::bid::{Contract, Seat};
use crate::deal::next_active;
use crate::line::{Column, Consoler, Line, Why};
use crate::outcome::{Outcome, OutcomeKind};
use crate::profile::{DealerWhistConsolation, Profile, RaspasyTalon, Responsibility, WhistSplit};

/// Who defends a trick contract, read from the whist decisions (R5, R11.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Defenders {
    /// A ten played without whist (`ten_whisted` off, R5.6).
    Unwhisted,
    /// Two passes: the contract is conceded (R8.5).
    Refused,
    /// The first defender passed, the second half-whisted, and it stood (R8.6).
    HalfStands {
        /// The half-whister.
        half: Seat,
    },
    /// Both defenders whisted (closed play).
    Both {
        /// The first defender.
        first: Seat,
        /// The second defender, who answers for the shortfall against 8, 9 and 10 (R8.4).
        second: Seat,
    },
    /// One whister; with `returned`, the whister returned a half-whist (R5.2, R8.7).
    Lone {
        /// The whister.
        whister: Seat,
        /// The other defender: the passer, or the half-whister of a returned whist.
        partner: Seat,
        /// Whether the whist was returned.
        returned: bool,
    },
    /// The four-player dealer took over a refused defence (R11.4).
    Dealer {
        /// The dealer.
        dealer: Seat,
    },
}

impl Defenders {
    /// Reads the whist decisions of a trick contract.
    ///
    /// # Errors
    /// A message saying which entry does not fit (for the consistency check of outcomes).
    pub(crate) fn read(
        players: u8,
        dealer: Seat,
        declarer: Seat,
        whist: &[Option<WhistCall>; 4],
    ) -> Result<Defenders, String> {
        use WhistCall::{Half, Pass, Whist};
        let first = next_active(players, dealer, declarer);
        let second = next_active(players, dealer, first);
        let four = players == 4;
        if whist[declarer.index()].is_some() {
            return Err(format!(
                "the declarer ({declarer}) makes no whist decision: his entry must be null (R5.1)"
            ));
        }
        if let Some(s) = (players..4).find(|&s| whist[s as usize].is_some()) {
            return Err(format!("seat {s} is not at the table (R1.2)"));
        }
        let by_dealer = if four { whist[dealer.index()] } else { None };
        Ok(
            match (whist[first.index()], whist[second.index()], by_dealer) {
                (_, _, Some(Pass | Half)) => {
                    return Err(format!(
                        "the dealer ({dealer}) only whists or stays out: his entry is \"whist\" or null (R11.4)"
                    ));
                }
                (Some(Pass), Some(Pass | Half), Some(Whist))
                | (Some(Half), Some(Pass), Some(Whist)) => Defenders::Dealer { dealer },
                (_, _, Some(Whist)) => {
                    return Err(format!(
                        "the dealer ({dealer}) whists only after two passes or a standing half-whist (R11.4)"
                    ));
                }
                (None, None, None) => Defenders::Unwhisted,
                (Some(Whist), Some(Whist), None) => Defenders::Both { first, second },
                (Some(Whist), Some(Pass), None) => Defenders::Lone {
                    whister: first,
                    partner: second,
                    returned: false,
                },
                (Some(Pass), Some(Whist), None) => Defenders::Lone {
                    whister: second,
                    partner: first,
                    returned: false,
                },
                (Some(Whist), Some(Half), None) => Defenders::Lone {
                    whister: first,
                    partner: second,
                    returned: true,
                },
                (Some(Pass), Some(Pass), None) => Defenders::Refused,
                (Some(Pass), Some(Half), None) => Defenders::HalfStands { half: second },
                // R5.3: after *whist, pass* the first defender withdrew to a half-whist.
                (Some(Half), Some(Pass), None) => Defenders::HalfStands { half: first },
                (Some(Half), _, _) => {
                    return Err(format!(
                        "{first} is the first defender and half-whists only by withdrawing after his whist and the second defender's pass (R5.2, R5.3)"
                    ));
                }
                (None, _, _) => {
                    return Err(format!(
                        "{first} (first defender) has no whist decision (R5.1)"
                    ));
                }
                (_, None, _) => {
                    return Err(format!(
                        "{second} (second defender) has no whist decision (R5.1)"
                    ));
                }
            },
        )
    }

    /// Whether the deal is played after these decisions.
    pub(crate) fn plays(self) -> bool {
        !matches!(self, Defenders::Refused | Defenders::HalfStands { .. })
    }
}

/// Everything one deal writes before R9 closes the pool, as lines in the order the rules
/// below find them ([`crate::Sheet::record_explained`] puts them in R8.10's order).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Entries {
    /// Mountain entries (R8.2, R8.4, R8.8, R8.9, R4.5), whists and pool points earned (still
    /// to be closed, R9), all scaled.
    pub(crate) lines: Vec<Line>,
}

impl Entries {
    /// R8 for one finished deal under `profile`; `raspasy_streak` counts the raspasy deals
    /// just before this one. An outcome the consistency check would refuse is scored as far
    /// as it can be read (an unreadable whist is taken as two passes).
    pub(crate) fn of(profile: &Profile, outcome: &Outcome, raspasy_streak: u32) -> Entries {
        let mut e = Entries::default();
        let ms = i64::from(profile.mountain_scale());
        match outcome.kind {
            OutcomeKind::Game {
                declarer,
                contract,
                whist,
                talon_units,
                ..
            } => {
                let defenders = Defenders::read(outcome.players, outcome.dealer, declarer, &whist)
                    .unwrap_or(Defenders::Refused);
                e.talon_bonus(profile, outcome, declarer, contract, talon_units);
                e.game(profile, outcome, declarer, contract, defenders);
            }
            OutcomeKind::Surrender { declarer, bid } => {
                // R4.5: down `surrender` at the winning bid's value; nothing else at all.
                let v = i64::from(bid.value());
                let factor = profile.surrender();
                e.put(
                    declarer,
                    Column::Mountain,
                    i64::from(factor) * v * ms,
                    Why::Surrender { bid, factor },
                );
            }
            OutcomeKind::Misere { declarer } => {
                // R8.8: no whists, no consolation.
                let taken = outcome.tricks.map_or(0, |t| t[declarer.index()]);
                if taken == 0 {
                    e.put(declarer, Column::Pool, 10, Why::MisereMade);
                } else {
                    e.put(
                        declarer,
                        Column::Mountain,
                        10 * i64::from(taken) * ms,
                        Why::MisereFailed { tricks: taken },
                    );
                }
            }
            OutcomeKind::Raspasy => {
                let tricks = outcome.tricks.unwrap_or_default();
                e.raspasy(profile, outcome, tricks, raspasy_streak);
            }
        }
        if outcome.dark && !matches!(outcome.kind, OutcomeKind::Raspasy) {
            // R8.11: every entry of a dark deal is doubled; raspasy is never dark.
            for line in &mut e.lines {
                line.amount *= 2;
                line.dark = true;
            }
        }
        e
    }

    /// Adds one entry; an entry of nothing is not written.
    fn put(&mut self, seat: Seat, column: Column, amount: i64, why: Why) {
        if amount != 0 {
            self.lines.push(Line::new(seat, column, amount, why));
        }
    }

    /// R11.6: the four-player dealer writes `U · v` whists on the declarer, whatever the
    /// result of the trick contract.
    fn talon_bonus(
        &mut self,
        profile: &Profile,
        outcome: &Outcome,
        declarer: Seat,
        contract: Contract,
        units: Option<u8>,
    ) {
        if let Some(u) = units.filter(|_| profile.talon_bonus() && outcome.players == 4) {
            let v = i64::from(contract.value()) * i64::from(profile.whist_scale());
            self.put(
                outcome.dealer,
                Column::Whists { on: declarer },
                i64::from(u) * v,
                Why::TalonBonus { contract, units: u },
            );
        }
    }

    fn game(
        &mut self,
        profile: &Profile,
        outcome: &Outcome,
        declarer: Seat,
        contract: Contract,
        defenders: Defenders,
    ) {
        let v = i64::from(contract.value());
        let ws = i64::from(profile.whist_scale());
        let on = Column::Whists { on: declarer };
        let Some(tricks) = outcome.tricks.filter(|_| defenders.plays()) else {
            // R8.5, R8.6: no play; the declarer earns the contract.
            if let Defenders::HalfStands { half } = defenders {
                self.put(declarer, Column::Pool, v, Why::HalfWhistStands { contract });
                let w = v * i64::from(contract.quota()) / 2 * ws;
                self.put(half, on, w, Why::HalfWhist { contract });
            } else {
                self.put(declarer, Column::Pool, v, Why::Conceded { contract });
            }
            return;
        };
        let taken = tricks[declarer.index()];
        // The defenders' tricks (a four-player dealer takes none in a trick contract).
        let defence = 10 - taken;
        let undertricks = contract.level().saturating_sub(taken);
        let unwhisted = defenders == Defenders::Unwhisted;
        if undertricks > 0 {
            // R8.2: remise and consolation.
            let u = i64::from(undertricks);
            let why = Why::Failed {
                contract,
                undertricks,
                unwhisted,
            };
            let m = v * u * i64::from(profile.mountain_scale());
            self.put(declarer, Column::Mountain, m, why);
            self.consolation(profile, outcome, declarer, contract, undertricks, defenders);
        } else {
            let why = Why::Made {
                contract,
                unwhisted,
            };
            self.put(declarer, Column::Pool, v, why);
        }
        // R8.3: trick whists.
        let trick_whists = |tricks: u8, split: bool, dealer: bool| Why::TrickWhists {
            contract,
            tricks,
            split,
            dealer,
        };
        match defenders {
            Defenders::Both { first, second } => {
                for s in [first, second] {
                    let t = tricks[s.index()];
                    self.put(s, on, v * i64::from(t) * ws, trick_whists(t, false, false));
                }
            }
            Defenders::Lone {
                whister, partner, ..
            } => {
                let all = v * i64::from(defence) * ws;
                if undertricks > 0 && profile.whist_split() == WhistSplit::Gentleman {
                    // `v` is even, so the halves are whole.
                    for s in [whister, partner] {
                        self.put(s, on, all / 2, trick_whists(defence, true, false));
                    }
                } else {
                    self.put(whister, on, all, trick_whists(defence, false, false));
                }
            }
            Defenders::Dealer { dealer } => {
                let all = v * i64::from(defence) * ws;
                self.put(dealer, on, all, trick_whists(defence, false, true));
            }
            Defenders::Unwhisted | Defenders::Refused | Defenders::HalfStands { .. } => {}
        }
        self.shortfall(profile, contract, defenders, &tricks, defence);
    }

    /// R8.2: each other seat writes `v·u` whists on the failed declarer — a four-player
    /// dealer only with `dealer_consolation` (R11.2), nobody on an unwhisted ten without
    /// `checked_ten_consolation`; the returner writes the half-whister's (R8.7), and a dealer
    /// who took the defence over both defenders' with `dealer_whist_consolation = "all"`
    /// (R11.4).
    fn consolation(
        &mut self,
        profile: &Profile,
        outcome: &Outcome,
        declarer: Seat,
        contract: Contract,
        undertricks: u8,
        defenders: Defenders,
    ) {
        if defenders == Defenders::Unwhisted && !profile.checked_ten_consolation() {
            return;
        }
        let amount =
            i64::from(contract.value()) * i64::from(undertricks) * i64::from(profile.whist_scale());
        let four_dealer = (outcome.players == 4).then_some(outcome.dealer);
        for s in (0..outcome.players).map(Seat) {
            if s == declarer || (Some(s) == four_dealer && !profile.dealer_consolation()) {
                continue;
            }
            let (writer, by) = match defenders {
                Defenders::Lone {
                    whister,
                    partner,
                    returned: true,
                } if s == partner => (whister, Consoler::Returner),
                Defenders::Dealer { dealer }
                    if s != dealer
                        && profile.dealer_whist_consolation() == DealerWhistConsolation::All =>
                {
                    (dealer, Consoler::DealerInPlace)
                }
                _ if Some(s) == four_dealer => (s, Consoler::Dealer),
                Defenders::Unwhisted
                | Defenders::Refused
                | Defenders::HalfStands { .. }
                | Defenders::Both { .. }
                | Defenders::Lone { .. }
                | Defenders::Dealer { .. } => (s, Consoler::Defender),
            };
            let why = Why::Consolation {
                contract,
                undertricks,
                owner: s,
                by,
            };
            self.put(writer, Column::Whists { on: declarer }, amount, why);
        }
    }

    /// R8.4: the defence's responsibility for the quota.
    fn shortfall(
        &mut self,
        profile: &Profile,
        contract: Contract,
        defenders: Defenders,
        tricks: &[u8; 4],
        defence: u8,
    ) {
        let q = contract.quota() as u8;
        if defence >= q {
            return;
        }
        let half = profile.whist_responsibility() == Responsibility::Half;
        let divisor = if half { 2 } else { 1 };
        let mut charge = |s: Seat, short: u8| {
            // `v` is even, so a half entry is whole.
            let m = i64::from(contract.value()) * i64::from(short) / divisor
                * i64::from(profile.mountain_scale());
            let why = Why::Shortfall {
                contract,
                short,
                half,
            };
            self.put(s, Column::Mountain, m, why);
        };
        match defenders {
            Defenders::Lone { whister, .. } | Defenders::Dealer { dealer: whister } => {
                charge(whister, q - defence);
            }
            Defenders::Both { first, second } => match contract.level() {
                6 => {
                    for s in [first, second] {
                        let own = 2u8.saturating_sub(tricks[s.index()]);
                        // `whist_shortfall_cap`: at most the joint shortfall.
                        let own = if profile.whist_shortfall_cap() {
                            own.min(q - defence)
                        } else {
                            own
                        };
                        charge(s, own);
                    }
                }
                7 => {
                    for s in [first, second] {
                        if tricks[s.index()] == 0 {
                            charge(s, 1);
                        }
                    }
                }
                _ => charge(second, 1),
            },
            Defenders::Unwhisted | Defenders::Refused | Defenders::HalfStands { .. } => {}
        }
    }

    /// R8.9 (and R11.3 for the four-player dealer's talon tricks; with the talon ignored,
    /// R7.5, that dealer is not scored at all).
    fn raspasy(&mut self, profile: &Profile, outcome: &Outcome, tricks: [u8; 4], streak: u32) {
        let price = profile.raspasy_price_for(streak.saturating_add(1));
        let four_dealer = (outcome.players == 4).then_some(outcome.dealer);
        let ignored = four_dealer.is_some() && profile.raspasy_talon() == RaspasyTalon::Ignored;
        let seats: Vec<Seat> = (0..outcome.players)
            .map(Seat)
            .filter(|&s| !(ignored && Some(s) == four_dealer))
            .collect();
        let amnesty = if profile.raspasy_amnesty() {
            seats.iter().map(|s| tricks[s.index()]).min().unwrap_or(0)
        } else {
            0
        };
        let bonus = i64::from(profile.zero_bonus_at(price));
        for s in seats {
            let taken = tricks[s.index()];
            let charged = taken - amnesty;
            let dealer = Some(s) == four_dealer;
            let m = i64::from(price) * i64::from(charged) * i64::from(profile.mountain_scale());
            let why = Why::RaspasyTricks {
                tricks: taken,
                charged,
                price,
                dealer,
            };
            self.put(s, Column::Mountain, m, why);
            // Amnesty never creates a zero bonus: only a true zero earns it.
            if taken == 0 {
                self.put(s, Column::Pool, bonus, Why::RaspasyZero { price, dealer });
            }
        }
    }
}
