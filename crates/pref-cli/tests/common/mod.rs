//! Running the `pref` binary over the records of `tests/records/`, for the command tests.
#![allow(dead_code, unreachable_pub)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository's record directory.
pub fn records() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/records")
}

/// The path of record `name` as a string argument.
pub fn path(name: &str) -> String {
    records().join(name).to_string_lossy().into_owned()
}

/// Runs `pref` with `args`: exit status, stdout, stderr.
pub fn pref(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_pref"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}
