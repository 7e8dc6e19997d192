//! Games among the same set of accounts count less after the first few in a day, so three
//! accounts cannot farm a rating by playing each other over and over (issue 33's abuse
//! rule). The server counts the set's earlier rated games of the UTC day and passes the
//! weight to [`crate::rate`].

/// Rated games a set of accounts plays in a UTC day at full weight.
pub const FULL_WEIGHT_GAMES: u32 = 3;

/// The least weight a game among the same accounts falls to: honest regulars who play on
/// into the night still count a little, a farm gains an eighth a game at most.
pub const WEIGHT_FLOOR: f64 = 0.125;

/// The weight of a game among a set of accounts that already played `earlier_today` rated
/// games together this UTC day: 1 for the first [`FULL_WEIGHT_GAMES`], then halving with
/// each further game (½, ¼, …) down to [`WEIGHT_FLOOR`].
#[must_use]
pub fn same_trio_weight(earlier_today: u32) -> f64 {
    if earlier_today < FULL_WEIGHT_GAMES {
        return 1.0;
    }
    // The 4th game of the day halves once; past the floor the exponent no longer matters.
    let halvings = (earlier_today - FULL_WEIGHT_GAMES + 1).min(16);
    0.5f64
        .powi(i32::try_from(halvings).unwrap_or(16))
        .max(WEIGHT_FLOOR)
}
