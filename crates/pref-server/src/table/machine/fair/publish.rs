//! What of the fair deals leaves the machine: each deal's values published once its cards
//! may be seen, the viewers' fairness picture (capped to the last deals), the record's
//! fairness objects, and the fair-deal state restored from the database.

use super::*;

impl Machine {
    /// Whether deal `deal_no`'s cards may be seen by everybody: finished, and shown after
    /// the deal (`reveal_after_deal`) or the game over.
    pub(super) fn fair_visible(&self, deal_no: u32) -> bool {
        deal_no < self.deals_finished()
            && (self.profile.reveal_after_deal() || matches!(self.stage, Stage::Over { .. }))
    }

    /// After every accepted op: publishes the values of each deal whose cards may now be
    /// seen, and drops a window the game's end left open.
    pub(in crate::table::machine) fn fair_publish(
        &mut self,
        change: &mut crate::table::machine::Change,
    ) {
        if matches!(self.stage, Stage::Over { .. }) {
            self.fair.window = None;
        }
        // A freed seat's or a bot's place is not waited for.
        let seats = &self.seats;
        self.fair.joined.retain(|&s| {
            seats[usize::from(s)]
                .as_ref()
                .is_some_and(|o| o.bot.is_none())
        });
        let ready: Vec<u32> = self
            .fair
            .dealt
            .iter()
            .filter(|(n, d)| !d.published && self.fair_visible(**n))
            .map(|(n, _)| *n)
            .collect();
        for deal_no in ready {
            let Some(d) = self.fair.dealt.get_mut(&deal_no) else {
                continue;
            };
            d.published = true;
            let fairness = revealed(deal_no, &d.fairness);
            self.publish(change, News::Public(Public::FairRevealed(fairness)));
        }
    }

    /// The snapshot's fairness picture, the same for every viewer, with at most the last
    /// `keep` deals in each of its lists: a long game would otherwise send every deal's
    /// values in every snapshot. The record holds every deal's values.
    #[must_use]
    pub(crate) fn fair_view(&self, keep: usize) -> Option<FairView> {
        let window = self.fair.window.as_ref().map(|w| FairWindow {
            deal_no: w.deal_no,
            seed_commitment: w.seed.commitment(&w.scheme).to_string(),
            seats: w.seats.clone(),
            commitments: w
                .commitments
                .iter()
                .map(|(&seat, c)| FairCommitment {
                    seat,
                    commitment: c.to_string(),
                })
                .collect(),
            revealing: w.revealing,
        });
        let mut view = FairView {
            window,
            ..FairView::default()
        };
        for (&deal_no, d) in &self.fair.dealt {
            if self.fair_visible(deal_no) {
                view.revealed.push(revealed(deal_no, &d.fairness));
            } else {
                view.dealt.push(FairDealt {
                    deal_no,
                    seed_commitment: d.fairness.seed_commitment().to_string(),
                    deck_commitment: d.fairness.deck_commitment().to_string(),
                });
            }
        }
        last(&mut view.dealt, keep);
        last(&mut view.revealed, keep);
        (view != FairView::default()).then_some(view)
    }

    /// Attaches each finished deal's fairness data to `record`.
    pub(in crate::table::machine) fn with_fairness(
        &self,
        mut record: Record,
    ) -> Result<Record, String> {
        for (&deal_no, d) in &self.fair.dealt {
            if deal_no < self.deals_finished() {
                record
                    .set_fairness(deal_no as usize, d.fairness.clone())
                    .map_err(|e| e.to_string())?;
            }
        }
        Ok(record)
    }

    /// Brings back the stored fairness of a restored table: each dealt deal's data (checked
    /// against the stored `decks`), and the window of a deal opened and not yet dealt, with
    /// the same seed, commitments and values.
    ///
    /// # Errors
    /// A message if stored values do not parse together or do not give the stored deck.
    pub(crate) fn restore_fair(
        &mut self,
        stored: Vec<StoredFair>,
        decks: &[[Card; 32]],
    ) -> Result<(), String> {
        for s in stored {
            let commitments: BTreeMap<u8, Digest> = s
                .contributions
                .iter()
                .map(|&(seat, c, _, _)| (seat, c))
                .collect();
            let scheme = self
                .scheme(s.deal_no, s.placed)
                .map_err(|e| e.to_string())?;
            if let Some(deck) = decks.get(s.deal_no as usize) {
                let mut shuffle = Shuffle::new(scheme, s.seed);
                for &(seat, _, value, late) in &s.contributions {
                    if let Some(v) = value {
                        let arrival = if late { Arrival::Late } else { Arrival::InTime };
                        shuffle
                            .contribute(Seat(seat), v, arrival)
                            .map_err(|e| e.to_string())?;
                    }
                }
                let fairness = shuffle.finish();
                if fairness.deck() != deck {
                    return Err(format!(
                        "deal {}: the stored deck is not its shuffle",
                        s.deal_no
                    ));
                }
                let published = self.fair_visible(s.deal_no);
                let dealt = Dealt {
                    fairness,
                    commitments,
                    published,
                };
                self.fair.dealt.insert(s.deal_no, dealt);
            } else if s.deal_no as usize == decks.len()
                && matches!(self.stage, Stage::Lobby | Stage::BetweenDeals { .. })
            {
                let values = s
                    .contributions
                    .iter()
                    .filter_map(|&(seat, _, v, late)| v.filter(|_| !late).map(|v| (seat, v)))
                    .collect();
                self.fair.window = Some(Window {
                    deal_no: s.deal_no,
                    scheme,
                    seed: s.seed,
                    seats: (0..self.players())
                        .filter(|&p| self.occupant(p).is_some_and(|o| o.bot.is_none()))
                        .collect(),
                    commitments,
                    values,
                    revealing: s.commits_closed,
                });
            }
        }
        Ok(())
    }
}

/// Keeps the last `keep` items of `list`.
fn last<T>(list: &mut Vec<T>, keep: usize) {
    list.drain(..list.len().saturating_sub(keep));
}

/// A deal's published values, as the record writes them.
fn revealed(deal_no: u32, fairness: &Fairness) -> FairRevealed {
    let text = fairness.to_json_string();
    FairRevealed {
        deal_no,
        // The core writes this object; it always reads back.
        fairness: serde_json::from_str(&text).unwrap_or_default(),
    }
}
