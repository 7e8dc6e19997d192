//! A table: its rules as a pure state machine, the task that serves it, and what the node
//! keeps around its tables.
//!
//! - [`machine`]: the table as a pure state machine (lobby, seats, host rules, the game's
//!   phases): `apply(op)` refuses with a typed error or says what to store and broadcast.
//! - [`actor`]: one task per table around its machine: inbox, write-then-tell, history,
//!   broadcast, clocks, fair deals, restore; [`command`]: what the task is asked and what a
//!   socket subscribes to.
//! - [`registry`]: table id → inbox, and the supervisor that rebuilds a panicked table;
//!   [`lifecycle`]: idle lobbies expire, unused finished games leave memory, only live
//!   tables count toward `max_tables`.
//! - [`bots`]: a bot per seat, fed its seat's projection, acting through the inbox.
//! - [`practice`]: a practice table's hints, worked out from the seat's view only.
//! - [`wire`]: the items a table broadcasts inside the server and their projection to the
//!   `pref-protocol` messages.

pub(crate) mod actor;
mod api_error;
pub(crate) mod bots;
pub(crate) mod command;
pub(crate) mod lifecycle;
pub(crate) mod machine;
pub(crate) mod open;
pub(crate) mod practice;
pub(crate) mod registry;
pub(crate) mod wire;

pub(crate) use actor::Table;
