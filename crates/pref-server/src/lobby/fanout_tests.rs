//! The writer against sockets that take every frame, none, or break: what each is sent,
//! in which order, and when one is given up (virtual time).

use std::sync::atomic::{AtomicU64, AtomicUsize};
use std::sync::{Mutex, PoisonError};
use std::task::Waker;

use super::*;

/// What a fake socket was given, and whether it takes frames now.
#[derive(Default)]
struct Wire {
    /// Flushed frames, as text (`close CODE` for a close frame, `ping` for a ping).
    written: Vec<String>,
    /// Taken but not flushed.
    buffered: Vec<String>,
    /// Flushes that wrote something: writes to the client's socket.
    writes: usize,
    /// The client stopped reading: nothing is taken.
    stalled: bool,
    /// The connection broke.
    broken: bool,
    waker: Option<Waker>,
}

#[derive(Clone, Default)]
struct Fake(Arc<Mutex<Wire>>);

impl Fake {
    fn wire(&self) -> std::sync::MutexGuard<'_, Wire> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
    fn written(&self) -> Vec<String> {
        self.wire().written.clone()
    }
    /// Lets the client read again (or stop), waking the writer.
    fn stall(&self, stalled: bool) {
        let mut w = self.wire();
        w.stalled = stalled;
        if let Some(waker) = w.waker.take() {
            waker.wake();
        }
    }
    fn poll_taking(&self, cx: &mut Context<'_>) -> Poll<Result<(), ()>> {
        let mut w = self.wire();
        if w.broken {
            return Poll::Ready(Err(()));
        }
        if w.stalled {
            w.waker = Some(cx.waker().clone());
            return Poll::Pending;
        }
        Poll::Ready(Ok(()))
    }
}

impl Sink<Message> for Fake {
    type Error = ();
    fn poll_ready(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), ()>> {
        self.poll_taking(cx)
    }
    fn start_send(self: Pin<&mut Self>, m: Message) -> Result<(), ()> {
        let text = match m {
            Message::Text(t) => t.to_string(),
            Message::Close(frame) => format!("close {}", frame.map_or(0, |f| f.code)),
            Message::Ping(_) => "ping".to_owned(),
            Message::Pong(_) | Message::Binary(_) => "other".to_owned(),
        };
        self.wire().buffered.push(text);
        Ok(())
    }
    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), ()>> {
        std::task::ready!(self.poll_taking(cx))?;
        let mut w = self.wire();
        let frames = std::mem::take(&mut w.buffered);
        w.writes += usize::from(!frames.is_empty());
        w.written.extend(frames);
        Poll::Ready(Ok(()))
    }
    fn poll_close(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Result<(), ()>> {
        Poll::Ready(Ok(()))
    }
}

/// A lobby of one writer: its last item's number, as its snapshots give it.
struct Lobby {
    outlet: Outlet<Fake>,
    n: Arc<AtomicU64>,
}

impl Lobby {
    fn new() -> Lobby {
        let n = Arc::new(AtomicU64::new(0));
        let at = Arc::clone(&n);
        let snapshots: Snapshots = Arc::new(move || {
            let n = at.load(Ordering::SeqCst);
            Some((n, format!("snapshot {n}").into()))
        });
        let (outlet, writer) = writer(snapshots);
        tokio::spawn(writer);
        Lobby { outlet, n }
    }

    /// The next item, as the follower publishes it (the view first, then the writer).
    fn publish(&self) -> u64 {
        self.publish_step(1)
    }

    /// The next `count` items, published in one step; the last one's number.
    fn publish_step(&self, count: u64) -> u64 {
        let mut step = Vec::new();
        let mut n = 0;
        for _ in 0..count {
            n = self.n.fetch_add(1, Ordering::SeqCst) + 1;
            step.push(Arc::new(News {
                n,
                text: format!("item {n}").into(),
                published: std::time::Instant::now(),
                unwritten: AtomicUsize::new(1),
            }));
        }
        self.outlet.publish(&step.into());
        n
    }

    /// Opens socket `id`; the receiver resolves when the writer gives it up.
    fn open(&self, id: u64) -> (Fake, oneshot::Receiver<()>) {
        let sink = Fake::default();
        let (gone, given_up) = oneshot::channel();
        self.outlet.tell(Control::Open {
            id,
            sink: sink.clone(),
            gone,
        });
        (sink, given_up)
    }
}

/// Lets the writer take everything sent to it.
async fn settle() {
    for _ in 0..10 {
        tokio::task::yield_now().await;
    }
}

/// A lobby with socket 1 open and its snapshot written.
async fn one_socket() -> (Lobby, Fake, oneshot::Receiver<()>) {
    let lobby = Lobby::new();
    let (a, gone) = lobby.open(1);
    settle().await;
    (lobby, a, gone)
}

fn items(from: u64, to: u64) -> Vec<String> {
    (from..=to).map(|n| format!("item {n}")).collect()
}

/// A socket is sent the snapshot first, then exactly the items after it: one opened while
/// an item waits for the writer has that item in its snapshot, not twice.
#[tokio::test(start_paused = true)]
async fn a_socket_gets_its_snapshot_then_exactly_the_items_after_it() {
    let lobby = Lobby::new();
    lobby.publish();
    lobby.publish();
    let (a, _a) = lobby.open(1);
    settle().await;
    assert_eq!(a.written(), ["snapshot 2"]);
    // Item 3 is published before the writer reads that socket 2 opened.
    lobby.publish();
    let (b, _b) = lobby.open(2);
    settle().await;
    lobby.publish();
    settle().await;
    assert_eq!(a.written(), ["snapshot 2", "item 3", "item 4"]);
    assert_eq!(b.written(), ["snapshot 3", "item 4"]);
}

/// A client that stops reading holds back no other socket; past the items a socket may
/// fall behind, its queue is dropped, and once it reads again it gets a new snapshot and
/// every item after it, none missing.
#[tokio::test(start_paused = true)]
async fn a_client_that_stops_reading_holds_back_no_other_and_gets_a_new_snapshot() {
    let lobby = Lobby::new();
    let (slow, _slow) = lobby.open(1);
    let (quick, _quick) = lobby.open(2);
    slow.stall(true);
    settle().await;
    let last = 300;
    for _ in 0..30 {
        for _ in 0..10 {
            lobby.publish();
        }
        settle().await;
    }
    let mut want = vec!["snapshot 0".to_owned()];
    want.extend(items(1, last));
    assert_eq!(quick.written(), want);
    assert!(slow.written().is_empty());
    slow.stall(false);
    settle().await;
    let got = slow.written();
    let first: u64 = got[0]
        .strip_prefix("snapshot ")
        .and_then(|n| n.parse().ok())
        .expect("a snapshot first");
    // It fell more than NEWS behind, so its snapshot is one taken after that.
    assert!(first > NEWS as u64, "{first}");
    assert_eq!(got[1..], items(first + 1, last));
}

/// A socket that takes nothing for the send timeout is given up: its task is told, and
/// the others are still written.
#[tokio::test(start_paused = true)]
async fn a_socket_that_takes_nothing_is_given_up_after_the_timeout() {
    let lobby = Lobby::new();
    let (stuck, mut given_up) = lobby.open(1);
    let (quick, mut fine) = lobby.open(2);
    stuck.stall(true);
    settle().await;
    tokio::time::advance(SEND_TIMEOUT - Duration::from_secs(2)).await;
    settle().await;
    assert!(
        given_up
            .try_recv()
            .is_err_and(|e| e == oneshot::error::TryRecvError::Empty)
    );
    tokio::time::advance(Duration::from_secs(3)).await;
    settle().await;
    assert_eq!(
        given_up.try_recv(),
        Err(oneshot::error::TryRecvError::Closed)
    );
    lobby.publish();
    settle().await;
    assert_eq!(quick.written(), ["snapshot 0", "item 1"]);
    assert_eq!(fine.try_recv(), Err(oneshot::error::TryRecvError::Empty));
    // A broken socket is given up at its next write.
    quick.wire().broken = true;
    lobby.publish();
    settle().await;
    assert_eq!(fine.try_recv(), Err(oneshot::error::TryRecvError::Closed));
}

/// The socket's own frames go out among the items; a resync is a new snapshot; the close
/// frame is the last frame, after which the socket is dropped.
#[tokio::test(start_paused = true)]
async fn own_frames_a_resync_and_the_close_frame() {
    let lobby = Lobby::new();
    let (a, mut a_gone) = lobby.open(1);
    let (b, mut b_gone) = lobby.open(2);
    lobby.publish();
    lobby.outlet.tell(Control::Own {
        id: 1,
        message: Message::Text("waiting".into()),
    });
    settle().await;
    lobby.outlet.tell(Control::Resync { id: 1 });
    lobby.outlet.tell(Control::Own {
        id: 1,
        message: Message::Ping(Default::default()),
    });
    settle().await;
    lobby.outlet.tell(Control::Close {
        id: 1,
        frame: Some(CloseFrame {
            code: 1008,
            reason: "too many messages".into(),
        }),
    });
    lobby.outlet.tell(Control::Close { id: 2, frame: None });
    lobby.publish();
    settle().await;
    assert_eq!(
        a.written(),
        ["snapshot 1", "waiting", "snapshot 1", "ping", "close 1008"]
    );
    assert_eq!(b.written(), ["snapshot 1"]);
    assert_eq!(a_gone.try_recv(), Err(oneshot::error::TryRecvError::Closed));
    assert_eq!(b_gone.try_recv(), Err(oneshot::error::TryRecvError::Closed));
}

/// Items that do not fit in the writer's queue are not lost: every socket is sent a new
/// snapshot, taken after them.
#[tokio::test(start_paused = true)]
async fn items_past_the_writer_s_queue_give_every_socket_a_new_snapshot() {
    let (lobby, a, _a) = one_socket().await;
    let past = u64::try_from(QUEUED).expect("small") + 44;
    for _ in 0..past {
        lobby.publish();
    }
    settle().await;
    assert_eq!(
        a.written(),
        ["snapshot 0".to_owned(), format!("snapshot {past}")]
    );
    lobby.publish();
    settle().await;
    assert_eq!(a.written()[2..], [format!("item {}", past + 1)]);
}

/// A client that sends requests and reads none of the answers is given up.
#[tokio::test(start_paused = true)]
async fn a_client_that_reads_none_of_its_answers_is_given_up() {
    let lobby = Lobby::new();
    let (a, mut gone) = lobby.open(1);
    a.stall(true);
    for _ in 0..OWN {
        lobby.outlet.tell(Control::Own {
            id: 1,
            message: Message::Text("error".into()),
        });
    }
    settle().await;
    assert_eq!(gone.try_recv(), Err(oneshot::error::TryRecvError::Empty));
    lobby.outlet.tell(Control::Own {
        id: 1,
        message: Message::Text("error".into()),
    });
    settle().await;
    assert_eq!(gone.try_recv(), Err(oneshot::error::TryRecvError::Closed));
}

/// A writer that was kept from its core catches up: a socket that reads is given every
/// item it missed, past a socket's bound, not a snapshot.
#[tokio::test(start_paused = true)]
async fn a_writer_catching_up_gives_a_reading_socket_every_item() {
    let (lobby, a, _a) = one_socket().await;
    let behind = u64::try_from(QUEUED).expect("small");
    assert!(behind > NEWS as u64);
    for _ in 0..behind {
        lobby.publish();
    }
    settle().await;
    let mut want = vec!["snapshot 0".to_owned()];
    want.extend(items(1, behind));
    assert_eq!(a.written(), want);
}

/// The items of one step of the follower go to each socket in one write.
#[tokio::test(start_paused = true)]
async fn a_step_s_items_are_one_write_to_each_socket() {
    let (lobby, a, _a) = one_socket().await;
    let (b, _b) = lobby.open(2);
    settle().await;
    lobby.publish_step(3);
    settle().await;
    lobby.publish();
    settle().await;
    for (socket, snapshot) in [(&a, "snapshot 0"), (&b, "snapshot 0")] {
        let mut want = vec![snapshot.to_owned()];
        want.extend(items(1, 4));
        assert_eq!(socket.written(), want);
        // The snapshot, the step of three, the step of one.
        assert_eq!(socket.wire().writes, 3);
    }
}
