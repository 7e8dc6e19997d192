//! Texts the server carries inside its own crate, so that the library reads no file outside
//! itself at compile or run time: the protocol document it serves at `/api/protocol`, and
//! the worked deal the rules guide replays. Each is a copy of a repository file, and a test
//! fails as soon as the two differ.

/// `docs/protocol.md`, served as the protocol's reference.
pub(crate) const PROTOCOL_MD: &str = include_str!("../data/protocol.md");

/// `tests/records/worked-deal.json`: the worked deal of `docs/worked-example.md` as a game
/// record.
pub(crate) const WORKED_DEAL_JSON: &str = include_str!("../data/worked-deal.json");

#[cfg(test)]
mod tests {
    use super::*;

    /// The repository's file `path`.
    fn repo_file(path: &str) -> String {
        let full = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../..")
            .join(path);
        std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()))
    }

    #[test]
    fn the_copies_equal_the_repository_files() {
        assert!(
            PROTOCOL_MD == repo_file("docs/protocol.md"),
            "crates/pref-server/data/protocol.md differs from docs/protocol.md: copy it again"
        );
        assert!(
            WORKED_DEAL_JSON == repo_file("tests/records/worked-deal.json"),
            "crates/pref-server/data/worked-deal.json differs from tests/records/worked-deal.json: copy it again"
        );
    }
}
