//! A restored table's game as a record without its players' names: what the étude scan
//! (`etudes/scan.rs`) reads of a finished game.

use pref_core::Record;

use super::Table;

impl Table {
    /// The game's record, its seats named `seat 0`, `seat 1`…; `None` before the game
    /// started or if it does not make a record.
    pub(crate) fn played_record(&self) -> Option<Record> {
        let game = self.machine.game()?;
        let names: Vec<String> = (0..game.profile().players())
            .map(|s| format!("seat {s}"))
            .collect();
        Record::from_game(game, &names).ok()
    }
}
