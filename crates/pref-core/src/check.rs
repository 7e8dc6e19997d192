//! The consistency check of an outcome written by hand (the record's outcome form) against
//! the profile and the dealer it is scored for: what a scorekeeper may write is what a
//! played deal could have ended with under the same rules.

use crate::action::{Defence, WhistCall};
use crate::bid::{Seat, Strain};
use crate::deal::next_active;
use crate::outcome::{Outcome, OutcomeKind};
use crate::profile::{Profile, RaspasyTalon};
use crate::scoring::Defenders;

/// Checks an outcome written by hand against the profile and the dealer it is scored for.
pub(crate) fn check_outcome(profile: &Profile, dealer: Seat, o: &Outcome) -> Result<(), String> {
    let players = profile.players();
    if o.players != players {
        return Err(format!(
            "the outcome is for {} players, the table has {players} (R1.2)",
            o.players
        ));
    }
    if o.dealer != dealer {
        return Err(format!(
            "the dealer of this deal is {dealer}, not {} (R1.3)",
            o.dealer
        ));
    }
    if let Some(t) = o.tricks {
        if let Some(s) = (players..4).find(|&s| t[s as usize] != 0) {
            return Err(format!(
                "seat {s} is not at the table but has tricks (R1.2)"
            ));
        }
        let sum: u32 = t.iter().map(|&x| u32::from(x)).sum();
        if sum != 10 {
            return Err(format!("the tricks add up to {sum}, not 10 (R6.1)"));
        }
        let dealer_tricks = if players == 4 { t[dealer.index()] } else { 0 };
        let ignored = profile.raspasy_talon() == RaspasyTalon::Ignored;
        if o.kind == OutcomeKind::Raspasy && ignored && dealer_tricks > 0 {
            return Err(format!(
                "the talon takes no part in raspasy at this table: the dealer ({dealer}) has no tricks (R7.5)"
            ));
        }
        if o.kind == OutcomeKind::Raspasy && dealer_tricks > 2 {
            return Err(format!(
                "the dealer's talon cards can win only tricks 1 and 2, not {dealer_tricks} (R11.3)"
            ));
        }
        if o.kind != OutcomeKind::Raspasy && dealer_tricks > 0 {
            return Err(format!(
                "the dealer ({dealer}) does not play and cannot have tricks (R11.1)"
            ));
        }
    }
    let declarer = match o.kind {
        OutcomeKind::Game { declarer, .. }
        | OutcomeKind::Misere { declarer }
        | OutcomeKind::Surrender { declarer, .. } => declarer,
        OutcomeKind::Raspasy => return played(o, "raspasy is always played (R7.1)"),
    };
    if declarer.0 >= players || (players == 4 && declarer == dealer) {
        return Err(format!(
            "{declarer} cannot be the declarer: he is not in the deal (R1.2, R11.1)"
        ));
    }
    let (contract, whist, defence, talon_units) = match o.kind {
        OutcomeKind::Game {
            contract,
            whist,
            defence,
            talon_units,
            ..
        } => (contract, whist, defence, talon_units),
        OutcomeKind::Surrender { bid, .. } => return check_surrender(profile, o, bid.level()),
        OutcomeKind::Misere { .. } | OutcomeKind::Raspasy => {
            return played(o, "a misère is always played (R6.5)");
        }
    };
    if o.no_talon && contract.level() != 9 {
        return Err(format!(
            "after nine without talon the contract is a nine, not {} (R4.6)",
            contract.pretty()
        ));
    }
    // R11.6: no talon bonus after 9WT, whose declarer took no talon.
    let bonus_table = profile.talon_bonus() && players == 4 && !o.no_talon;
    match talon_units {
        None if bonus_table => {
            return Err(
                "the talon's units are missing: the dealer has a talon bonus (R11.6)".to_owned(),
            );
        }
        Some(_) if !bonus_table => {
            return Err("talon_units only with talon_bonus and four players (R11.6)".to_owned());
        }
        Some(u) if u > 3 => {
            return Err(format!("the talon's units are 0 to 3, not {u} (R11.6)"));
        }
        None | Some(_) => {}
    }
    let defenders = Defenders::read(players, dealer, declarer, &whist)?;
    let level = contract.level();
    let unwhisted_ten = level == 10 && !profile.ten_whisted();
    match defenders {
        Defenders::Unwhisted if !unwhisted_ten => {
            return Err("the whist decisions are missing (R5.1)".to_owned());
        }
        d if unwhisted_ten && d != Defenders::Unwhisted => {
            return Err("tens are played without whist at this table (R5.6)".to_owned());
        }
        Defenders::Dealer { .. } if !profile.dealer_whist() => {
            return Err("the dealer does not whist at this table (R11.4)".to_owned());
        }
        _ => {}
    }
    // Defenders::read lets the first defender half-whist only as a withdrawal (R5.3).
    let first = next_active(players, dealer, declarer);
    let first_half = whist[first.index()] == Some(WhistCall::Half);
    if first_half && !profile.whist_pass_half() {
        return Err(
            "the first defender cannot withdraw to a half-whist: whist_pass_half is off (R5.3)"
                .to_owned(),
        );
    }
    if whist.contains(&Some(WhistCall::Half)) {
        if !profile.half_whist() {
            return Err("half-whist is not played at this table (R5.2)".to_owned());
        }
        if level > 7 {
            return Err(format!(
                "half-whist is only against 6 and 7, not {level} (R5.2)"
            ));
        }
    }
    let stalingrad = profile.stalingrad() && level == 6 && contract.strain() == Strain::Spades;
    if stalingrad && !matches!(defenders, Defenders::Both { .. }) {
        return Err("against 6♠ both defenders must whist: Stalingrad is agreed (R5.7)".to_owned());
    }
    let defence_fits = match (defenders, defence) {
        (_, None) => true,
        (Defenders::Lone { .. }, Some(_)) => true,
        (Defenders::Both { .. }, Some(d)) => d == Defence::Closed,
        (Defenders::Dealer { .. }, Some(d)) => d == Defence::Open,
        _ => false,
    };
    if !defence_fits {
        return Err("the defence does not fit the whist decisions (R5.4, R11.4)".to_owned());
    }
    if defenders.plays() {
        played(
            o,
            "the contract is played after these whist decisions (R5.4)",
        )
    } else if o.tricks.is_some() {
        Err(
            "nothing is played after two passes or a standing half-whist: no tricks (R8.5, R8.6)"
                .to_owned(),
        )
    } else {
        Ok(())
    }
}

/// A deal that must have been played must have its tricks.
fn played(o: &Outcome, why: &str) -> Result<(), String> {
    if o.tricks.is_some() {
        Ok(())
    } else {
        Err(format!("the tricks are missing: {why}"))
    }
}

/// A surrender written by hand: allowed at this table at this level, and nothing played (R4.5).
fn check_surrender(profile: &Profile, o: &Outcome, level: u8) -> Result<(), String> {
    if profile.surrender() == 0 {
        return Err("surrender is not played at this table (R4.5)".to_owned());
    }
    if level > profile.surrender_max_level() {
        return Err(format!(
            "surrender is allowed up to level {}, and the bid is {level} (R4.5)",
            profile.surrender_max_level()
        ));
    }
    if o.tricks.is_some() {
        return Err("nothing is played after a surrender: no tricks (R4.5)".to_owned());
    }
    Ok(())
}
