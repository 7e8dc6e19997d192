//! The rules guide's data (`GET /api/guide`) against the rules core: every number the guide
//! shows is checked here against the core's own scoring, computed apart from `guide.rs`, and
//! against the exact values of `docs/rules.md` (R3.4, R8, R9.2, R10).
#![allow(missing_docs)]

mod common;

use common::{http, http_text, server};
use pref_core::{
    Outcome, OutcomeKind, PRESETS, Profile, Record, RecordDeal, Seat, Sheet, WhistCall,
};
use serde_json::{Value, json};

fn data() -> &'static Value {
    pref_server::guide::data().expect("the guide's data")
}

fn sheet(s: &Sheet) -> Value {
    json!({ "pool": s.pool(), "mountain": s.mountain(), "whists": s.whist_matrix() })
}

fn whists(w: &str) -> [Option<WhistCall>; 4] {
    let mut out = [None; 4];
    for (i, c) in w.split(' ').enumerate() {
        out[i] = c.parse().ok();
    }
    out
}

fn game(contract: &str, w: &str, tricks: Option<[u8; 4]>) -> Outcome {
    Outcome {
        dark: false,
        no_talon: false,
        players: 3,
        dealer: Seat(2),
        kind: OutcomeKind::Game {
            declarer: Seat(0),
            contract: contract.parse().unwrap(),
            whist: whists(w),
            defence: None,
            talon_units: None,
        },
        tricks,
    }
}

fn alone(p: &Profile, o: &Outcome) -> Sheet {
    let mut s = Sheet::new(3);
    s.record(p, o, 0);
    s
}

#[tokio::test]
async fn the_endpoint_serves_the_guide_data_and_pages() {
    let (addr, _dir) = server("guide", |_| {}).await;
    let (status, body) = http(&addr, "GET", "/api/guide", None, None).await;
    assert_eq!(status, 200);
    assert_eq!(&body, data());
    for page in ["/guide", "/t/00112233445566778899aabbccddeeff/rules"] {
        let (status, html) = http_text(&addr, "GET", page, None, None).await;
        assert_eq!(status, 200, "{page}");
        assert!(html.contains("/js/guide.js"), "{page}: {html}");
    }
}

#[test]
fn r3_4_r6_r8_worked_deal_replayed_seven_three_zero_four_pool_twelve_whists() {
    let d = &data()["deal"];
    // The core's own replay of the same record.
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/records/worked-deal.json"),
    )
    .unwrap();
    let (record, game) = Record::read(&text).unwrap();
    assert_eq!(d["sheet"], sheet(game.sheet()));
    assert_eq!(d["sheet"]["pool"], json!([4, 0, 0]));
    assert_eq!(d["sheet"]["mountain"], json!([0, 0, 0]));
    assert_eq!(
        d["sheet"]["whists"],
        json!([[0, 0, 0], [12, 0, 0], [0, 0, 0]])
    );
    assert_eq!(d["players"], json!(["A", "B", "C"]));
    assert_eq!(d["dealer"], 2);
    assert_eq!(d["first_hand"], 0);
    assert_eq!(d["outcome"]["tricks"], json!([7, 3, 0]));
    assert_eq!(d["outcome"]["contract"], "7H");
    assert_eq!(d["made"], true);

    let Some(RecordDeal::Played { hands, talon, .. }) = record.deals().first() else {
        panic!("a played deal");
    };
    let steps = d["steps"].as_array().unwrap();
    // The deal, nine calls, discard, contract, two whists, ten tricks.
    let kinds: Vec<&str> = steps.iter().map(|s| s["kind"].as_str().unwrap()).collect();
    let mut expected = vec!["deal"];
    expected.extend(["call"; 9]);
    expected.extend(["discard", "declare", "whist", "whist"]);
    expected.extend(["trick"; 10]);
    assert_eq!(kinds, expected);
    let first = &steps[0];
    for (seat, hand) in hands.iter().enumerate() {
        let mut want: Vec<String> = hand.iter().map(ToString::to_string).collect();
        let mut got: Vec<String> = first["hands"][seat]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap().to_owned())
            .collect();
        want.sort();
        got.sort();
        assert_eq!(got, want, "seat {seat} as dealt");
    }
    assert_eq!(first["talon"], json!([talon[0], talon[1]]));
    assert_eq!(first["talon_up"], false);

    // R3.4: A 6♠, B 6♣, C pass, A 6♣ here, B 6♦, A 6♦ here, B 6♥, A 6♥ here, B pass.
    let calls: Vec<(u64, &str, bool)> = steps[9]["calls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["seat"].as_u64().unwrap(),
                c["call"].as_str().unwrap(),
                c["here"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        calls,
        vec![
            (0, "6S", false),
            (1, "6C", false),
            (2, "pass", false),
            (0, "6C", true),
            (1, "6D", false),
            (0, "6D", true),
            (1, "6H", false),
            (0, "6H", true),
            (1, "pass", false),
        ]
    );
    assert_eq!(steps[9]["what"]["won"], true);
    assert_eq!(steps[9]["talon_up"], true);
    assert_eq!(steps[9]["hands"][0].as_array().unwrap().len(), 12);
    assert_eq!(steps[10]["discard"], json!(["7C", "8D"]));
    assert_eq!(steps[10]["hands"][0].as_array().unwrap().len(), 10);
    assert_eq!(steps[11]["contract"], "7H");
    assert_eq!(steps[13]["whists"], json!([null, "whist", "whist"]));

    // Tricks: leaders, cards and winners of worked-example.md, and the running count.
    let table = [
        (0, "AH 7H 8H", 0),
        (0, "KH 9H 8S", 0),
        (0, "7S AS 9S", 1),
        (1, "AC TC 8C", 1),
        (1, "QD 7D AD", 0),
        (0, "QH KS QC", 0),
        (0, "KD TD 9D", 0),
        (0, "9C KC JC", 1),
        (1, "QS JS JH", 0),
        (0, "TH JD TS", 0),
    ];
    let mut count = [0u64; 3];
    for (i, (leader, cards, winner)) in table.iter().enumerate() {
        let s = &steps[14 + i];
        let t = &s["trick"];
        assert_eq!(t["no"], i + 1);
        assert_eq!(t["leader"], *leader, "trick {}", i + 1);
        assert_eq!(t["winner"], *winner, "trick {}", i + 1);
        let got: Vec<&str> = t["cards"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["card"].as_str().unwrap())
            .collect();
        assert_eq!(got.join(" "), *cards, "trick {}", i + 1);
        count[*winner] += 1;
        assert_eq!(s["tricks"], json!(count), "trick {}", i + 1);
        assert_eq!(
            s["hands"][0].as_array().unwrap().len(),
            9 - i,
            "trick {}",
            i + 1
        );
    }
    assert_eq!(count, [7, 3, 0]);
}

#[test]
fn r8_contract_values_and_quotas() {
    let v = &data()["values"];
    assert_eq!(
        v["contracts"],
        json!([
            {"level": 6, "value": 2, "quota": 4},
            {"level": 7, "value": 4, "quota": 2},
            {"level": 8, "value": 6, "quota": 1},
            {"level": 9, "value": 8, "quota": 1},
            {"level": 10, "value": 10, "quota": 1},
        ])
    );
    assert_eq!(v["misere"], 10);
}

/// R8.6: a standing half-whist writes half the quota times the value, 4 whists against 6
/// and against 7, the same as the core scores it.
#[test]
fn r8_6_standing_half_whist_writes_four_against_six_and_seven() {
    let sochi = Profile::sochi();
    let half = &data()["values"]["half_whist"];
    assert_eq!(
        half,
        &json!([{"level": 6, "whists": 4}, {"level": 7, "whists": 4}])
    );
    for (contract, i) in [("6S", 0), ("7S", 1)] {
        let s = alone(&sochi, &game(contract, "- pass half", None));
        assert_eq!(half[i]["whists"], s.whist_matrix()[2][0], "{contract}");
    }
}

/// R8.9: with the amnesty agreed, 4–3–3 is written as 1–0–0 and earns nobody the zero bonus.
#[test]
fn r8_9_raspasy_amnesty_four_three_three_is_one_zero_zero() {
    let a = &data()["amnesty"];
    assert_eq!(a["tricks"], json!([4, 3, 3]));
    assert_eq!(a["sheet"]["mountain"], json!([1, 0, 0]));
    assert_eq!(a["sheet"]["pool"], json!([0, 0, 0]));
    let profile = Profile::sochi().with("raspasy_amnesty", true).unwrap();
    let raspasy = Outcome {
        dark: false,
        no_talon: false,
        players: 3,
        dealer: Seat(2),
        kind: OutcomeKind::Raspasy,
        tricks: Some([4, 3, 3, 0]),
    };
    assert_eq!(a["sheet"], sheet(&alone(&profile, &raspasy)));
}

/// The examples of `worked-example.md` with their exact entries; each is also checked
/// against the core scoring the same outcome.
#[test]
fn r8_r9_2_scoring_examples_exact() {
    let sochi = Profile::sochi();
    let ex = data()["examples"].as_array().unwrap();
    let by_id = |id: &str| ex.iter().find(|e| e["id"] == id).unwrap();
    let w = |pool: [i64; 3], mountain: [i64; 3], on_a: [i64; 3]| {
        json!({ "pool": pool, "mountain": mountain,
                "whists": [[0, 0, 0], [on_a[1], 0, 0], [on_a[2], 0, 0]] })
    };
    let cases = [
        (
            "ex1",
            game("7H", "- whist whist", Some([7, 2, 1, 0])),
            w([4, 0, 0], [0, 0, 0], [0, 8, 4]),
        ),
        (
            "ex2",
            game("7H", "- whist whist", Some([6, 3, 1, 0])),
            w([0, 0, 0], [4, 0, 0], [0, 16, 8]),
        ),
        (
            "ex3",
            game("6C", "- whist whist", Some([8, 2, 0, 0])),
            w([2, 0, 0], [0, 0, 4], [0, 4, 0]),
        ),
        (
            "ex4",
            game("6S", "- whist pass", Some([5, 3, 2, 0])),
            w([0, 0, 0], [2, 0, 0], [0, 12, 2]),
        ),
    ];
    for (id, outcome, want) in &cases {
        let e = by_id(id);
        assert_eq!(&e["sheet"], want, "{id}");
        assert_eq!(e["sheet"], sheet(&alone(&sochi, outcome)), "{id}");
    }
    let raspasy = Outcome {
        dark: false,
        no_talon: false,
        players: 3,
        dealer: Seat(2),
        kind: OutcomeKind::Raspasy,
        tricks: Some([0, 5, 5, 0]),
    };
    assert_eq!(by_id("ex6")["sheet"], w([1, 0, 0], [0, 5, 5], [0, 0, 0]));
    assert_eq!(by_id("ex6")["sheet"], sheet(&alone(&sochi, &raspasy)));
    let misere = Outcome {
        dark: false,
        no_talon: false,
        players: 3,
        dealer: Seat(2),
        kind: OutcomeKind::Misere { declarer: Seat(0) },
        tricks: Some([2, 4, 4, 0]),
    };
    assert_eq!(by_id("ex7")["sheet"], w([0, 0, 0], [20, 0, 0], [0, 0, 0]));
    assert_eq!(by_id("ex7")["sheet"], sheet(&alone(&sochi, &misere)));

    // Example 5 (R9.2): 19, 17, 14; A makes an 8: 20, 20, 16; 30 whists on B, 20 on C.
    let five = by_id("ex5");
    assert_eq!(five["before"]["pool"], json!([19, 17, 14]));
    assert_eq!(five["sheet"]["pool"], json!([20, 20, 16]));
    let before = &five["before"]["whists"];
    let after = &five["sheet"]["whists"];
    let delta = |a: usize, b: usize| after[a][b].as_i64().unwrap() - before[a][b].as_i64().unwrap();
    assert_eq!((delta(0, 1), delta(0, 2)), (30, 20));
    assert_eq!(five["outcome"]["value"], 6);
    let ids: Vec<&str> = ex.iter().map(|e| e["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["ex1", "ex2", "ex3", "ex4", "ex5", "ex6", "ex7"]);
}

#[test]
fn r8_3_to_r8_7_whist_cases() {
    let sochi = Profile::sochi();
    let cases = data()["cases"].as_array().unwrap();
    let want = [
        (
            "both_made",
            "7H",
            "- whist whist",
            Some([7, 2, 1, 0]),
            [4, 0, 0],
            [0, 0, 0],
            [0, 8, 4],
        ),
        (
            "both_failed",
            "7H",
            "- whist whist",
            Some([6, 3, 1, 0]),
            [0, 0, 0],
            [4, 0, 0],
            [0, 16, 8],
        ),
        (
            "both_short",
            "6C",
            "- whist whist",
            Some([8, 2, 0, 0]),
            [2, 0, 0],
            [0, 0, 4],
            [0, 4, 0],
        ),
        (
            "both_short_high",
            "8S",
            "- whist whist",
            Some([10, 0, 0, 0]),
            [6, 0, 0],
            [0, 0, 6],
            [0, 0, 0],
        ),
        (
            "lone_made",
            "6S",
            "- whist pass",
            Some([6, 3, 1, 0]),
            [2, 0, 0],
            [0, 0, 0],
            [0, 8, 0],
        ),
        (
            "lone_failed",
            "6S",
            "- whist pass",
            Some([5, 3, 2, 0]),
            [0, 0, 0],
            [2, 0, 0],
            [0, 12, 2],
        ),
        (
            "lone_short",
            "7S",
            "- whist pass",
            Some([9, 1, 0, 0]),
            [4, 0, 0],
            [0, 4, 0],
            [0, 4, 0],
        ),
        (
            "passes",
            "8D",
            "- pass pass",
            None,
            [6, 0, 0],
            [0, 0, 0],
            [0, 0, 0],
        ),
        (
            "half",
            "6S",
            "- pass half",
            None,
            [2, 0, 0],
            [0, 0, 0],
            [0, 0, 4],
        ),
        (
            "returned",
            "6S",
            "- whist half",
            Some([5, 3, 2, 0]),
            [0, 0, 0],
            [2, 0, 0],
            [0, 14, 0],
        ),
    ];
    assert_eq!(cases.len(), want.len());
    for (c, (id, contract, w, tricks, pool, mountain, on_a)) in cases.iter().zip(want) {
        assert_eq!(c["id"], id);
        let expected = json!({ "pool": pool, "mountain": mountain,
            "whists": [[0, 0, 0], [on_a[1], 0, 0], [on_a[2], 0, 0]] });
        assert_eq!(c["sheet"], expected, "{id}");
        assert_eq!(
            c["sheet"],
            sheet(&alone(&sochi, &game(contract, w, tricks))),
            "{id}"
        );
    }
}

#[test]
fn r8_9_raspasy_price_of_each_preset() {
    let r = &data()["raspasy"];
    assert_eq!(r["sochi"]["price"], json!([1, 1, 1, 1]));
    assert_eq!(r["sochi"]["exit"], json!([6, 6, 6, 6]));
    assert_eq!(r["leningrad"]["price"], json!([1, 2, 3, 3]));
    assert_eq!(r["leningrad"]["exit"], json!([6, 7, 8, 8]));
    assert_eq!(r["rostov"]["price"], json!([1, 1, 1, 1]));
    for name in ["sochi", "leningrad", "rostov"] {
        assert_eq!(r[name]["zero_bonus"], 1, "{name}");
    }
}

/// R10.1: the short game of the guide closes every pool; its settlement is the core's, term
/// by term, and sums to zero.
#[test]
fn r10_settlement_example_sums_to_zero() {
    let s = &data()["settlement"];
    assert_eq!(s["sheet"]["pool"], json!([20, 20, 20]));
    assert_eq!(s["sheet"]["mountain"], json!([8, 3, 3]));
    assert_eq!(
        s["sheet"]["whists"],
        json!([[0, 12, 0], [18, 0, 0], [12, 0, 0]])
    );
    assert_eq!(s["mountain_total"], 14);
    let results: Vec<&str> = s["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["result"].as_str().unwrap())
        .collect();
    assert_eq!(results, ["-154/3", "68/3", "86/3"]);
    // avg = 14/3; 10·(avg − mountain) for mountains 8, 3, 3.
    let terms: Vec<(&str, &str)> = s["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["avg"].as_str().unwrap(), r["term"].as_str().unwrap()))
        .collect();
    assert_eq!(
        terms,
        [("14/3", "-100/3"), ("14/3", "50/3"), ("14/3", "50/3")]
    );
    assert_eq!(s["sum"], "0");
    assert_eq!(s["scale"], "10");
    // The same sheet settled by the core.
    let p = Profile::sochi();
    let mut game = pref_core::Game::new(p, Seat(2)).unwrap();
    for d in s["deals"].as_array().unwrap() {
        let o = &d["outcome"];
        let tricks = o["tricks"].as_array().map(|t| {
            let mut out = [0u8; 4];
            for (i, x) in t.iter().enumerate() {
                out[i] = x.as_u64().unwrap() as u8;
            }
            out
        });
        let whist = |o: &Value| {
            let mut out = [None; 4];
            for (i, x) in o["whist"].as_array().unwrap().iter().enumerate() {
                out[i] = x.as_str().map(|c| c.parse::<WhistCall>().unwrap());
            }
            out
        };
        let kind = match o["kind"].as_str().unwrap() {
            "game" => OutcomeKind::Game {
                declarer: Seat(o["declarer"].as_u64().unwrap() as u8),
                contract: o["contract"].as_str().unwrap().parse().unwrap(),
                whist: whist(o),
                defence: o["defence"]
                    .as_str()
                    .map(|d| serde_json::from_value(json!(d)).unwrap()),
                talon_units: None,
            },
            "misere" => OutcomeKind::Misere {
                declarer: Seat(o["declarer"].as_u64().unwrap() as u8),
            },
            "raspasy" => OutcomeKind::Raspasy,
            other => panic!("kind {other}"),
        };
        game.record_outcome(Outcome {
            dark: false,
            no_talon: false,
            players: 3,
            dealer: game.dealer(),
            kind,
            tricks,
        })
        .unwrap();
        assert_eq!(d["sheet"], sheet(game.sheet()));
    }
    assert!(game.is_over());
    let core: Vec<String> = game
        .settlement()
        .unwrap()
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(results, core);
}

#[test]
fn presets_and_the_comparison_are_the_cores() {
    let d = data();
    for name in PRESETS {
        assert_eq!(
            d["presets"][name],
            Profile::preset(name).unwrap().to_json(),
            "{name}"
        );
    }
    assert_eq!(d["compared"], json!(["sochi", "leningrad", "rostov"]));
    let compare = d["compare"].as_array().unwrap();
    let by_id = |id: &str| &compare.iter().find(|e| e["id"] == id).unwrap()["by"];
    // The worked deal's twin, example 1: whists doubled in Leningrad.
    assert_eq!(by_id("ex1")["leningrad"]["whists"][1][0], 16);
    assert_eq!(by_id("ex1")["sochi"]["whists"][1][0], 8);
    // Example 4 in Leningrad: the doubled trick whists (2×5×2) shared, consolation doubled.
    let four = &by_id("ex4")["leningrad"];
    assert_eq!(four["whists"][1][0], 10 + 4);
    assert_eq!(four["whists"][2][0], 10 + 4);
    assert_eq!(four["mountain"], json!([4, 0, 0]));
    // Rostov writes the mountain as 5 whists by each opponent: example 7's 20 → 100 each.
    let seven = &by_id("ex7")["rostov"];
    assert_eq!(seven["mountain"], json!([0, 0, 0]));
    assert_eq!(
        seven["whists"],
        json!([[0, 0, 0], [100, 0, 0], [100, 0, 0]])
    );
    for e in compare {
        for name in ["sochi", "leningrad", "rostov"] {
            assert!(e["by"][name]["pool"].is_array(), "{} {name}", e["id"]);
        }
    }
}
