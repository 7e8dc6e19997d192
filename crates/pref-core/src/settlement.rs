//! R10: turning a sheet into each player's result in whists, in exact rationals (the mean
//! mountain is a third or a quarter), and the agreed early stop of R10.3.

use num_rational::Ratio;

use crate::bid::Seat;
use crate::line::{Column, Line, Why};
use crate::profile::Profile;
use crate::sheet::Sheet;

impl Sheet {
    /// Each seat's result in whists (R10.1): `10·(avg − mountain) + whists written − whists
    /// received`. With `agreed`, R10.3 first charges every pool below target, on a copy: the
    /// sheet itself is unchanged. The results sum to exactly zero.
    #[must_use]
    pub fn settlement(&self, profile: &Profile, agreed: bool) -> Vec<Ratio<i64>> {
        let mut sheet = self.clone();
        if agreed {
            sheet.open_pool_charges(profile);
        }
        let n = sheet.pool().len();
        let mountain = sheet.mountain();
        let avg = Ratio::new(mountain.iter().sum::<i64>(), n as i64);
        let w = sheet.whist_matrix();
        (0..n)
            .map(|p| {
                let written: i64 = w[p].iter().sum();
                let received: i64 = w.iter().map(|row| row[p]).sum();
                (avg - mountain[p]) * 10 + (written - received)
            })
            .collect()
    }

    /// The lines R10.3 adds to this sheet for an agreed early stop (a settlement's own
    /// column: the sheet as recorded does not change); empty when every pool is closed.
    #[must_use]
    pub fn agreed_stop_lines(&self, profile: &Profile) -> Vec<Line> {
        self.clone().open_pool_charges(profile)
    }

    /// R10.3: each pool below target adds `(T − pool) · pool_point_whists / 10` to its
    /// owner's mountain (written as whists under `mountain_as_whists`).
    fn open_pool_charges(&mut self, profile: &Profile) -> Vec<Line> {
        let target = i64::from(profile.pool_target());
        let missing: Vec<i64> = self.pool().iter().map(|&p| (target - p).max(0)).collect();
        let mut written = Vec::new();
        for (s, missing) in missing.into_iter().enumerate() {
            let m = missing * i64::from(profile.pool_point_whists()) / 10;
            if m != 0 {
                let seat = Seat(s as u8);
                let line = Line::new(seat, Column::Mountain, m, Why::OpenPool { missing });
                self.add_mountain(profile, line, &mut written);
            }
        }
        written
    }
}
