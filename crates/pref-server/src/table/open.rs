//! Opening a new table: its row, its clock, its task in the registry, and the answer with
//! the host token and the links. Both the HTTP route (`POST /api/tables`, a rematch) and
//! the lobby's quick pairing open tables so, so the steps live once, here.

use std::sync::Arc;

use pref_core::{Profile, Seat};
use pref_protocol::Created;
use pref_protocol::clock::{ClockInfo, TimeControl};
use rand::Rng;
use rand::rngs::OsRng;

use crate::api::error::ApiError;
use crate::config::Limits;
use crate::ids::{Secret, TokenHash};
use crate::metrics::METRICS;
use crate::store::Store;
use crate::table::Table;
use crate::table::command::Command;
use crate::table::machine::NewTable;
use crate::table::registry::Registry;

/// What opening a table needs of the node.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Opener<'a> {
    /// The node's tables.
    pub tables: &'a Arc<Registry>,
    /// The database.
    pub store: &'a Store,
    /// The limits a new table runs with.
    pub limits: &'a Limits,
    /// `http://host:port`, for the links.
    pub base_url: &'a str,
}

impl Opener<'_> {
    /// Opens a new table in the lobby with a fresh host token; the store keeps the
    /// resolved profile, and whether it is a practice table (hints allowed, never rated).
    /// Returns the answer and the table's row number.
    ///
    /// # Errors
    /// [`ApiError::Full`] when the node holds `limits.max_tables` live tables;
    /// [`ApiError::Internal`] if the database refuses.
    pub(crate) async fn open(
        self,
        profile: Profile,
        clock: Option<TimeControl>,
        spectator_chat: bool,
        practice: bool,
    ) -> Result<(Created, i64), ApiError> {
        if self.tables.live() >= self.limits.max_tables {
            return Err(ApiError::Full);
        }
        let id = Secret::table_id();
        let host = Secret::random();
        let first_dealer = Seat(OsRng.gen_range(0..profile.players()));
        let no = self
            .store
            .create_table(
                &id,
                (&TokenHash::of(&host), &TokenHash::of(&host.invite_key())),
                &profile.to_json(),
                spectator_chat,
                first_dealer.0,
            )
            .await?;
        if let Some(control) = &clock {
            let info = ClockInfo {
                control: control.clone(),
                paused: false,
                away: Vec::new(),
            };
            self.store.set_clock(no, &info).await?;
        }
        if practice {
            self.store.set_practice(no).await?;
        }
        let table = Table::new(
            no,
            NewTable {
                host: TokenHash::of(&host),
                invite: TokenHash::of(&host.invite_key()),
                profile,
                spectator_chat,
                first_dealer,
            },
            self.store.clone(),
            self.limits.clone(),
        )
        .with_clock(clock);
        let table = if practice {
            table.practising(crate::table::machine::Hints::new())
        } else {
            table
        };
        self.tables.spawn(id, no, table);
        METRICS.table_created();
        tracing::info!(table = no, "table created");
        let handle = self.tables.get(&id)?;
        let summary = handle.ask(Command::Summary).await?;
        let id_hex = id.expose();
        let invite = host.invite_key().expose();
        let created = Created {
            invite: format!("{}/t/{id_hex}#invite={invite}", self.base_url),
            watch: format!("{}/t/{id_hex}?watch", self.base_url),
            id: id_hex,
            host_token: host.expose(),
            table: summary,
        };
        Ok((created, no))
    }
}
