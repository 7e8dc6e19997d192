//! Open WebSockets counted per client address, per table and per seat token, each with a
//! cap (`limits.max_conns_per_ip`, `…_per_table`, `…_per_token`): one client cannot hold
//! every descriptor of the node, fill one table with subscribers, or open a hundred sockets
//! on one seat. A socket is admitted before its upgrade and counted until its
//! [`ConnGuard`] drops, however it ends. The client is counted by its [`ClientKey`]
//! (`client.rs`), and a socket this node forwards to the table's node is counted here
//! under its client too ([`Conns::admit_forwarded`]): it holds this node's descriptors.
//!
//! A scorekeeping sheet's event stream (`GET /api/keeper/{id}/events`) is held open as long
//! as a socket, so it is counted here too: per client address, per sheet and on the whole
//! node (`limits.max_streams_per_ip`, `…_per_sheet`, `limits.max_streams`), admitted before
//! the stream's first byte and counted until the stream ends.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use crate::api::client::ClientKey;
use crate::config::Limits;
use crate::ids::{Secret, TokenHash};

/// What a socket is counted under.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Key {
    /// The client.
    Ip(ClientKey),
    /// The table.
    Table(Secret),
    /// A seat token at a table.
    Token(Secret, TokenHash),
    /// Sheet streams from the client's address.
    StreamIp(ClientKey),
    /// Streams on one sheet.
    Sheet(Secret),
    /// Every sheet stream of the node.
    Streams,
    /// Lobby sockets from the client's address.
    Lobby(ClientKey),
}

/// Which cap refused a socket.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    /// Too many sockets from one address.
    #[error("too many connections from this address")]
    Ip,
    /// Too many sockets on one table.
    #[error("too many connections to this table")]
    Table,
    /// Too many sockets on one seat token.
    #[error("too many connections with this seat token")]
    Token,
    /// Too many sheet streams from one address.
    #[error("too many sheet streams from this address")]
    StreamIp,
    /// Too many streams on one sheet.
    #[error("too many streams on this sheet")]
    Sheet,
    /// The node holds as many sheet streams as it may.
    #[error("the server holds as many sheet streams as it may; try again later")]
    Streams,
}

/// The counts of open sockets; shared by every connection of the node.
#[derive(Debug, Default)]
pub struct Conns {
    counts: Mutex<HashMap<Key, usize>>,
}

/// Holds a socket's places in the counts; dropping it gives them back.
#[derive(Debug)]
pub struct ConnGuard {
    conns: Arc<Conns>,
    keys: Vec<Key>,
}

impl Conns {
    /// Counts a socket from `client` to `table` with seat `token`, unless a cap is reached
    /// (nothing is counted then).
    ///
    /// # Errors
    /// [`Refused`] naming the cap.
    pub fn admit(
        self: &Arc<Self>,
        limits: &Limits,
        client: Option<ClientKey>,
        table: Secret,
        token: Option<&Secret>,
    ) -> Result<ConnGuard, Refused> {
        let mut wanted = vec![(
            Key::Table(table),
            limits.max_conns_per_table,
            Refused::Table,
        )];
        if let Some(c) = client {
            wanted.push((Key::Ip(c), limits.max_conns_per_ip, Refused::Ip));
        }
        if let Some(t) = token {
            let key = Key::Token(table, TokenHash::of(t));
            wanted.push((key, limits.max_conns_per_token, Refused::Token));
        }
        self.count(wanted)
    }

    /// Counts a lobby socket from `client`, at most `cap` at once from one client
    /// (`lobby.lobby_sockets_per_ip`), unless that is reached (nothing is counted then).
    ///
    /// # Errors
    /// [`Refused::Ip`], for the lobby's own count.
    pub fn admit_lobby(
        self: &Arc<Self>,
        cap: usize,
        client: Option<ClientKey>,
    ) -> Result<ConnGuard, Refused> {
        let wanted = client
            .map(|c| (Key::Lobby(c), cap, Refused::Ip))
            .into_iter()
            .collect();
        self.count(wanted)
    }

    /// Counts an event stream from `client` on `sheet`, unless a cap is reached (nothing is
    /// counted then).
    ///
    /// # Errors
    /// [`Refused`] naming the cap: [`Refused::StreamIp`], [`Refused::Sheet`] or
    /// [`Refused::Streams`].
    pub fn admit_stream(
        self: &Arc<Self>,
        limits: &Limits,
        client: Option<ClientKey>,
        sheet: Secret,
    ) -> Result<ConnGuard, Refused> {
        let mut wanted = vec![
            (Key::Streams, limits.max_streams, Refused::Streams),
            (
                Key::Sheet(sheet),
                limits.max_streams_per_sheet,
                Refused::Sheet,
            ),
        ];
        if let Some(client) = client {
            wanted.push((
                Key::StreamIp(client),
                limits.max_streams_per_ip,
                Refused::StreamIp,
            ));
        }
        self.count(wanted)
    }

    /// Counts a socket this node forwards for `client` to the node serving its table: under
    /// the client's cap only (the table's node counts the table and the seat).
    ///
    /// # Errors
    /// [`Refused::Ip`] when the client holds its cap of sockets here.
    pub fn admit_forwarded(
        self: &Arc<Self>,
        limits: &Limits,
        client: Option<ClientKey>,
    ) -> Result<ConnGuard, Refused> {
        let wanted = client
            .map(|c| (Key::Ip(c), limits.max_conns_per_ip, Refused::Ip))
            .into_iter()
            .collect();
        self.count(wanted)
    }

    /// Counts one connection under every key of `wanted`, or none if one is at its cap.
    fn count(self: &Arc<Self>, wanted: Vec<(Key, usize, Refused)>) -> Result<ConnGuard, Refused> {
        let mut counts = self.counts.lock().unwrap_or_else(PoisonError::into_inner);
        for (key, cap, refused) in &wanted {
            if counts.get(key).copied().unwrap_or(0) >= *cap {
                return Err(*refused);
            }
        }
        for (key, _, _) in &wanted {
            *counts.entry(*key).or_insert(0) += 1;
        }
        Ok(ConnGuard {
            conns: Arc::clone(self),
            keys: wanted.into_iter().map(|(k, _, _)| k).collect(),
        })
    }

    /// Sockets counted under every key together (for tests).
    #[cfg(test)]
    fn total(&self) -> usize {
        self.counts
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .values()
            .sum()
    }
}

impl Drop for ConnGuard {
    fn drop(&mut self) {
        let mut counts = self
            .conns
            .counts
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        for key in &self.keys {
            if let Some(n) = counts.get_mut(key) {
                *n -= 1;
                if *n == 0 {
                    counts.remove(key);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(ip: usize, table: usize, token: usize) -> Limits {
        Limits {
            max_conns_per_ip: ip,
            max_conns_per_table: table,
            max_conns_per_token: token,
            ..Limits::default()
        }
    }

    #[test]
    fn each_cap_refuses_the_socket_over_it_and_a_closed_socket_gives_its_place_back() {
        let conns = Arc::new(Conns::default());
        let l = limits(3, 4, 2);
        let (a, b) = (Secret::random(), Secret::random());
        let ip = ClientKey::of([10, 0, 0, 1].into());
        let other = ClientKey::of([10, 0, 0, 2].into());
        let token = Secret::random();
        // Two sockets on one token, a third refused by the token cap.
        let t1 = conns.admit(&l, Some(ip), a, Some(&token)).unwrap();
        let t2 = conns.admit(&l, Some(ip), a, Some(&token)).unwrap();
        assert_eq!(
            conns.admit(&l, Some(other), a, Some(&token)).unwrap_err(),
            Refused::Token
        );
        // The same token at another table is another seat.
        let s3 = conns.admit(&l, Some(ip), b, Some(&token)).unwrap();
        // The address has three sockets: a fourth is refused, from it only.
        assert_eq!(conns.admit(&l, Some(ip), b, None).unwrap_err(), Refused::Ip);
        let s4 = conns.admit(&l, Some(other), a, None).unwrap();
        let s5 = conns.admit(&l, Some(other), a, None).unwrap();
        // Table a holds four sockets: its cap.
        assert_eq!(
            conns
                .admit(&l, Some(ClientKey::of([10, 0, 0, 3].into())), a, None)
                .unwrap_err(),
            Refused::Table
        );
        // A refused socket counted nothing: 5 sockets, 3 keys each for t1, t2, s3.
        assert_eq!(conns.total(), 3 * 3 + 2 * 2);
        drop(t1);
        let again = conns.admit(&l, Some(ip), a, Some(&token)).unwrap();
        for g in [t2, s3, s4, s5, again] {
            drop(g);
        }
        assert_eq!(conns.total(), 0);
        assert!(conns.counts.lock().unwrap().is_empty());
    }

    #[test]
    fn sheet_streams_are_capped_per_address_per_sheet_and_on_the_node() {
        let conns = Arc::new(Conns::default());
        let l = Limits {
            max_streams_per_ip: 2,
            max_streams_per_sheet: 3,
            max_streams: 4,
            max_conns_per_ip: 1,
            ..Limits::default()
        };
        let (a, b) = (Secret::random(), Secret::random());
        let ip = |n: u8| Some(ClientKey::of([10, 0, 0, n].into()));
        let s1 = conns.admit_stream(&l, ip(1), a).unwrap();
        let s2 = conns.admit_stream(&l, ip(1), a).unwrap();
        assert_eq!(
            conns.admit_stream(&l, ip(1), b).unwrap_err(),
            Refused::StreamIp
        );
        // Streams are counted apart from sockets: the address may still open its socket.
        let socket = conns.admit(&l, ip(1), a, None).unwrap();
        let s3 = conns.admit_stream(&l, ip(2), a).unwrap();
        assert_eq!(
            conns.admit_stream(&l, ip(3), a).unwrap_err(),
            Refused::Sheet
        );
        let s4 = conns.admit_stream(&l, ip(3), b).unwrap();
        assert_eq!(
            conns.admit_stream(&l, ip(4), b).unwrap_err(),
            Refused::Streams
        );
        drop(s1);
        let again = conns.admit_stream(&l, ip(4), b).unwrap();
        for g in [s2, s3, s4, again, socket] {
            drop(g);
        }
        assert!(conns.counts.lock().unwrap().is_empty());
    }

    #[test]
    fn a_forwarded_socket_counts_under_its_client_s_cap_here() {
        let conns = Arc::new(Conns::default());
        let l = limits(2, 4, 2);
        let ip = ClientKey::of([10, 0, 0, 1].into());
        let away = conns.admit_forwarded(&l, Some(ip)).unwrap();
        let here = conns.admit(&l, Some(ip), Secret::random(), None).unwrap();
        // Two sockets of the client, one forwarded: a third is refused, forwarded or not.
        assert_eq!(
            conns.admit_forwarded(&l, Some(ip)).unwrap_err(),
            Refused::Ip
        );
        assert_eq!(
            conns
                .admit(&l, Some(ip), Secret::random(), None)
                .unwrap_err(),
            Refused::Ip
        );
        drop(away);
        let again = conns.admit_forwarded(&l, Some(ip)).unwrap();
        drop((here, again));
        assert_eq!(conns.total(), 0);
    }
}
