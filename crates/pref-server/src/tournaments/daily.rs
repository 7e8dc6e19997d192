//! The server's own tournament, one a day (`tournaments.daily_tournament`, off by default and
//! in the tests): Sochi, bots of the normal level, `tournaments.daily_deals` deals, open for
//! the UTC day. Every node may try to open it; the day is unique in the database, so one
//! does, and the others load it when its link is asked for.

use std::sync::Arc;
use std::time::Duration;

use pref_protocol::{BotLevel, TournamentKind};

use super::{Tournaments, new_row};

/// How often a node looks whether today's tournament is open.
const EVERY: Duration = Duration::from_secs(600);

/// `YYYY-MM-DD` of day `days` since 1970 (the proleptic Gregorian calendar).
pub(crate) fn date(days: i64) -> String {
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

impl Tournaments {
    /// Opens today's tournament unless it is there; whether this call opened it.
    ///
    /// # Errors
    /// The database's, as an API error.
    pub(crate) async fn open_daily(&self, now: i64) -> Result<bool, crate::api::error::ApiError> {
        let day = now.div_euclid(86_400);
        let name = date(day);
        if self
            .list()
            .open
            .iter()
            .any(|t| t.kind == TournamentKind::Daily && t.name.ends_with(&name))
        {
            return Ok(false);
        }
        let row = new_row(
            TournamentKind::Daily,
            Some(name.clone()),
            format!("Daily {name}"),
            "sochi".to_owned(),
            BotLevel::Normal,
            self.settings.daily_deals.max(1),
            (day * 86_400, (day + 1) * 86_400),
            None,
        );
        let made = self.insert(row, None).await?;
        Ok(matches!(made, super::store::Created::Made(_)))
    }

    /// When the setting is on, opens the day's tournament now and then every ten minutes.
    pub(crate) fn daily(tournaments: &Arc<Tournaments>) {
        if !tournaments.settings.daily_tournament {
            return;
        }
        let t = Arc::clone(tournaments);
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(EVERY);
            loop {
                tick.tick().await;
                if let Err(e) = t.open_daily(crate::store::now()).await {
                    tracing::error!(error = %e, "daily tournament not opened");
                }
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::date;

    #[test]
    fn dates_from_days() {
        assert_eq!(date(0), "1970-01-01");
        assert_eq!(date(20_423), "2025-12-01");
        assert_eq!(date(11_016), "2000-02-29");
    }
}
