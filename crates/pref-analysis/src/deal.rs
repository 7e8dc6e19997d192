//! A recorded deal analysed: the start of its play rebuilt through the rules core, then its
//! line of cards handed to `line.rs` and the results put back on seats.

use pref_bot::{Goal, Position, Solver};
use pref_core::{
    AcceptedClaim, Action, Call, Card, CardSet, Deal, DealEntry, Game, Outcome, Profile,
    RaspasyTalon, Record, Seat, Stage,
};

use crate::auction::{SeatBest, best_contracts};
use crate::claim::{self, ClaimAnalysis};
use crate::line::{analyse_line, counted_by, value};

/// One card of a deal and what it cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CardAnalysis {
    /// The trick it was played to (0-based).
    pub trick: u8,
    /// The seat whose card it is.
    pub seat: Seat,
    /// The seat that chose it: the lone whister of an open defence plays both defender hands.
    pub by: Seat,
    /// The card.
    pub card: Card,
    /// Whose tricks the values count: the declarer (contract, misère); in raspasy the seat
    /// that played the card (his own tricks, the others playing against him).
    pub counted: Seat,
    /// The counted seat's tricks for the whole deal with best play from here, best card
    /// included (tricks already taken count).
    pub before: u8,
    /// The same after the card played.
    pub after: u8,
    /// Tricks the card cost its side: 0 for a best card.
    pub cost: u8,
    /// The best cards (every card worth `before`).
    pub best: CardSet,
    /// Every legal card and the value after it.
    pub values: Vec<(Card, u8)>,
}

/// What best play from the first lead gives (open hands).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Par {
    /// A trick contract: the declarer's tricks against best defence, and the defence's.
    Contract {
        /// The declarer.
        declarer: Seat,
        /// His tricks.
        tricks: u8,
        /// The defence's tricks (10 less his).
        defence: u8,
    },
    /// Misère: the tricks the defence can force on the declarer.
    Misere {
        /// The declarer.
        declarer: Seat,
        /// His tricks.
        tricks: u8,
    },
    /// Raspasy: for each active seat, the tricks the other two can force on him when he
    /// plays to take as few as he can (`None` for a four-player dealer).
    Raspasy {
        /// Per seat.
        tricks: [Option<u8>; 4],
    },
}

/// The analysis of one played deal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DealAnalysis {
    /// The deal's place in its record (0-based).
    pub index: usize,
    /// The deal as played: kind, declarer, contract, tricks taken.
    pub outcome: Outcome,
    /// The par; `None` when the profile's rules are not the solver's (`must_overtake`).
    pub par: Option<Par>,
    /// Every card played, in order (empty when nothing was played: two passes, a standing
    /// half-whist).
    pub cards: Vec<CardAnalysis>,
    /// Each active seat's best contract with the cards as dealt (seat order).
    pub auction: Vec<SeatBest>,
    /// For a deal ended by a claim all accepted (R6.7), the claim against open-hand play
    /// from its trick boundary; analysed with the play.
    pub claim: Option<ClaimAnalysis>,
}

/// Why a deal of a record has no analysis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotAnalysable {
    /// The record gives only the deal's outcome: there are no cards to analyse.
    OutcomeForm {
        /// The deal (0-based).
        deal: usize,
    },
    /// The table plays `must_overtake` (R6.2), which the solver does not model: its values
    /// would not be exact.
    MustOvertake {
        /// The deal (0-based).
        deal: usize,
    },
    /// The declarer surrendered before naming the contract (R4.5): no card was played.
    Surrendered {
        /// The deal (0-based).
        deal: usize,
    },
    /// A raspasy deal at a table where the talon takes no part (`raspasy_talon = "ignored"`,
    /// R7.5), which the solver does not model: its values would not be exact.
    TalonIgnored {
        /// The deal (0-based).
        deal: usize,
    },
    /// The record has no such deal.
    NoSuchDeal {
        /// The deal asked for (0-based).
        deal: usize,
        /// How many deals the record holds.
        deals: usize,
    },
}

impl NotAnalysable {
    /// The deal it is about (0-based).
    #[must_use]
    pub fn deal(&self) -> usize {
        match *self {
            NotAnalysable::OutcomeForm { deal }
            | NotAnalysable::MustOvertake { deal }
            | NotAnalysable::Surrendered { deal }
            | NotAnalysable::TalonIgnored { deal }
            | NotAnalysable::NoSuchDeal { deal, .. } => deal,
        }
    }

    /// Why, without the deal's number.
    #[must_use]
    pub fn reason(&self) -> String {
        match self {
            NotAnalysable::OutcomeForm { .. } => {
                "recorded by its outcome only (no hands, no cards): nothing to analyse".to_owned()
            }
            NotAnalysable::MustOvertake { .. } => {
                "the table plays must_overtake (R6.2), which the solver does not model".to_owned()
            }
            NotAnalysable::Surrendered { .. } => {
                "the declarer surrendered (R4.5): no card was played".to_owned()
            }
            NotAnalysable::TalonIgnored { .. } => "raspasy at a table whose talon takes no part \
                 (raspasy_talon = \"ignored\", R7.5), which the solver does not model"
                .to_owned(),
            NotAnalysable::NoSuchDeal { deals, .. } => format!(
                "no such deal: the record has {deals} (0 to {})",
                deals.saturating_sub(1)
            ),
        }
    }
}

/// `deal 3: …`, 0-based, as the record's own errors say where they are.
impl std::fmt::Display for NotAnalysable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "deal {}: {}", self.deal(), self.reason())
    }
}

impl std::error::Error for NotAnalysable {}

/// Which parts of a deal to analyse.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Parts {
    /// The par and every card of the play.
    pub play: bool,
    /// Each seat's best contract (the costly part: every discard of every seat).
    pub auction: bool,
}

impl Parts {
    /// Everything.
    pub const ALL: Parts = Parts {
        play: true,
        auction: true,
    };
}

/// Analyses deals with one solver, whose transposition table carries over from position to
/// position and from deal to deal. Not `Sync`: one analyser per thread.
#[derive(Debug, Default)]
pub struct Analyser {
    solver: Solver,
}

/// A played deal as the analysis needs it.
struct Played<'a> {
    index: usize,
    dealer: Seat,
    hands: [CardSet; 4],
    talon: [Card; 2],
    actions: &'a [(Seat, Action)],
}

impl<'a> Played<'a> {
    fn of(index: usize, entry: &'a DealEntry) -> Option<Played<'a>> {
        match entry {
            DealEntry::Played {
                dealer,
                hands,
                talon,
                actions,
                ..
            } => Some(Played {
                index,
                dealer: *dealer,
                hands: *hands,
                talon: *talon,
                actions,
            }),
            DealEntry::Scored { .. } => None,
        }
    }
}

impl Analyser {
    /// An analyser with the solver's default table.
    #[must_use]
    pub fn new() -> Analyser {
        Analyser::default()
    }

    /// Analyses deal `index` of `record` (or every deal with `None`), in order.
    ///
    /// # Errors
    /// [`NotAnalysable::NoSuchDeal`] if `index` is past the record's last deal. A deal that
    /// cannot be analysed is an `Err` in its place in the list.
    pub fn record(
        &mut self,
        record: &Record,
        index: Option<usize>,
        parts: Parts,
    ) -> Result<Vec<Result<DealAnalysis, NotAnalysable>>, NotAnalysable> {
        let deals = record.deals().len();
        if let Some(deal) = index.filter(|&i| i >= deals) {
            return Err(NotAnalysable::NoSuchDeal { deal, deals });
        }
        // The replay gives each deal's dealer and the raspasy streak before it (the
        // lowest bid, R3.3), so the deal's actions replay exactly as recorded.
        let mut entries = Vec::with_capacity(deals);
        let mut streak = 0;
        let replayed = record.replay(|i, game| {
            entries.push((game.history()[i].clone(), streak));
            streak = game.raspasy_streak();
        });
        replayed.expect("a record read through the rules replays");
        let profile = record.profile();
        Ok(entries
            .iter()
            .enumerate()
            .filter(|(i, _)| index.is_none_or(|n| n == *i))
            .map(|(i, (entry, streak))| self.entry(profile, i, entry, *streak, parts))
            .collect())
    }

    /// Analyses finished deal `index` of a running or finished game (a deal in progress is
    /// not in its record: [`NotAnalysable::NoSuchDeal`]). This is [`Analyser::record`] on
    /// the game's record, which gives each deal's raspasy streak (its lowest bid, R3.3).
    ///
    /// # Errors
    /// [`NotAnalysable`] for a deal not finished or not in the game, scored from its
    /// outcome only, or under `must_overtake`.
    pub fn game(
        &mut self,
        game: &Game,
        index: usize,
        parts: Parts,
    ) -> Result<DealAnalysis, NotAnalysable> {
        let names: Vec<String> = (0..game.profile().players())
            .map(|s| format!("seat {s}"))
            .collect();
        let record = Record::from_game(game, &names).expect("one name per seat");
        let mut deals = self.record(&record, Some(index), parts)?;
        deals.pop().expect("the deal asked for")
    }

    /// Analyses one finished deal of a game's history: `index` is its place there and
    /// `raspasy_before` the count of raspasy deals just before it
    /// ([`pref_core::Game::raspasy_streak`] when it started).
    ///
    /// # Errors
    /// [`NotAnalysable`] for a deal scored from its outcome only, or under `must_overtake`.
    ///
    /// # Panics
    /// If the entry's actions do not replay or the deal is not finished: a game's history
    /// holds only deals the rules accepted.
    pub fn entry(
        &mut self,
        profile: &Profile,
        index: usize,
        entry: &DealEntry,
        raspasy_before: u32,
        parts: Parts,
    ) -> Result<DealAnalysis, NotAnalysable> {
        let played = Played::of(index, entry).ok_or(NotAnalysable::OutcomeForm { deal: index })?;
        if profile.must_overtake() {
            return Err(NotAnalysable::MustOvertake { deal: index });
        }
        if played
            .actions
            .iter()
            .any(|(_, a)| matches!(a, Action::Surrender))
        {
            return Err(NotAnalysable::Surrendered { deal: index });
        }
        let raspasy = !played
            .actions
            .iter()
            .any(|(_, a)| matches!(a, Action::Bid(Call::Bid(_)) | Action::Dark(Call::Bid(_))));
        if raspasy && profile.raspasy_talon() == RaspasyTalon::Ignored {
            return Err(NotAnalysable::TalonIgnored { deal: index });
        }
        Ok(self.played(profile, &played, raspasy_before, parts))
    }

    fn played(
        &mut self,
        profile: &Profile,
        p: &Played<'_>,
        raspasy_before: u32,
        parts: Parts,
    ) -> DealAnalysis {
        let (mut deal, active) = dealt(profile, p, raspasy_before);
        let auction = if parts.auction {
            best_contracts(
                &mut self.solver,
                &deal,
                &active,
                profile.misere_without_talon(),
            )
        } else {
            Vec::new()
        };
        let PlayLine { start, line, by } = replay(&mut deal, p.actions, &active);
        let mut cards = Vec::new();
        let outcome = deal.outcome().expect("a recorded deal is finished");
        let par = parts.play.then(|| self.par(&start, &active));
        let claim = AcceptedClaim::of(p.actions)
            .filter(|_| parts.play)
            .and_then(|c| claim::analyse(&mut self.solver, c, &start, &line, &active, &outcome));
        if parts.play {
            let steps = analyse_line(&mut self.solver, &start, &line, [0; 3])
                .expect("recorded cards are legal in the solver's rules");
            for (k, s) in steps.into_iter().enumerate() {
                cards.push(CardAnalysis {
                    trick: (k / 3) as u8,
                    seat: active[s.player],
                    by: by[k],
                    card: s.card,
                    counted: active[s.counted],
                    cost: s.cost(),
                    best: s.best(),
                    before: s.before,
                    after: s.after,
                    values: s.values,
                });
            }
        }
        DealAnalysis {
            index: p.index,
            outcome,
            par,
            cards,
            auction,
            claim,
        }
    }

    /// The par from the first lead.
    fn par(&mut self, start: &Position, active: &[Seat]) -> Par {
        match start.goal {
            Goal::Tricks { declarer, .. } => {
                let tricks = value(&mut self.solver, start, 0);
                Par::Contract {
                    declarer: active[declarer],
                    tricks,
                    defence: 10 - tricks,
                }
            }
            Goal::Misere { declarer } => Par::Misere {
                declarer: active[declarer],
                tricks: value(&mut self.solver, start, 0),
            },
            Goal::Raspasy { .. } => {
                let mut tricks = [None; 4];
                for (i, &s) in active.iter().enumerate() {
                    tricks[s.index()] = Some(value(&mut self.solver, &counted_by(start, i), 0));
                }
                Par::Raspasy { tricks }
            }
        }
    }

    /// The solver, for callers that analyse their own positions with the same table.
    pub fn solver(&mut self) -> &mut Solver {
        &mut self.solver
    }
}

/// The deal as dealt, and its active seats in seat order (the solver's players 0..3).
fn dealt(profile: &Profile, p: &Played<'_>, raspasy_before: u32) -> (Deal, Vec<Seat>) {
    let hands: Vec<Vec<Card>> = (0..usize::from(profile.players()))
        .map(|s| p.hands[s].iter().collect())
        .collect();
    let deal = Deal::from_hands(profile, p.dealer, &hands, &p.talon, raspasy_before)
        .expect("a recorded deal's cards are a deal");
    let active = (0..profile.players())
        .map(Seat)
        .filter(|&s| deal.is_active(s))
        .collect();
    (deal, active)
}

/// The play of a finished deal of a game's history as the solver sees it; `None` for a
/// deal scored from its outcome only.
///
/// # Panics
/// As [`replay`].
#[must_use]
pub fn play_line(profile: &Profile, entry: &DealEntry, raspasy_before: u32) -> Option<PlayLine> {
    let played = Played::of(0, entry)?;
    let (mut deal, active) = dealt(profile, &played, raspasy_before);
    Some(replay(&mut deal, played.actions, &active))
}

/// A deal's play as the solver sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayLine {
    /// The position before the first card (after the discard), players being the active
    /// seats in seat order.
    pub start: Position,
    /// The cards played, in order.
    pub line: Vec<Card>,
    /// For each card, the seat that chose it.
    pub by: Vec<Seat>,
}

/// Replays a finished deal's `actions` on `deal` (as dealt) to its end, and returns its
/// play as the solver sees it.
///
/// # Panics
/// If an action does not replay: the actions come from a game's history or a record, both
/// checked by the rules.
pub fn replay(deal: &mut Deal, actions: &[(Seat, Action)], active: &[Seat]) -> PlayLine {
    let player = |s: Seat| active.iter().position(|&a| a == s).expect("an active seat");
    let mut actions = actions.iter().copied().peekable();
    while let Some((seat, action)) = actions.next_if(|(_, a)| !matches!(a, Action::Play(_))) {
        deal.apply(seat, action).expect("recorded actions replay");
    }
    let start = Position {
        hands: std::array::from_fn(|i| deal.hand(active[i])),
        leader: player(deal.first_hand()),
        trick: Vec::new(),
        tricks_done: 0,
        goal: goal(deal, &player),
    };
    let mut line = Vec::new();
    let mut by = Vec::new();
    for (seat, action) in actions {
        if let Action::Play(card) = action {
            by.push(deal.controller(seat));
            line.push(card);
        }
        deal.apply(seat, action).expect("recorded actions replay");
    }
    PlayLine { start, line, by }
}

/// The solver's goal for the deal at the start of its play.
fn goal(deal: &Deal, player: &impl Fn(Seat) -> usize) -> Goal {
    if deal.is_raspasy() {
        let talon = deal.talon();
        return Goal::Raspasy {
            player: 0,
            first_hand: player(deal.first_hand()),
            talon: talon.map(Card::suit),
            talon_cards: (deal.players() == 4).then_some(talon),
        };
    }
    let declarer = player(deal.declarer().expect("a deal with a declarer"));
    if deal.is_misere() {
        return Goal::Misere { declarer };
    }
    let contract = deal.contract().expect("a named contract");
    debug_assert!(matches!(deal.stage(), Stage::Play | Stage::Finished));
    Goal::Tricks {
        declarer,
        trump: contract.strain().trump(),
    }
}
