//! Any bytes given to the record reader: it never panics, and whatever it accepts is written
//! and read back to the same record.
//!
//! `cargo +nightly fuzz run read_record fuzz/corpus/read_record tests/records` from the
//! repository root (the records there are the seed corpus).
#![no_main]

use libfuzzer_sys::fuzz_target;
use pref_core::Record;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(record) = Record::from_json_str(text) {
        let written = record.to_json_string();
        assert_eq!(Record::from_json_str(&written).as_ref(), Ok(&record));
    }
});
