//! The user names' rules, and the balance over time drawn from the games' settlements.

use pref_core::stats::SeatStats;

use super::*;

#[test]
fn a_user_name_follows_the_seat_names_rules_and_reserved_names_are_refused() {
    assert_eq!(check_name("  Anna Karenina ").unwrap(), "Anna Karenina");
    assert_eq!(folded("Anna   KARENINA"), folded("anna karenina"));
    for bad in [
        "",
        "   ",
        "Anna\u{202E}",
        "An\u{200B}na",
        "a/b",
        "50%",
        "who?",
        "#1",
        "back\\slash",
        &"x".repeat(33),
    ] {
        assert!(
            matches!(check_name(bad), Err(ApiError::BadRequest(_))),
            "{bad:?}"
        );
    }
    for reserved in [
        "Admin",
        "ROOT",
        "Deleted  Player",
        "bot",
        "Bot 3",
        "bot12",
        "Guest",
    ] {
        let err = check_name(reserved).unwrap_err().to_string();
        assert!(err.contains("reserved"), "{reserved:?}: {err}");
    }
    // A name that only starts like a reserved one is a name.
    assert!(check_name("Botvinnik").is_ok());
    assert!(check_name("Администратор").is_ok());
    assert_eq!(check_name(&"я".repeat(32)).unwrap().chars().count(), 32);
}

#[test]
fn the_balance_over_time_keeps_evenly_spaced_games_and_the_last_with_exact_sums() {
    let results = (0..1000)
        .map(|i| store::ResultRow {
            counted: 1_000 + i,
            // 1/3 a game, and a game with no settlement (not counted in the balance).
            result: (i != 500).then(|| "1/3".to_owned()),
        })
        .collect();
    let s = players::figures("Anna".into(), &SeatStats::default(), results, 10);
    let games: Vec<u64> = s.over_time.iter().map(|p| p.games).collect();
    assert_eq!(games, [100, 200, 300, 400, 500, 600, 700, 800, 900, 999]);
    assert_eq!(s.over_time[0].balance, "100/3");
    assert_eq!(s.over_time[9].balance, "333");
    assert_eq!(s.over_time[0].date, 1_099);
    let few = players::figures("Anna".into(), &SeatStats::default(), Vec::new(), 10);
    assert!(few.over_time.is_empty());
    assert_eq!((few.balance.as_str(), few.declared_share), ("0", None));
}
