//! What one finished deal is worth to each seat, in whists, by R8 (Sochi) and R10.
//!
//! The score sheet lives elsewhere; bots and the duplicate match need one number per seat
//! per deal, so this module applies R8's entries (pool, mountain, whists) to a deal's
//! [`Outcome`] and settles them at once by R10.1, counting a pool point as one mountain
//! point less (the R10.3 rate: `pool_point_whists / 10` = 1). Pool closing and help (R9)
//! depend on the whole pulka and are left out. Results sum to zero.
//!
//! Covered: made and failed contracts with one or two whisters, greedy trick whists, full
//! responsibility for the quota, two passes, a standing half-whist, a returned whist, the
//! four-player dealer's consolation and whist (R11.2, R11.4), misère and raspasy at price 1
//! without amnesty.

use pref_core::{Contract, Outcome, OutcomeKind, Seat, WhistCall};

/// Sheet entries of one deal before settlement.
#[derive(Clone, Copy, Debug, Default)]
struct Entries {
    /// Mountain minus pool, per seat.
    mountain: [f64; 4],
    /// `whists[a][b]`: whists `a` writes on `b`.
    whists: [[f64; 4]; 4],
}

/// Each seat's result for the deal in whists (index = seat; zero beyond `players`).
#[must_use]
pub fn deal_result(outcome: &Outcome) -> [f64; 4] {
    let n = outcome.players as usize;
    let mut e = Entries::default();
    let active: Vec<usize> = (0..n)
        .filter(|&s| !(n == 4 && s == outcome.dealer.index()))
        .collect();
    match outcome.kind {
        OutcomeKind::Game {
            declarer,
            contract,
            whist,
            ..
        } => game(&mut e, outcome, declarer, contract, &whist, &active),
        // R4.5 at the largest surrender (3 undertricks): the old bots never surrender.
        OutcomeKind::Surrender { declarer, bid } => {
            e.mountain[declarer.index()] += 3.0 * f64::from(bid.value());
        }
        OutcomeKind::Misere { declarer } => {
            let t = outcome.tricks.map_or(0, |t| t[declarer.index()]);
            if t == 0 {
                e.mountain[declarer.index()] -= 10.0;
            } else {
                e.mountain[declarer.index()] += 10.0 * f64::from(t);
            }
        }
        OutcomeKind::Raspasy => {
            if let Some(t) = outcome.tricks {
                for (m, &t) in e.mountain.iter_mut().zip(&t).take(n) {
                    if t > 0 {
                        *m += f64::from(t);
                    } else {
                        *m -= 1.0;
                    }
                }
            }
        }
    }
    settle(&e, n)
}

fn settle(e: &Entries, n: usize) -> [f64; 4] {
    let avg = e.mountain[..n].iter().sum::<f64>() / n as f64;
    let mut out = [0.0; 4];
    for (p, slot) in out.iter_mut().enumerate().take(n) {
        let wrote: f64 = e.whists[p][..n].iter().sum();
        let written: f64 = (0..n).map(|a| e.whists[a][p]).sum();
        *slot = 10.0 * (avg - e.mountain[p]) + wrote - written;
    }
    out
}

fn game(
    e: &mut Entries,
    outcome: &Outcome,
    declarer: Seat,
    contract: Contract,
    whist: &[Option<WhistCall>; 4],
    active: &[usize],
) {
    let d = declarer.index();
    let v = f64::from(contract.value());
    let q = contract.quota() as i32;
    let n = outcome.players as usize;
    let defenders: Vec<usize> = {
        // First defender, then second (R5.1): clockwise from the declarer among active seats.
        let pos = active.iter().position(|&s| s == d).unwrap_or(0);
        (1..active.len())
            .map(|i| active[(pos + i) % active.len()])
            .collect()
    };
    let dealer = (n == 4).then(|| outcome.dealer.index());
    let dealer_whisted = dealer.is_some_and(|s| whist[s] == Some(WhistCall::Whist));
    let Some(tricks) = outcome.tricks else {
        // Conceded (R8.5) or a standing half-whist (R8.6).
        e.mountain[d] -= v;
        for &s in &defenders {
            if whist[s] == Some(WhistCall::Half) {
                e.whists[s][d] += v * f64::from(contract.quota()) / 2.0;
            }
        }
        return;
    };
    let td = i32::from(tricks[d]);
    let under = (i32::from(contract.level()) - td).max(0);
    let whisters: Vec<usize> = if dealer_whisted {
        vec![dealer.unwrap_or(0)]
    } else {
        defenders
            .iter()
            .copied()
            .filter(|&s| whist[s] == Some(WhistCall::Whist))
            .collect()
    };
    let half = defenders
        .iter()
        .copied()
        .find(|&s| whist[s] == Some(WhistCall::Half));
    if under == 0 {
        e.mountain[d] -= v;
    } else {
        let u = f64::from(under);
        e.mountain[d] += v * u;
        let mut writers: Vec<usize> = defenders.clone();
        if let Some(dl) = dealer {
            writers.push(dl);
        }
        for s in writers {
            // R8.7: the returner writes the half-whister's consolation too.
            let w = match (half, whisters.first()) {
                (Some(h), Some(&r)) if s == h && whisters.len() == 1 && !dealer_whisted => {
                    e.whists[r][d] += v * u;
                    continue;
                }
                _ => s,
            };
            e.whists[w][d] += v * u;
        }
    }
    let def_tricks: i32 = defenders.iter().map(|&s| i32::from(tricks[s])).sum();
    match whisters.as_slice() {
        [w] => {
            e.whists[*w][d] += v * f64::from(def_tricks);
            if def_tricks < q {
                e.mountain[*w] += v * f64::from(q - def_tricks);
            }
        }
        [a, b] => {
            for &s in &[*a, *b] {
                e.whists[s][d] += v * f64::from(tricks[s]);
            }
            if def_tricks < q {
                match contract.level() {
                    6 => {
                        for &s in &[*a, *b] {
                            let own = i32::from(tricks[s]);
                            if own < 2 {
                                e.mountain[s] += v * f64::from(2 - own);
                            }
                        }
                    }
                    7 => {
                        for &s in &[*a, *b] {
                            if tricks[s] == 0 {
                                e.mountain[s] += v;
                            }
                        }
                    }
                    _ => e.mountain[*b] += v,
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pref_core::Strain;

    fn outcome(kind: OutcomeKind, tricks: Option<[u8; 4]>) -> Outcome {
        Outcome {
            players: 3,
            dealer: Seat(2),
            kind,
            tricks,
        }
    }

    fn game(level: u8, whist: [Option<WhistCall>; 4]) -> OutcomeKind {
        OutcomeKind::Game {
            declarer: Seat(0),
            contract: Contract::new(level, Strain::Spades).unwrap(),
            whist,
            defence: None,
        }
    }

    const W: Option<WhistCall> = Some(WhistCall::Whist);
    const P: Option<WhistCall> = Some(WhistCall::Pass);

    #[test]
    fn results_sum_to_zero() {
        for o in [
            outcome(game(6, [None, W, W, None]), Some([6, 2, 2, 0])),
            outcome(game(7, [None, W, P, None]), Some([5, 3, 2, 0])),
            outcome(game(8, [None, P, P, None]), None),
            outcome(
                OutcomeKind::Misere { declarer: Seat(1) },
                Some([3, 1, 6, 0]),
            ),
            outcome(OutcomeKind::Raspasy, Some([0, 4, 6, 0])),
        ] {
            let r = deal_result(&o);
            assert!(r.iter().sum::<f64>().abs() < 1e-9, "{o:?}: {r:?}");
        }
    }

    #[test]
    fn r8_1_r8_3_six_made_against_two_whisters() {
        // D makes 6 with 6 tricks; each whister took 2: D earns 2 pool points (−2 mountain),
        // each whister writes 2·2 = 4 whists on D.
        let r = deal_result(&outcome(game(6, [None, W, W, None]), Some([6, 2, 2, 0])));
        let avg = -2.0 / 3.0;
        assert!((r[0] - (10.0 * (avg + 2.0) - 8.0)).abs() < 1e-9);
        assert!((r[1] - (10.0 * avg + 4.0)).abs() < 1e-9);
    }

    #[test]
    fn r8_8_clean_misere_is_ten_pool_points() {
        let r = deal_result(&outcome(
            OutcomeKind::Misere { declarer: Seat(0) },
            Some([0, 5, 5, 0]),
        ));
        assert!((r[0] - 10.0 * (10.0 - 10.0 / 3.0)).abs() < 1e-9);
    }
}
