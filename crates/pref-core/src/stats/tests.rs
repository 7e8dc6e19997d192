//! The statistics of hand-built records, against numbers worked out by hand from the rules.

use num_rational::Ratio;

use super::*;

/// Sochi for three, a pool of 10, surrender allowed (factor 3), stopped by agreement after
/// six deals (first hand: seat 0).
const GAME: &str = r#"{
  "format": "pref-record/1",
  "profile": {"preset": "sochi", "pool_target": 10, "surrender": 3},
  "players": ["Anna", "Boris", "Vera"],
  "first_dealer": 2,
  "deals": [
    {"outcome": {"kind": "game", "declarer": 0, "contract": "7H", "whist": [null, "whist", "whist"], "tricks": [7, 2, 1]}},
    {"outcome": {"kind": "raspasy", "tricks": [0, 5, 5]}},
    {"outcome": {"kind": "misere", "declarer": 1, "tricks": [4, 2, 4]}},
    {"outcome": {"kind": "game", "declarer": 2, "contract": "6S", "whist": ["whist", "pass", null], "defence": "closed", "tricks": [1, 1, 8]}},
    {"outcome": {"kind": "surrender", "declarer": 0, "bid": "7S"}},
    {"outcome": {"kind": "game", "declarer": 1, "contract": "8D", "whist": ["whist", null, "whist"], "tricks": [2, 6, 2]}}
  ],
  "stop": "agreed"
}"#;

fn r(n: i64, d: i64) -> Ratio<i64> {
    Ratio::new(n, d)
}

fn level(played: u64, made: u64) -> LevelStats {
    LevelStats { played, made }
}

fn game() -> GameStats {
    let record = Record::from_json_str(GAME).expect("the hand-built record reads");
    of_record(&record).expect("the hand-built record replays")
}

#[test]
fn each_seat_s_totals_are_those_worked_out_by_hand() {
    // Deal 1: Anna makes 7H (R8.1: +4 pool); Boris writes 4·2 = 8, Vera 4·1 = 4 (R8.3).
    // Deal 2: raspasy, Anna's zero +1 pool, Boris and Vera +5 mountain (R8.9).
    // Deal 3: Boris's misère caught with 2 tricks: +20 mountain (R8.8).
    // Deal 4: Vera makes 6S against Anna alone (closed): Anna writes 2·2 = 4 and falls 2
    //         short of the quota 4: +4 mountain (R8.4); Vera +2 pool.
    // Deal 5: Anna surrenders 7S: 3·4 = +12 mountain (R4.5).
    // Deal 6: Boris fails 8D by 2: +12 mountain; Anna and Vera each write 12 consolation
    //         (R8.2) and 6·2 = 12 trick whists (R8.3).
    // Stop (R10.3): pools 5, 0, 2 of 10 add 5, 10, 8 to the mountains 16, 37, 5: 21, 47, 13,
    // average 27. Anna 10·6 + 28 − 12 = 76; Boris −200 + 8 − 48 = −240; Vera 140 + 28 − 4 = 164.
    let g = game();
    let mut levels = [LevelStats::default(); 5];
    levels[1] = level(2, 1);
    let anna = SeatStats {
        games: 1,
        settled: 1,
        deals: 6,
        declared: 2,
        levels,
        misere_played: 0,
        misere_caught: 0,
        whists: 2,
        whists_kept: 1,
        raspasy: 1,
        raspasy_tricks: 0,
        whist_points: 28,
        balance: r(76, 1),
        analysed_deals: 0,
        tricks_lost: 0,
    };
    let mut levels = [LevelStats::default(); 5];
    levels[2] = level(1, 0);
    let boris = SeatStats {
        games: 1,
        settled: 1,
        deals: 6,
        declared: 2,
        levels,
        misere_played: 1,
        misere_caught: 1,
        whists: 1,
        whists_kept: 1,
        raspasy: 1,
        raspasy_tricks: 5,
        whist_points: 8,
        balance: r(-240, 1),
        analysed_deals: 0,
        tricks_lost: 0,
    };
    let mut levels = [LevelStats::default(); 5];
    levels[0] = level(1, 1);
    let vera = SeatStats {
        games: 1,
        settled: 1,
        deals: 6,
        declared: 1,
        levels,
        misere_played: 0,
        misere_caught: 0,
        whists: 2,
        whists_kept: 2,
        raspasy: 1,
        raspasy_tricks: 5,
        whist_points: 28,
        balance: r(164, 1),
        analysed_deals: 0,
        tricks_lost: 0,
    };
    assert_eq!(g.seats, vec![anna, boris, vera]);
    assert_eq!(
        g.settlement,
        Some(vec![r(76, 1), r(-240, 1), r(164, 1)]),
        "R10.3 sums to zero"
    );
}

#[test]
fn shares_and_averages_are_exact_fractions() {
    let anna = game().seats[0].figures();
    assert_eq!(anna.declared_share, Some(r(1, 3)));
    assert_eq!(anna.made_share, [None, Some(r(1, 2)), None, None, None]);
    assert_eq!(anna.misere_caught_share, None, "no misère declared");
    assert_eq!(anna.whist_success, Some(r(1, 2)));
    assert_eq!(anna.raspasy_share, Some(r(1, 6)));
    assert_eq!(anna.raspasy_average_tricks, Some(r(0, 1)));
    assert_eq!(anna.whists_per_deal, Some(r(14, 3)));
    assert_eq!(anna.whists_per_game, Some(r(28, 1)));
    let boris = game().seats[1].figures();
    assert_eq!(boris.misere_caught_share, Some(r(1, 1)));
    assert_eq!(boris.raspasy_average_tricks, Some(r(5, 1)));
    assert_eq!(SeatStats::default().figures().whists_per_game, None);
}

#[test]
fn a_player_s_totals_over_games_add_up_and_the_balance_runs() {
    let g = game();
    // Anna played seat 0 of one game and seat 2 of the same deals another time.
    let mut total = SeatStats::default();
    total.add(&g.seats[0]);
    total.add(&g.seats[2]);
    assert_eq!((total.games, total.deals, total.declared), (2, 12, 3));
    assert_eq!((total.whists, total.whists_kept), (4, 3));
    assert_eq!(total.whist_points, 56);
    assert_eq!(total.balance, r(240, 1));
    assert_eq!(total.figures().whists_per_deal, Some(r(14, 3)));
    assert_eq!(
        running_balance([r(76, 1), r(-240, 1), r(35, 3)]),
        [r(76, 1), r(-164, 1), r(-457, 3)]
    );
}

#[test]
fn a_game_in_progress_has_no_settlement_and_totals_round_trip_as_text() {
    let unfinished = GAME.replace(",\n  \"stop\": \"agreed\"", "");
    let g = of_record(&Record::from_json_str(&unfinished).unwrap()).unwrap();
    assert_eq!(g.settlement, None);
    assert_eq!((g.seats[0].settled, g.seats[0].balance), (0, r(0, 1)));
    assert_eq!(g.seats[0].deals, 6);
    let mut s = game().seats[1].clone();
    s.balance = r(-35, 3);
    let text = serde_json::to_string(&s).unwrap();
    assert!(text.contains(r#""balance":"-35/3""#), "{text}");
    assert_eq!(serde_json::from_str::<SeatStats>(&text).unwrap(), s);
    assert_eq!(ratio_from_text("4/0"), None);
    assert_eq!(ratio_from_text("x"), None);
}

#[test]
fn accuracy_is_the_tricks_lost_per_analysed_deal_and_older_totals_read_without_it() {
    // A record's own figures carry no analysis: the analysis adds it after the game.
    let anna = game().seats[0].clone();
    assert_eq!((anna.analysed_deals, anna.tricks_lost), (0, 0));
    assert_eq!(anna.figures().tricks_lost_per_deal, None);
    // Two games analysed: 3 tricks lost in 4 deals, then 0 in 2 deals.
    let mut total = SeatStats::default();
    for (deals, lost) in [(4, 3), (2, 0)] {
        total.add(&SeatStats {
            analysed_deals: deals,
            tricks_lost: lost,
            ..SeatStats::default()
        });
    }
    assert_eq!(total.figures().tricks_lost_per_deal, Some(r(1, 2)));
    // Totals stored before the analysis was kept read as none analysed.
    let mut text = serde_json::to_value(&anna).unwrap();
    let object = text.as_object_mut().unwrap();
    object.remove("analysed_deals");
    object.remove("tricks_lost");
    assert_eq!(serde_json::from_value::<SeatStats>(text).unwrap(), anna);
}
