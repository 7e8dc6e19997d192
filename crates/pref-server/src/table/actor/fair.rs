//! The table's side of provably fair deals (`machine/fair.rs`, `docs/fairness.md`): it
//! draws each deal's seed from the OS, keeps the contribution window's deadline (the
//! machine has no clock), writes the fairness rows, and brings them back on a restore.

use pref_core::fair::{Contribution, Digest, Scheme, Seed};
use rand::RngCore as _;
use rand::rngs::OsRng;
use tokio::time::Instant;

use super::Table;
use crate::store::{FairRow, StoreError};
use crate::table::command::FairRequest;
use crate::table::machine::{FairOp, FairWrite, Op, Opening, StoredFair, TableError};

/// The deadline of the window's current step: its deal, its step, and when.
pub(super) type Deadline = Option<(u32, bool, Instant)>;

/// A fresh 256-bit seed from the OS's CSPRNG.
fn fresh_seed() -> Seed {
    let mut bytes = [0u8; 32];
    OsRng.fill_bytes(&mut bytes);
    Seed::from_bytes(bytes)
}

/// Reads stored fairness rows back into the machine's form.
///
/// # Errors
/// A message naming the deal whose row does not parse.
pub(super) fn stored(rows: Vec<FairRow>) -> Result<Vec<StoredFair>, String> {
    let bad = |deal: u32, e: &dyn std::fmt::Display| format!("fairness of deal {deal}: {e}");
    let mut out = Vec::with_capacity(rows.len());
    for r in rows {
        let seed: Seed = r.seed.parse().map_err(|e| bad(r.deal_no, &e))?;
        let mut contributions = Vec::with_capacity(r.contributions.len());
        for c in r.contributions {
            let commitment: Digest = c.commitment.parse().map_err(|e| bad(r.deal_no, &e))?;
            let value = match c.value {
                Some(v) => Some(v.parse::<Contribution>().map_err(|e| bad(r.deal_no, &e))?),
                None => None,
            };
            contributions.push((c.seat, commitment, value, c.late));
        }
        let placed = match r.scheme {
            1 => false,
            2 => true,
            other => return Err(bad(r.deal_no, &format!("unknown scheme {other}"))),
        };
        out.push(StoredFair {
            deal_no: r.deal_no,
            seed,
            placed,
            commits_closed: r.commits_closed,
            contributions,
        });
    }
    Ok(out)
}

impl Table {
    /// Opens the next deal on a fresh seed: the seed is stored, then its commitment told;
    /// with nobody to wait for, the deal is dealt in the same step.
    pub(super) async fn open_deal(&mut self, opening: Opening) -> Result<u64, TableError> {
        let op = FairOp::Open {
            opening,
            seed: fresh_seed(),
            window_ms: self.limits.fair_window_ms.0,
        };
        self.apply(Op::Fair(op)).await?;
        Ok(self.machine.version())
    }

    /// Starts a rematch's lobby once every seat is taken again ([`Machine::rematch_ready`]),
    /// as the host would by pressing Start.
    ///
    /// [`Machine::rematch_ready`]: crate::table::machine::Machine::rematch_ready
    pub(super) async fn start_rematch(&mut self) {
        if self.machine.rematch_ready()
            && let Err(e) = self.open_deal(Opening::Rematch).await
        {
            tracing::warn!(table = self.no, error = %e, "the rematch did not start by itself");
        }
    }

    /// A seat's join, commitment or value.
    pub(super) async fn fair_request(
        &mut self,
        seat: pref_core::Seat,
        token: crate::ids::Secret,
        request: FairRequest,
    ) -> Result<u64, TableError> {
        let op = match request {
            FairRequest::Join => FairOp::Join { seat, token },
            FairRequest::Commit {
                deal_no,
                commitment,
            } => FairOp::Commit {
                seat,
                token,
                deal_no,
                commitment,
            },
            FairRequest::Reveal { deal_no, value } => FairOp::Reveal {
                seat,
                token,
                deal_no,
                value,
            },
        };
        self.apply(Op::Fair(op)).await?;
        match request {
            FairRequest::Reveal { deal_no, .. } if self.machine.fair_late(deal_no, seat) => {
                Err(TableError::FairLate)
            }
            FairRequest::Reveal { .. } | FairRequest::Join | FairRequest::Commit { .. } => {
                Ok(self.machine.version())
            }
        }
    }

    /// Names the table its deals are dealt at (`pref-fair/2`): the tag of its id `id`.
    pub(crate) fn name_fair_table(&mut self, id: &crate::ids::Secret) {
        self.machine
            .set_fair_table(pref_core::fair::TableTag::of(&id.expose()));
    }

    /// Keeps the deadline in step with the window: a new step starts a new wait.
    pub(super) fn arm_fair(&mut self) {
        let step = self.machine.fair_step();
        self.fair_deadline = match (step, self.fair_deadline) {
            (None, _) => None,
            (Some((deal, revealing)), Some((d, r, at))) if d == deal && r == revealing => {
                Some((d, r, at))
            }
            (Some((deal, revealing)), Some(_) | None) => {
                let wait = self.limits.fair_window_ms.duration();
                Some((deal, revealing, Instant::now() + wait))
            }
        };
    }

    /// The window's step ran out of time: it moves on without the seats still missing.
    pub(super) async fn fair_expired(&mut self) {
        let Some((deal_no, _, _)) = self.fair_deadline.take() else {
            return;
        };
        if let Err(e) = self.apply(Op::Fair(FairOp::Deadline { deal_no })).await {
            tracing::warn!(table = self.no, deal_no, error = %e, "fair window not moved on");
        }
    }

    /// Makes a fairness row durable.
    pub(super) async fn write_fair(&self, w: &FairWrite) -> Result<(), StoreError> {
        let no = self.no;
        match w {
            FairWrite::Seed {
                deal_no,
                seed,
                scheme,
            } => {
                let version = match scheme {
                    Scheme::V1 => 1,
                    Scheme::V2(_) => 2,
                };
                self.store
                    .put_fair_seed(no, *deal_no, &seed.to_string(), version)
                    .await
            }
            FairWrite::Commit {
                deal_no,
                seat,
                commitment,
            } => {
                self.store
                    .put_fair_commitment(no, *deal_no, *seat, &commitment.to_string())
                    .await
            }
            FairWrite::CommitsClosed { deal_no } => {
                self.store.close_fair_commits(no, *deal_no).await
            }
            FairWrite::Value {
                deal_no,
                seat,
                value,
                late,
            } => {
                self.store
                    .put_fair_value(no, *deal_no, *seat, &value.to_string(), *late)
                    .await
            }
        }
    }
}
