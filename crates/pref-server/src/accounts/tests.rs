//! The user names' rules.

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
