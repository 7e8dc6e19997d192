//! What a viewer is given: a snapshot of the table as that viewer may see it, the session a
//! socket starts with (the missed items or a snapshot), and the checks of a connecting socket.

use pref_core::{Seat, Viewer};
use pref_protocol::{ScoreEntry, ScorePage, Snapshot, TurnView};
use tokio::sync::watch;

use super::Table;
use crate::ids::Secret;
use crate::table::command::{Session, Start};
use crate::table::machine::TableError;

impl Table {
    pub(super) fn snapshot(&self, viewer: Viewer) -> Snapshot {
        let (deal_no, deal) = self.machine.shown_view(viewer).unzip();
        Snapshot {
            version: self.machine.version(),
            epoch: self.epoch.clone(),
            you: viewer,
            table: self.summary(),
            deal_no,
            deal,
            // The snapshot's `deal` holds the public state the turn of an event carries.
            turn: TurnView {
                deal: None,
                clock: self.clock_view().map(Box::new),
                ..self.machine.turn().view(viewer)
            },
            // The last deals only, whatever the game's length: the rest come by `score_page`.
            score_log: self.machine.game().map_or_else(Vec::new, |g| {
                ScoreEntry::last(g, self.limits.score_snapshot_deals as usize)
            }),
            score_total: self.score_total(),
            auction: self.machine.auction_log(),
            fair: self
                .machine
                .fair_view(self.limits.fair_snapshot_deals as usize),
            chat: self.chat_for(viewer),
            so_far: self.machine.so_far(viewer),
        }
    }

    /// The kept chat lines `viewer` may read: none for a spectator where spectators get no
    /// chat (as `News::visible` drops the lines themselves).
    fn chat_for(&self, viewer: Viewer) -> Vec<pref_protocol::ChatLine> {
        match viewer {
            Viewer::Spectator if !self.machine.spectator_chat() => Vec::new(),
            Viewer::Spectator | Viewer::Seat(_) => self.chat.iter().cloned().collect(),
        }
    }

    /// A chat line from `viewer`: told to everybody, then kept.
    pub(super) async fn chat(
        &mut self,
        viewer: Viewer,
        token: Option<Secret>,
        text: String,
    ) -> Result<(), TableError> {
        let op = crate::table::machine::Op::Chat {
            viewer,
            token,
            text: text.clone(),
        };
        self.apply(op).await?;
        self.keep_chat(viewer, text).await;
        Ok(())
    }

    /// Keeps an accepted chat line, in memory and in the store (so a restart keeps it),
    /// dropping the oldest beyond `limits.chat_history_lines`.
    async fn keep_chat(&mut self, viewer: Viewer, text: String) {
        let seat = match viewer {
            Viewer::Seat(s) => Some(s.0),
            Viewer::Spectator => None,
        };
        let row = crate::store::ChatRow {
            no: self.chat_no,
            seat,
            text,
        };
        self.chat_no += 1;
        if let Err(e) = self
            .store
            .put_chat(self.no, &row, self.limits.chat_history_lines)
            .await
        {
            // The line was told already: only a restart before the next line loses it.
            tracing::warn!(table = self.no, error = %e, "a chat line is not stored");
        }
        self.push_chat(row);
    }

    /// Takes the stored chat lines back after a restart.
    pub(super) fn restore_chat(&mut self, rows: Vec<crate::store::ChatRow>) {
        self.chat_no = rows.last().map_or(0, |r| r.no + 1);
        for row in rows {
            self.push_chat(row);
        }
    }

    fn push_chat(&mut self, row: crate::store::ChatRow) {
        let from = match row.seat {
            Some(s) => pref_protocol::Speaker::Seat(Seat(s)),
            None => pref_protocol::Speaker::Spectator,
        };
        self.chat.push_back(pref_protocol::ChatLine {
            from,
            text: row.text,
        });
        while self.chat.len() > self.limits.chat_history_lines {
            self.chat.pop_front();
        }
    }

    /// Finished deals in the score log.
    fn score_total(&self) -> u32 {
        self.machine
            .game()
            .map_or(0, |g| u32::try_from(g.scores().len()).unwrap_or(u32::MAX))
    }

    /// The score log's finished deals just before `before`, at most
    /// `limits.score_page_deals` of them (the last ones), first to last.
    pub(super) fn score_page(&self, before: u32) -> ScorePage {
        let total = self.score_total();
        let before = before.min(total);
        let from = before.saturating_sub(self.limits.score_page_deals.max(1));
        ScorePage {
            before,
            entries: self.machine.game().map_or_else(Vec::new, |g| {
                ScoreEntry::range(g, from as usize, before as usize)
            }),
            total,
        }
    }

    pub(super) fn session(&self, viewer: Viewer, resume: Option<(u64, String)>) -> Session {
        let version = self.machine.version();
        let missed = resume.and_then(|(since, epoch)| {
            if epoch != self.epoch || since > version {
                return None;
            }
            let oldest = self.history.front().map_or(version + 1, |s| s.version);
            (since + 1 >= oldest).then(|| {
                self.history
                    .iter()
                    .filter(|s| s.version > since)
                    .cloned()
                    .collect::<Vec<_>>()
            })
        });
        Session {
            viewer,
            start: match missed {
                Some(m) => Start::Missed(m),
                None => Start::Snapshot(Box::new(self.snapshot(viewer))),
            },
            rx: self.tx.subscribe(),
            players: self.machine.players(),
            from_deal: match viewer {
                Viewer::Seat(seat) => self.machine.occupant(seat.0).map_or(0, |o| o.from_deal),
                Viewer::Spectator => 0,
            },
            spectator_chat: self.machine.spectator_chat(),
            token: None,
            tenure: None,
        }
    }

    pub(super) fn connect(
        &mut self,
        token: Option<Secret>,
        resume: Option<(u64, String)>,
    ) -> Result<Session, TableError> {
        let viewer = match token {
            None => Viewer::Spectator,
            Some(t) => Viewer::Seat(Seat(self.machine.seat_of(&t).ok_or(TableError::NotSeated)?)),
        };
        // A seat's occupant resumes only from his own tenure: anything older is a snapshot.
        let resume = resume.filter(|(since, _)| match viewer {
            Viewer::Seat(seat) => self
                .machine
                .occupant(seat.0)
                .is_some_and(|o| *since >= o.since),
            Viewer::Spectator => true,
        });
        let mut session = self.session(viewer, resume);
        session.token = token;
        if let Viewer::Seat(seat) = viewer {
            let tenure = self.tenures[seat.index()].get_or_insert_with(|| watch::Sender::new(None));
            session.tenure = Some(tenure.subscribe());
        }
        Ok(session)
    }
}
