//! What a viewer may see of a tournament: its page with the standings and each deal's
//! comparison. While it is open, nobody sees a result on a deal he has not finished: the
//! standings count, for each entrant, only the deals the viewer has finished (a viewer who
//! has not entered sees names and counts only), and a deal's comparison answers only an
//! entrant who has finished it. Once closed, everything is shown, with every seed.

use pref_analysis::best_contracts;
use pref_bot::Solver;
use pref_core::duplicate::Exact;
use pref_core::{Deal, Profile, Seat};
use pref_protocol::{ComparisonRow, DealComparisonView, ParView, StandingRow, TournamentPage};

use super::deals::{ENTRANT, FixedDeal};
use super::room::{Room, exact};
use crate::api::error::ApiError;

impl Room {
    /// The page, for the entrant `viewer` (or a stranger).
    pub(crate) fn page(&self, viewer: Option<usize>, now: i64) -> TournamentPage {
        let closed = self.closed(now);
        let n = self.deals.len();
        let s = self.shared.lock().expect("tournament state");
        let seen: Vec<bool> = (0..n)
            .map(|d| closed || viewer.is_some_and(|v| s.played[v][d].is_some()))
            .collect();
        let mut rows: Vec<(Option<Exact>, StandingRow)> = s
            .entrants
            .iter()
            .enumerate()
            .map(|(e, x)| {
                let pcts: Vec<Exact> = (0..n)
                    .filter(|&d| seen[d])
                    .filter_map(|d| s.standings.percentage(e, d))
                    .collect();
                let counted = pcts.len() as i64;
                let standing = (counted > 0).then(|| pcts.iter().sum::<Exact>() / counted);
                let row = StandingRow {
                    rank: 0,
                    entrant: e as u32,
                    name: x.name.clone(),
                    account: x.account.is_some(),
                    finished: s.standings.finished(e) as u32,
                    counted: counted as u32,
                    standing: standing.map(exact),
                };
                (standing, row)
            })
            .collect();
        rows.sort_by(|(a, x), (b, y)| {
            b.cmp(a)
                .then_with(|| y.finished.cmp(&x.finished))
                .then_with(|| x.entrant.cmp(&y.entrant))
        });
        let mut prev: Option<Option<Exact>> = None;
        let mut rank = 0;
        for (i, (st, row)) in rows.iter_mut().enumerate() {
            if prev != Some(*st) || st.is_none() {
                rank = i as u32 + 1;
            }
            prev = Some(*st);
            row.rank = rank;
        }
        drop(s);
        TournamentPage {
            tournament: self.brief(now),
            commitments: (0u32..)
                .zip(&self.deals)
                .map(|(k, d)| d.commitment(k, closed))
                .collect(),
            you: viewer.map(|v| v as u32),
            standings: rows.into_iter().map(|(_, r)| r).collect(),
        }
    }

    /// Deal `k`'s comparison, for the entrant `viewer` (or a stranger).
    ///
    /// # Errors
    /// `400 bad_request` for no such deal; `403 forbidden` while open, to anyone who has
    /// not finished the deal.
    pub(crate) async fn comparison(
        &self,
        k: usize,
        viewer: Option<usize>,
        now: i64,
    ) -> Result<DealComparisonView, ApiError> {
        if k >= self.deals.len() {
            return Err(ApiError::BadRequest(format!("no deal {k}")));
        }
        let mut rows: Vec<(Exact, ComparisonRow)> = {
            let s = self.shared.lock().expect("tournament state");
            let finished = viewer.is_some_and(|v| s.played[v][k].is_some());
            if !finished && now < s.ends {
                return Err(ApiError::Forbidden(
                    "a deal's comparison is shown once you have finished the deal",
                ));
            }
            let deal = s.standings.deal(k).expect("a deal of the tournament");
            s.played
                .iter()
                .enumerate()
                .filter_map(|(e, p)| {
                    let p = p[k].as_ref()?;
                    let place = s.standings.place(e, k)?;
                    let result = deal.result(place)?;
                    Some((
                        result,
                        ComparisonRow {
                            entrant: e as u32,
                            name: s.entrants[e].name.clone(),
                            outcome: p.outcome.clone(),
                            result: p.result.clone(),
                            matchpoints: deal.matchpoints(place)?,
                            percentage: exact(deal.percentage(place)?),
                        },
                    ))
                })
                .collect()
        };
        rows.sort_by(|(a, x), (b, y)| b.cmp(a).then_with(|| x.entrant.cmp(&y.entrant)));
        Ok(DealComparisonView {
            deal: k as u32,
            par: self.par(k).await,
            entrants: rows.into_iter().map(|(_, r)| r).collect(),
        })
    }

    /// Deal `k`'s par for the entrants' seat: as kept in the rows, or computed (on the
    /// blocking pool, by that worker's own solver, [`solve_par`]) and kept, once per node.
    async fn par(&self, k: usize) -> Option<ParView> {
        let cell = self.par.get(k)?;
        cell.get_or_init(|| async {
            match super::store::par(&self.store, self.no, k as i64).await {
                Ok(Some(text)) => {
                    if let Ok(par) = serde_json::from_str::<Option<ParView>>(&text) {
                        return par;
                    }
                }
                Ok(None) => {}
                Err(e) => tracing::warn!(error = %e, "a kept par not read"),
            }
            let (profile, fixed) = (self.profile.clone(), self.deals[k].clone());
            let par = tokio::task::spawn_blocking(move || {
                SOLVER.with_borrow_mut(|solver| solve_par(solver, &profile, &fixed))
            })
            .await
            .ok()
            .flatten();
            let text = serde_json::to_string(&par).unwrap_or_default();
            if let Err(e) = super::store::keep_par(&self.store, self.no, k as i64, &text).await {
                tracing::warn!(error = %e, "a par not kept");
            }
            par
        })
        .await
        .clone()
    }
}

std::thread_local! {
    /// Each blocking worker's solver (a 4 MiB table), made once and kept for every par the
    /// worker computes, rather than one per deal (`docs/performance.md`, "Par").
    static SOLVER: std::cell::RefCell<Solver> = std::cell::RefCell::new(Solver::new());
}

/// Deal `fixed`'s par for the entrants' seat by `solver`; `None` where the preset has none
/// (a must-overtake preset, which the solver does not model).
pub(crate) fn solve_par(
    solver: &mut Solver,
    profile: &Profile,
    fixed: &FixedDeal,
) -> Option<ParView> {
    if profile.must_overtake() {
        return None;
    }
    let deal = Deal::new(profile, fixed.dealer, &fixed.deck, 0).ok()?;
    let players = profile.players();
    let active: Vec<Seat> = (0..players)
        .map(Seat)
        .filter(|&s| players == 3 || s != fixed.dealer)
        .collect();
    let no_talon = profile.misere_without_talon();
    let best = best_contracts(solver, &deal, &active, no_talon);
    let mine = best.into_iter().find(|b| b.seat == ENTRANT)?;
    Some(ParView {
        seat: ENTRANT,
        tricks: mine.strains.map(|(t, _)| t),
        misere: mine.misere.is_some(),
        best: mine.best.and_then(|(bid, _)| {
            serde_json::to_value(bid)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
        }),
    })
}

#[cfg(test)]
mod tests {
    use pref_bot::Solver;
    use pref_core::Profile;
    use pref_core::fair::Seed;

    use super::super::deals::FixedDeal;
    use super::solve_par;

    /// Deal `k` of a tournament with fixed seeds.
    fn deal(k: u32, profile: &Profile) -> FixedDeal {
        let seed = Seed::from_bytes(std::array::from_fn(|i| {
            (i as u8) ^ (k as u8).wrapping_mul(37)
        }));
        FixedDeal::new("0123456789abcdef0123456789abcdef", k, seed, profile)
    }

    /// A solver kept from deal to deal gives each deal the par a fresh one gives.
    #[test]
    fn a_kept_solver_gives_the_fresh_solvers_par() {
        let profile = Profile::preset("sochi").unwrap();
        let mut kept = Solver::new();
        for k in 0..3 {
            let d = deal(k, &profile);
            let fresh = solve_par(&mut Solver::new(), &profile, &d);
            assert!(fresh.is_some());
            assert_eq!(solve_par(&mut kept, &profile, &d), fresh, "deal {k}");
        }
    }

    /// This thread's time on a core so far (`/proc/thread-self/schedstat`, ns): the
    /// measurement below is meant for a machine shared with other work.
    fn on_cpu() -> std::time::Duration {
        let text = std::fs::read_to_string("/proc/thread-self/schedstat").unwrap_or_default();
        let ns = text.split_whitespace().next().and_then(|n| n.parse().ok());
        std::time::Duration::from_nanos(ns.unwrap_or(0))
    }

    /// The time of 50 deals' pars, a new solver per deal and one kept
    /// (`docs/performance.md`, "Par"): run with
    /// `cargo test -p pref-server --lib par_of_50 -- --ignored --nocapture` (the solver's
    /// crate is optimised in debug builds too).
    #[test]
    #[ignore = "a measurement"]
    fn par_of_50_deals_new_and_kept_solver() {
        let profile = Profile::preset("sochi").unwrap();
        let deals: Vec<FixedDeal> = (0..50).map(|k| deal(k, &profile)).collect();
        let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
        for round in 0..3 {
            let (t, c) = (std::time::Instant::now(), on_cpu());
            let fresh: Vec<_> = deals
                .iter()
                .map(|d| solve_par(&mut Solver::new(), &profile, d))
                .collect();
            let new_each = (t.elapsed(), on_cpu() - c);
            let (t, c) = (std::time::Instant::now(), on_cpu());
            let mut solver = Solver::new();
            let kept: Vec<_> = deals
                .iter()
                .map(|d| solve_par(&mut solver, &profile, d))
                .collect();
            let one_kept = (t.elapsed(), on_cpu() - c);
            assert_eq!(kept, fresh);
            println!(
                "round {round}: 50 pars, a new solver each {:.1} ms on a core ({:.1} ms wall), \
                 one kept {:.1} ms on a core ({:.1} ms wall)",
                ms(new_each.1),
                ms(new_each.0),
                ms(one_kept.1),
                ms(one_kept.0)
            );
        }
    }
}
