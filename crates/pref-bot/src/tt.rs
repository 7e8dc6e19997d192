//! The transposition table: a fixed array of two-way buckets, allocated once, so its memory
//! is bounded whatever the search does.
//!
//! Keys are whole positions at trick starts in a rank-compressed form (see
//! `Solver::key`), so an entry is valid for every deal and goal that reaches the same
//! compressed position; a table can be shared by many searches without clearing.

/// One stored position: bounds on the target's tricks from it and the best lead found.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct TtEntry {
    k0: u64,
    k1: u64,
    /// Lower bound on the value.
    pub(crate) lo: u8,
    /// Upper bound on the value.
    pub(crate) hi: u8,
    /// The best lead found, encoded by `Solver::encode_move`.
    pub(crate) best: u8,
    /// Tricks left in the position: deeper entries are kept over shallower ones.
    depth: u8,
    used: bool,
}

/// The table itself.
#[derive(Debug)]
pub(crate) struct Table {
    entries: Vec<TtEntry>,
    /// `64 - bits`: the bucket index is the top bits of the hash.
    shift: u32,
}

impl Table {
    /// A table of `2^bits` entries (at least one bucket of two).
    pub(crate) fn new(bits: u32) -> Table {
        let n = 1usize << bits.max(1);
        Table {
            entries: vec![TtEntry::default(); n],
            shift: 64 - bits.max(1),
        }
    }

    pub(crate) fn bytes(&self) -> usize {
        self.entries.len() * std::mem::size_of::<TtEntry>()
    }

    /// Multiplicative hashing: every key bit reaches the top bits of the product.
    fn bucket(&self, key: u128) -> usize {
        let h = (key as u64 ^ ((key >> 64) as u64).wrapping_mul(0xFF51_AFD7_ED55_8CCD))
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (h >> self.shift) as usize & !1
    }

    fn split(key: u128) -> (u64, u64) {
        (key as u64, (key >> 64) as u64)
    }

    pub(crate) fn probe(&self, key: u128) -> Option<TtEntry> {
        let i = self.bucket(key);
        let (k0, k1) = Table::split(key);
        self.entries[i..i + 2]
            .iter()
            .find(|e| e.used && e.k0 == k0 && e.k1 == k1)
            .copied()
    }

    /// Stores bounds, tightening any bounds already stored for the same key.
    pub(crate) fn store(&mut self, key: u128, lo: u8, hi: u8, best: u8, depth: u8) {
        let i = self.bucket(key);
        let (k0, k1) = Table::split(key);
        let fresh = TtEntry {
            k0,
            k1,
            lo,
            hi,
            best,
            depth,
            used: true,
        };
        let bucket = &mut self.entries[i..i + 2];
        if let Some(e) = bucket
            .iter_mut()
            .find(|e| e.used && e.k0 == k0 && e.k1 == k1)
        {
            e.lo = e.lo.max(lo);
            e.hi = e.hi.min(hi);
            e.best = best;
            return;
        }
        let slot = if !bucket[0].used || (bucket[1].used && bucket[0].depth <= bucket[1].depth) {
            0
        } else {
            1
        };
        bucket[slot] = fresh;
    }
}
