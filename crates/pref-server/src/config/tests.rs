//! The shipped settings file against the defaults, and the `PREF_*` variables on top.

use super::*;

#[test]
fn shipped_file_matches_defaults_and_env_wins() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../config/server.toml");
    let text = std::fs::read_to_string(path).unwrap();
    let mut c: Config = toml::from_str(&text).unwrap();
    assert_eq!(c.bind, Config::default().bind);
    assert_eq!(c.limits.max_frame_bytes, Limits::default().max_frame_bytes);
    let (shipped, default) = (&c.limits, Limits::default());
    assert_eq!(
        (
            shipped.analysis_max_record_bytes,
            shipped.analysis_burst,
            shipped.analysis_every_ms
        ),
        (
            default.analysis_max_record_bytes,
            default.analysis_burst,
            default.analysis_every_ms
        )
    );
    c.apply_env(|n| match n {
        "PREF_BIND" => Some("127.0.0.1:0".into()),
        "PREF_QUEUE" => Some("7".into()),
        "PREF_ANALYSIS_MAX_RECORD_BYTES" => Some("1000".into()),
        "PREF_ANALYSIS_BURST" => Some("3".into()),
        "PREF_ANALYSIS_EVERY_MS" => Some("250".into()),
        _ => None,
    })
    .unwrap();
    assert_eq!(c.bind.port(), 0);
    assert_eq!(c.limits.queue, 7);
    assert_eq!(c.limits.analysis_max_record_bytes, 1000);
    assert_eq!(c.limits.analysis_burst, 3);
    assert_eq!(c.limits.analysis_every(), Duration::from_millis(250));
    assert!(c.security.same_origin && c.security.allowed_origins.is_empty());
    c.apply_env(|n| {
        (n == "PREF_ALLOWED_ORIGINS").then(|| " https://a.example, https://b.example ,".into())
    })
    .unwrap();
    assert_eq!(
        c.security.allowed_origins,
        ["https://a.example", "https://b.example"]
    );
    assert_eq!(
        c.database().unwrap(),
        Database::Sqlite(PathBuf::from("data/pref.sqlite3"))
    );
    c.apply_env(|n| (n == "PREF_DATABASE_URL").then(|| "postgres://u@h/db".into()))
        .unwrap();
    assert_eq!(
        c.database().unwrap(),
        Database::Postgres("postgres://u@h/db".into())
    );
    c.apply_env(|n| (n == "PREF_DATABASE_URL").then(|| "mysql://h/db".into()))
        .unwrap();
    assert!(matches!(c.database(), Err(StoreError::Url(_))));
    assert_eq!(
        (c.limits.header_read_timeout(), c.limits.body_read_timeout()),
        (Duration::from_secs(10), Duration::from_secs(30))
    );
    c.apply_env(|n| match n {
        "PREF_HEADER_READ_TIMEOUT_MS" => Some("250".into()),
        "PREF_BODY_READ_TIMEOUT_MS" => Some("0".into()),
        _ => None,
    })
    .unwrap();
    assert_eq!(c.limits.header_read_timeout(), Duration::from_millis(250));
    assert_eq!(c.limits.body_read_timeout(), Duration::from_millis(1));
    let err = c.apply_env(|n| (n == "PREF_HISTORY").then(|| "lots".into()));
    assert!(err.unwrap_err().to_string().contains("PREF_HISTORY"));
}

#[test]
fn the_lifecycle_bots_and_cluster_guards_ship_at_their_defaults_and_env_wins() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../config/server.toml");
    let mut c: Config = toml::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(c.lifecycle, Lifecycle::default());
    assert_eq!(c.bots, crate::thinking::Thinking::default());
    let d = Cluster::default();
    assert_eq!(
        (c.cluster.secret.as_deref(), c.cluster.lookups_per_second),
        (None, d.lookups_per_second)
    );
    assert_eq!(c.cluster.miss_cache_secs, d.miss_cache_secs);
    assert_eq!(c.cluster.forward_send_timeout_ms, d.forward_send_timeout_ms);
    c.apply_env(|n| {
        let value = match n {
            "PREF_LOBBY_IDLE_SECS" => "60",
            "PREF_FINISHED_LINGER_SECS" => "5",
            "PREF_BOT_CORE_SHARE_PERCENT" => "25",
            "PREF_CLUSTER_SECRET" => "s",
            "PREF_LOOKUPS_PER_SECOND" => "7",
            "PREF_MISS_CACHE_SECS" => "8",
            "PREF_FORWARD_SEND_TIMEOUT_MS" => "9",
            _ => return None,
        };
        Some(value.to_owned())
    })
    .unwrap();
    assert_eq!(
        (
            c.lifecycle.lobby_idle_secs,
            c.lifecycle.finished_linger_secs
        ),
        (Secs(60), Secs(5))
    );
    assert_eq!(c.bots.core_share_percent, 25);
    assert_eq!(c.cluster.secret.as_deref(), Some("s"));
    assert_eq!(
        (
            c.cluster.lookups_per_second,
            c.cluster.miss_cache_secs,
            c.cluster.forward_send_timeout_ms
        ),
        (7, Secs(8), Millis(9))
    );
    // An empty secret is no secret.
    c.apply_env(|n| (n == "PREF_CLUSTER_SECRET").then(String::new))
        .unwrap();
    assert_eq!(c.cluster.secret, None);
    let err = c.apply_env(|n| (n == "PREF_BOT_CORE_SHARE_PERCENT").then(|| "half".into()));
    assert!(
        err.unwrap_err()
            .to_string()
            .contains("PREF_BOT_CORE_SHARE_PERCENT")
    );
}

/// The one list of settings names every key of the shipped file and every variable its
/// header and `docs/security.md`'s limits table name, each under the right section.
#[test]
fn the_list_of_settings_is_the_files_keys_and_the_docs_variables() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let file = std::fs::read_to_string(root.join("config/server.toml")).unwrap();
    let mut section = String::new();
    let mut keys = Vec::new();
    for line in file.lines() {
        let line = line.trim();
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            section = format!("{name}.");
        } else if let Some((name, _)) = line.trim_start_matches("# ").split_once(" = ") {
            if name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
            {
                keys.push(format!("{section}{name}"));
            }
        }
    }
    let listed: Vec<&str> = env::SETTINGS.iter().map(|s| s.key).collect();
    let mut sorted_keys = keys.clone();
    sorted_keys.sort();
    let mut sorted_listed = listed.clone();
    sorted_listed.sort_unstable();
    assert_eq!(sorted_keys, sorted_listed, "the file's keys and the list");
    // The file's header gives the rule of the variables' names and its two exceptions.
    for s in env::SETTINGS {
        let name = s.key.rsplit('.').next().unwrap_or(s.key).to_uppercase();
        if s.env != format!("PREF_{name}") {
            assert!(
                file.contains(&format!("# {} is {}", s.key, s.env)),
                "{s:?} is neither PREF_{name} nor named in the file's header"
            );
        }
    }
    // Every row of the limits table pairs its settings with their own variables.
    let doc = std::fs::read_to_string(root.join("docs/security.md")).unwrap();
    let ticked = |cell: &str| -> Vec<String> {
        cell.split('`')
            .skip(1)
            .step_by(2)
            .map(str::to_owned)
            .collect()
    };
    let mut rows = 0;
    for line in doc.lines().filter(|l| l.starts_with("| ")) {
        let cells: Vec<&str> = line.split('|').collect();
        let (Some(keys), Some(vars)) = (cells.get(2), cells.get(3)) else {
            continue;
        };
        let (keys, vars) = (ticked(keys), ticked(vars));
        if vars.is_empty() || !vars.iter().all(|v| v.starts_with("PREF_")) {
            continue;
        }
        assert_eq!(keys.len(), vars.len(), "{line}");
        for (key, var) in keys.iter().zip(&vars) {
            let setting = env::SETTINGS.iter().find(|s| s.key == key);
            assert_eq!(setting.map(|s| s.env), Some(var.as_str()), "{line}");
            rows += 1;
        }
    }
    assert!(rows > 50, "{rows} settings in the limits table");
}
