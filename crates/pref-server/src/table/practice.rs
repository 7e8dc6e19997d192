//! Hints at practice tables: the table checks a seat's request and hands over a
//! [`HintJob`] (the seat's view, legal actions and projected events, never the deal), and
//! [`HintJob::explain`] runs the strong bot's [`pref_bot::Bot::explain`] on it. The socket
//! that asked runs that in the analyses' lane on the blocking pool (`edge/socket/hint.rs`),
//! so a hint never holds up the table's task, nor a bot's thinking permit.

use pref_bot::{Bot, Budget, Level, Reason};
use pref_core::Profile;
use pref_protocol::{HintCard, HintReason, HintView};

use crate::table::machine::HintTurn;

/// Everything a hint is worked out from.
#[derive(Clone, Debug)]
pub struct HintJob {
    /// The seat's turn as the machine gave it.
    pub turn: HintTurn,
    /// The table's profile (every outcome is priced by it).
    pub profile: Profile,
    /// The table's version the hint was asked at.
    pub version: u64,
    /// Hints a seat may ask for per deal.
    pub per_deal: u32,
    /// The bot's budget: `limits.hint_nodes` solver nodes and no clock, so that a hint is
    /// the same for one seed however loaded the machine is.
    pub budget: Budget,
}

/// The protocol's word for the bot's reason.
fn reason(r: Reason) -> HintReason {
    match r {
        Reason::Ruff => HintReason::Ruff,
        Reason::Discard => HintReason::Discard,
        Reason::Overtake => HintReason::Overtake,
        Reason::WinCheaply => HintReason::WinCheaply,
        Reason::Win => HintReason::Win,
        Reason::Duck => HintReason::Duck,
        Reason::Unblock => HintReason::Unblock,
        Reason::Follow => HintReason::Follow,
        Reason::LeadToVoid => HintReason::LeadToVoid,
        Reason::Cash => HintReason::Cash,
        Reason::KeepTenace => HintReason::KeepTenace,
        Reason::Lead => HintReason::Lead,
    }
}

impl HintJob {
    /// The strong bot's hint from the seat's view, sampling the hidden cards with `seed`
    /// within the job's budget; `None` when the budget solved no layout. Solver work: run
    /// it on the blocking pool.
    #[must_use]
    pub(crate) fn explain(&self, seed: u64) -> Option<HintView> {
        let t = &self.turn;
        let mut bot = Bot::new(t.seat, Level::Strong, &self.profile, seed);
        for (i, e) in t.events.iter().enumerate() {
            bot.observe(e);
            if i == 0 {
                bot.set_raspasy_before(t.raspasy_before);
            }
        }
        let hint = bot.explain(&t.view, &t.legal, self.budget)?;
        Some(HintView {
            deal_no: t.deal_no,
            version: self.version,
            cards: hint
                .alternatives
                .iter()
                .map(|a| HintCard {
                    card: a.card,
                    value: a.value.to_string(),
                    tricks: a.tricks.to_string(),
                    reason: reason(a.reason),
                })
                .collect(),
            samples: u32::try_from(hint.samples).unwrap_or(u32::MAX),
            used: t.used + 1,
            per_deal: self.per_deal,
        })
    }
}

#[cfg(test)]
mod tests;
