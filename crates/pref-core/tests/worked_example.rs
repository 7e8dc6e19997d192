//! The guide's worked deal (`docs/worked-example.md`), card by card: R3.4's auction,
//! R4's talon and discard, R5's two whists, R6's play, tricks 7–3–0.
#![allow(missing_docs)]

use pref_core::{
    Action, Bid, CardSet, Contract, Deal, Defence, Event, OutcomeKind, Profile, RuleError, Seat,
    Stage, WhistCall,
};

mod common;

use common::{WORKED_AUCTION, WORKED_TALON, bid, cards, worked_hands};

fn worked_deal() -> Deal {
    let hands = worked_hands();
    Deal::from_hands(&Profile::sochi(), Seat(2), &hands, &cards(WORKED_TALON), 0).unwrap()
}

#[test]
fn r3_4_here_auction_then_the_whole_deal() {
    let mut d = worked_deal();
    for (seat, call) in &WORKED_AUCTION[..8] {
        let (seat, call) = (*seat, *call);
        assert_eq!(d.to_act(), Some(Seat(seat)), "before {call}");
        d.apply(Seat(seat), bid(call)).unwrap();
    }
    // B passes: A wins 6♥ and the talon is turned for everybody (R4.1).
    let ev = d.apply(Seat(1), bid("pass")).unwrap();
    assert!(ev.contains(&Event::AuctionWon {
        declarer: Seat(0),
        bid: "6H".parse().unwrap()
    }));
    assert!(ev.contains(&Event::TalonTurned {
        cards: ["AH".parse().unwrap(), "9C".parse().unwrap()]
    }));
    assert_eq!(d.stage(), Stage::Discard);
    assert_eq!(d.hand(Seat(0)).len(), 12);

    let discard: CardSet = cards("♣7 ♦8").into_iter().collect();
    d.apply(Seat(0), Action::Discard(discard)).unwrap();
    // R4.3: 6♦ is below the winning 6♥.
    assert_eq!(
        d.apply(Seat(0), Action::Declare("6D".parse().unwrap())),
        Err(RuleError::ContractBelowBid {
            contract: "6D".parse().unwrap(),
            bid: "6H".parse::<Bid>().unwrap()
        })
    );
    d.apply(Seat(0), Action::Declare("7H".parse().unwrap()))
        .unwrap();
    d.apply(Seat(1), Action::Whist(WhistCall::Whist)).unwrap();
    d.apply(Seat(2), Action::Whist(WhistCall::Whist)).unwrap();
    assert_eq!(d.stage(), Stage::Play);

    let tricks = [
        (0, "♥A ♥7 ♥8", 0),
        (0, "♥K ♥9 ♠8", 0),
        (0, "♠7 ♠A ♠9", 1),
        (1, "♣A ♣10 ♣8", 1),
        (1, "♦Q ♦7 ♦A", 0),
        (0, "♥Q ♠K ♣Q", 0),
        (0, "♦K ♦10 ♦9", 0),
        (0, "♣9 ♣K ♣J", 1),
        (1, "♠Q ♠J ♥J", 0),
        (0, "♥10 ♦J ♠10", 0),
    ];
    for (i, (leader, cs, winner)) in tricks.iter().enumerate() {
        let mut seat = Seat(*leader);
        let mut last = None;
        for c in cards(cs) {
            assert_eq!(d.to_act(), Some(seat), "trick {}", i + 1);
            last = Some(d.apply(seat, Action::Play(c)).unwrap());
            seat = d.next_seat(seat);
        }
        assert!(
            last.unwrap().contains(&Event::TrickTaken {
                trick: i as u8,
                seat: Seat(*winner)
            }),
            "trick {}",
            i + 1
        );
    }
    assert!(d.is_finished());
    let o = d.outcome().unwrap();
    assert_eq!(o.tricks, Some([7, 3, 0, 0]));
    assert_eq!(
        o.kind,
        OutcomeKind::Game {
            declarer: Seat(0),
            contract: "7H".parse::<Contract>().unwrap(),
            whist: [None, Some(WhistCall::Whist), Some(WhistCall::Whist), None],
            defence: Some(Defence::Closed),
            talon_units: None,
        }
    );
    assert_eq!(o.made(), Some(true));
    let log = d.completed_tricks();
    assert_eq!(log.len(), 10);
    assert_eq!(log[3].leader, Seat(1));
    assert_eq!(log[8].cards()[2].1, "JH".parse().unwrap());
}

#[test]
fn deal_state_fits_in_128_bytes() {
    assert!(
        std::mem::size_of::<Deal>() <= 128,
        "{}",
        std::mem::size_of::<Deal>()
    );
}
