//! The two ways out that some house rules give a seat expecting to lose by playing on: the
//! declarer's surrender after the talon (R4.5, "down three without whists") and the first
//! defender's withdrawal to a half-whist after *whist, pass* (R5.3).
//!
//! Both are priced like every other decision, by the table's profile through the core
//! (`score.rs`): a surrender is the core's [`OutcomeKind::Surrender`] outcome on an empty
//! sheet, a withdrawal the half-whist outcome the record writes for it (the first defender
//! `half`, the second `pass`, nothing played). The bot takes either when it is worth more
//! than the sampled expected result of playing.

use pref_core::{Action, ActionList, Contract, Outcome, OutcomeKind, Profile, Seat};

use super::context::Ctx;
use crate::score::Whists;

/// What surrendering now is worth to the declarer `me`, or `None` where `legal` has no
/// surrender (the profile's `surrender` is 0, the bid is above `surrender_max_level`, or
/// the deal is a misère).
pub(crate) fn surrender_price(ctx: &Ctx<'_>, me: Seat, legal: &ActionList) -> Option<Whists> {
    if !legal.contains(&Action::Surrender) {
        return None;
    }
    let bid = ctx.view.highest?.bid.contract()?;
    let outcome = Outcome {
        dark: false,
        no_talon: false,
        players: ctx.view.players,
        dealer: ctx.view.dealer,
        kind: OutcomeKind::Surrender { declarer: me, bid },
        tricks: None,
    };
    Some(ctx.prices.result(&outcome, me.index()))
}

/// `play`, or the surrender when its price is above `playing`, the expected result of the
/// best way to play (`None` when nothing was sampled: then the bot plays on).
pub(crate) fn or_surrender(play: Action, playing: Option<Whists>, price: Option<Whists>) -> Action {
    match (playing, price) {
        (Some(v), Some(p)) if p > v => Action::Surrender,
        _ => play,
    }
}

/// Whether the first defender who whists `contract` will speak again if his partner then
/// passes (R5.3): `whist_pass_half` with half-whist played, against 6 and 7.
pub(crate) fn may_withdraw(profile: &Profile, contract: Contract) -> bool {
    profile.whist_pass_half() && profile.half_whist() && contract.level() <= 7
}

#[cfg(test)]
mod tests {
    use pref_core::{
        Action, Bid, Call, Card, CardSet, Contract, Deal, Profile, Seat, Stage, Strain, Viewer,
        WhistCall,
    };

    use crate::bot::context::Ctx;
    use crate::bot::defence::{Answers, call_value};
    use crate::bot::{Bot, Budget, Level};
    use crate::score::Whists;

    fn cards(s: &str) -> Vec<Card> {
        s.split_whitespace()
            .map(|c| c.parse::<Card>().expect("a card"))
            .collect()
    }

    fn set(s: &str) -> CardSet {
        cards(s).into_iter().collect()
    }

    /// A deal dealt by seat 2 (seat 0 is the first hand) with these hands and talon, the
    /// `actions` applied, and a strong bot in `seat` fed every event it may see.
    fn deal_at(
        profile: &Profile,
        hands: [&str; 3],
        talon: &str,
        actions: &[(u8, Action)],
        seat: u8,
    ) -> (Deal, Bot) {
        let all = format!("{} {} {} {talon}", hands[0], hands[1], hands[2]);
        let deck: [Card; 32] = cards(&all).try_into().expect("32 cards");
        let mut deal = Deal::new(profile, Seat(2), &deck, 0).expect("a deal");
        let mut bot = Bot::new(Seat(seat), Level::Strong, profile, 7);
        let me = Viewer::Seat(Seat(seat));
        bot.observe(&deal.deal_event().project(me, 3));
        for &(s, a) in actions {
            for e in deal.act(Seat(s), a).expect("a legal action") {
                bot.observe(&e.project(me, 3));
            }
        }
        (deal, bot)
    }

    fn decide(deal: &Deal, bot: &mut Bot) -> Action {
        let s = bot.seat();
        let legal = deal.legal_actions_for(s);
        bot.decide(
            &deal.view(Viewer::Seat(s)),
            &legal,
            Budget::nodes(2_000_000),
        )
    }

    fn six_spades() -> Contract {
        Contract::new(6, Strain::Spades).expect("6♠")
    }

    /// Seat 0 bids 6♠, the others pass: seat 0 has the talon.
    fn auction() -> Vec<(u8, Action)> {
        vec![
            (0, Action::Bid(Call::Bid(Bid::LOWEST))),
            (1, Action::Bid(Call::Pass)),
            (2, Action::Bid(Call::Pass)),
        ]
    }

    fn surrender_profile() -> Profile {
        Profile::sochi()
            .with("surrender", 3)
            .expect("surrender = 3")
    }

    const HOPELESS: [&str; 3] = [
        "7S 8S 7C 8C 7D 8D 7H 8H 9S 9C",
        "AS KS QS JS AC KC QC AD KD QD",
        "TS TC JC 9D TD JD AH KH QH JH",
    ];
    const HOPELESS_TALON: &str = "9H TH";

    const STRONG: [&str; 3] = [
        "AS KS QS JS TS AH KH AC KC AD",
        "7S 8S 7C 8C 7D 8D 7H 8H 9S 9C",
        "TC JC QC 9D TD JD QD KD QH JH",
    ];
    const STRONG_TALON: &str = "9H TH";

    /// R4.5: a declarer who would go down five or six on 6♠, at a table where a surrender
    /// costs three undertricks without whists, surrenders at the discard and, having
    /// discarded, before naming the contract.
    #[test]
    fn r4_5_a_hopeless_declarer_surrenders() {
        let p = surrender_profile();
        let (deal, mut bot) = deal_at(&p, HOPELESS, HOPELESS_TALON, &auction(), 0);
        assert_eq!(deal.stage(), Stage::Discard);
        assert_eq!(decide(&deal, &mut bot), Action::Surrender);
        let mut actions = auction();
        actions.push((0, Action::Discard(set(HOPELESS_TALON))));
        let (deal, mut bot) = deal_at(&p, HOPELESS, HOPELESS_TALON, &actions, 0);
        assert_eq!(deal.stage(), Stage::Declare);
        assert_eq!(decide(&deal, &mut bot), Action::Surrender);
    }

    /// R4.5: a declarer sure of his contract plays it; and at a table without surrender
    /// the hopeless one plays too (the surrender is not among his legal actions).
    #[test]
    fn r4_5_a_good_declarer_and_a_barred_one_do_not_surrender() {
        let p = surrender_profile();
        let (deal, mut bot) = deal_at(&p, STRONG, STRONG_TALON, &auction(), 0);
        assert!(deal.legal_actions_for(Seat(0)).contains(&Action::Surrender));
        assert!(matches!(decide(&deal, &mut bot), Action::Discard(_)));
        let mut actions = auction();
        actions.push((0, Action::Discard(set(STRONG_TALON))));
        let (deal, mut bot) = deal_at(&p, STRONG, STRONG_TALON, &actions, 0);
        assert!(matches!(decide(&deal, &mut bot), Action::Declare(_)));

        let sochi = Profile::sochi();
        let (deal, mut bot) = deal_at(&sochi, HOPELESS, HOPELESS_TALON, &auction(), 0);
        assert!(!deal.legal_actions_for(Seat(0)).contains(&Action::Surrender));
        assert!(matches!(decide(&deal, &mut bot), Action::Discard(_)));
    }

    fn withdraw_profile() -> Profile {
        Profile::sochi()
            .with("whist_pass_half", true)
            .expect("whist_pass_half")
    }

    /// Seat 0 takes the talon, discards it and names 6♠; seat 1 whists, seat 2 passes.
    fn to_withdrawal(talon: &str) -> Vec<(u8, Action)> {
        let mut actions = auction();
        actions.extend([
            (0, Action::Discard(set(talon))),
            (0, Action::Declare(six_spades())),
            (1, Action::Whist(WhistCall::Whist)),
            (2, Action::Whist(WhistCall::Pass)),
        ]);
        actions
    }

    /// R5.3, R8.6 by hand at Sochi with `whist_pass_half`: the withdrawal is priced as the
    /// half-whist it leaves. The declarer is credited 6♠ made (2 pool points: mountains
    /// (−2, 0, 0) after the agreed stop, 40/3 to him and −20/3 to each other seat) and the
    /// half-whister writes half the quota, 2 tricks at 2: his result is −20/3 + 4 = −8/3.
    /// Staying alone against a declarer who takes 8 costs far more (the shortfall on the
    /// quota of 4), against one who takes 4 it earns more; and at the first call, left alone
    /// in every layout, his whist is worth exactly the withdrawal, not the losing play.
    #[test]
    fn r5_3_the_withdrawal_is_priced_as_the_half_whist_it_leaves() {
        let p = withdraw_profile();
        let (deal, _) = deal_at(&p, STRONG, STRONG_TALON, &to_withdrawal(STRONG_TALON), 1);
        let view = deal.view(Viewer::Seat(Seat(1)));
        let ctx = Ctx::priced(&view, &p);
        let value = |call, counts: &[u8]| {
            call_value(
                &ctx,
                Seat(1),
                Seat(2),
                call,
                &Answers::Known(WhistCall::Pass, counts),
            )
        };
        let half = Whists::new(-8, 3);
        assert_eq!(value(WhistCall::Half, &[8]), half);
        assert_eq!(value(WhistCall::Half, &[4, 10]), half);
        assert!(value(WhistCall::Whist, &[8]) < half);
        assert!(value(WhistCall::Whist, &[4]) > half);

        let mut first = auction();
        first.extend([
            (0, Action::Discard(set(STRONG_TALON))),
            (0, Action::Declare(six_spades())),
        ]);
        let alone = |profile: &Profile| {
            let (deal, _) = deal_at(profile, STRONG, STRONG_TALON, &first, 1);
            let view = deal.view(Viewer::Seat(Seat(1)));
            let ctx = Ctx::priced(&view, profile);
            let answers = Answers::Sampled {
                whisting: vec![],
                passing: vec![9, 8],
            };
            call_value(&ctx, Seat(1), Seat(2), WhistCall::Whist, &answers)
        };
        assert_eq!(alone(&p), half);
        assert!(alone(&Profile::sochi()) < half);
    }

    /// R5.3: at the second decision a bot left alone with a hand that holds the tricks
    /// stays the lone whister.
    #[test]
    fn r5_3_the_first_defender_stays_when_he_holds_the_tricks() {
        let p = withdraw_profile();
        let holds_the_tricks = [
            "7S 8S 9S TS 7C 8C 7D 8D 7H 8H",
            "AS KS QS AC KC QC AD KD AH KH",
            "JS 9C TC JC 9D TD JD 9H TH JH",
        ];
        let talon = "QD QH";
        let (deal, mut bot) = deal_at(&p, holds_the_tricks, talon, &to_withdrawal(talon), 1);
        assert!(
            deal.legal_actions_for(Seat(1))
                .contains(&Action::Whist(WhistCall::Half))
        );
        assert_eq!(decide(&deal, &mut bot), Action::Whist(WhistCall::Whist));
    }
}
