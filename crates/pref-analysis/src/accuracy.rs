//! The "accuracy" of a player's page: the tricks each seat's own cards lost to the solver,
//! deal by deal, from the per-card analysis (`deal.rs`).
//!
//! A card's cost is the tricks its side lost by it against best open-hand play from there
//! (0 for a best card). A seat's loss in a deal is the sum of the costs of the cards it
//! *chose* (`by`: the lone whister of an open defence chooses both defender hands' cards),
//! and a deal counts for the seat when it chose at least one card the solver valued. The
//! page divides the two totals: tricks lost per analysed deal, exactly.

use pref_core::Record;

use crate::deal::{Analyser, DealAnalysis, NotAnalysable, Parts};

/// One seat's analysed play.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SeatAccuracy {
    /// Deals in which the seat chose a card the solver valued.
    pub deals: u64,
    /// The tricks its cards lost in them.
    pub lost: u64,
}

/// Per seat (index = seat, `players` long), the analysed deals of `deals` in which it chose
/// a card and the tricks its cards lost; a deal that could not be analysed counts for
/// nobody.
#[must_use]
pub fn of_deals(
    players: usize,
    deals: &[Result<DealAnalysis, NotAnalysable>],
) -> Vec<SeatAccuracy> {
    let mut seats = vec![SeatAccuracy::default(); players];
    for deal in deals.iter().flatten() {
        let mut chose = vec![false; players];
        for card in &deal.cards {
            let i = card.by.index();
            if let (Some(seat), Some(c)) = (seats.get_mut(i), chose.get_mut(i)) {
                seat.lost += u64::from(card.cost);
                *c = true;
            }
        }
        for (seat, chose) in seats.iter_mut().zip(chose) {
            seat.deals += u64::from(chose);
        }
    }
    seats
}

/// [`of_deals`] over every deal of `record`, analysed for the play only (the par and each
/// card; not the auction's best contracts, which the accuracy does not use). Solver work:
/// run it where analyses run.
#[must_use]
pub fn of_record(record: &Record) -> Vec<SeatAccuracy> {
    let parts = Parts {
        play: true,
        auction: false,
    };
    let deals = Analyser::new()
        .record(record, None, parts)
        .unwrap_or_default();
    of_deals(record.players().len(), &deals)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pref_core::{Card, CardSet, Outcome, Seat};

    fn card(trick: u8, seat: u8, by: u8, cost: u8) -> crate::CardAnalysis {
        let card: Card = "7S".parse().unwrap();
        crate::CardAnalysis {
            trick,
            seat: Seat(seat),
            by: Seat(by),
            card,
            counted: Seat(0),
            before: 6,
            after: 6 - cost,
            cost,
            best: CardSet::EMPTY,
            values: Vec::new(),
        }
    }

    fn deal(outcome: &Outcome, cards: Vec<crate::CardAnalysis>) -> DealAnalysis {
        DealAnalysis {
            index: 0,
            outcome: *outcome,
            par: None,
            cards,
            auction: Vec::new(),
            claim: None,
        }
    }

    #[test]
    fn each_seat_loses_what_its_own_chosen_cards_cost() {
        let record = Record::from_json_str(
            &std::fs::read_to_string(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../tests/records/worked-deal.json"
            ))
            .unwrap(),
        )
        .unwrap();
        let parts = Parts {
            play: true,
            auction: false,
        };
        let analysed = Analyser::new().record(&record, Some(0), parts).unwrap();
        let outcome = analysed[0].as_ref().unwrap().outcome;
        let deals = vec![
            // Seat 0 loses 1 + 2; seat 2 chooses seat 1's card too (open defence): 0 + 1.
            Ok(deal(
                &outcome,
                vec![
                    card(0, 0, 0, 1),
                    card(0, 1, 2, 0),
                    card(0, 2, 2, 1),
                    card(1, 0, 0, 2),
                ],
            )),
            // Not analysable: counts for nobody.
            Err(NotAnalysable::MustOvertake { deal: 1 }),
            // Nothing played (two passes): counts for nobody.
            Ok(deal(&outcome, Vec::new())),
            // Seat 1 plays perfectly: a deal, no trick lost.
            Ok(deal(&outcome, vec![card(0, 1, 1, 0), card(0, 0, 0, 0)])),
        ];
        assert_eq!(
            of_deals(3, &deals),
            [
                SeatAccuracy { deals: 2, lost: 3 },
                SeatAccuracy { deals: 1, lost: 0 },
                SeatAccuracy { deals: 1, lost: 1 },
            ]
        );
    }

    #[test]
    fn a_record_s_accuracy_is_the_sum_of_its_analysis_card_costs() {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/records/worked-deal.json"
        ))
        .unwrap();
        let record = Record::from_json_str(&text).unwrap();
        let deals = Analyser::new().record(&record, None, Parts::ALL).unwrap();
        let mut lost = [0u64; 3];
        for c in deals.iter().flatten().flat_map(|d| &d.cards) {
            lost[c.by.index()] += u64::from(c.cost);
        }
        let got = of_record(&record);
        assert_eq!(got.iter().map(|s| s.lost).collect::<Vec<_>>(), lost);
        assert!(got.iter().all(|s| s.deals == 1), "{got:?}");
    }
}
