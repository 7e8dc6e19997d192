//! Nothing to build: this crate holds the browser tests of `web/` (see `tests/`).
