//! The transposition table: a fixed array of four-way buckets, allocated once, so its memory
//! is bounded whatever the search does.
//!
//! Keys are whole positions at trick starts in a rank-compressed form (see
//! `Solver::key`), so an entry is valid for every deal and goal that reaches the same
//! compressed position; a table can be shared by many searches without clearing.
//!
//! A probe costs one cache miss at most: an entry is 16 bytes (the whole 96-bit key, so a
//! hit is never a collision) and a bucket of four is one aligned 64-byte cache line.

/// The `best` lead of an entry whose search found no move better than the others (every
/// move failed low for its player): a hint of no worth.
pub(crate) const NO_MOVE: u8 = 0xFF;

/// One stored position: bounds on the target's tricks from it and the best lead found.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct TtEntry {
    /// The key's low 64 bits; 0 with `k1` 0 marks an empty slot (no stored key is 0: a
    /// stored position has cards).
    k0: u64,
    /// The key's bits 64..96.
    k1: u32,
    /// Lower bound on the value (low nibble) and upper bound (high nibble).
    bounds: u8,
    /// The best lead found, encoded by `Solver::encode_move`.
    pub(crate) best: u8,
    /// Tricks left in the position: deeper entries are kept over shallower ones.
    depth: u8,
    /// The search that stored or last tightened the entry: older ones are replaced first.
    generation: u8,
}

impl TtEntry {
    /// Lower bound on the value.
    pub(crate) fn lo(&self) -> u8 {
        self.bounds & 15
    }

    /// Upper bound on the value.
    pub(crate) fn hi(&self) -> u8 {
        self.bounds >> 4
    }
}

/// Four entries in one cache line.
#[derive(Clone, Copy, Debug, Default)]
#[repr(align(64))]
struct Bucket([TtEntry; 4]);

/// The table itself.
#[derive(Debug)]
pub(crate) struct Table {
    buckets: Vec<Bucket>,
    /// `64 - log2(buckets)`: the bucket index is the top bits of the hash.
    shift: u32,
    generation: u8,
}

impl Table {
    /// A table of `2^bits` entries (at least one bucket of four).
    pub(crate) fn new(bits: u32) -> Table {
        let bucket_bits = bits.max(2) - 2;
        Table {
            buckets: vec![Bucket::default(); 1 << bucket_bits],
            shift: 64 - bucket_bits,
            generation: 1,
        }
    }

    pub(crate) fn bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    /// Starts a new search: entries stored from now on are preferred over older ones when
    /// a bucket is full.
    pub(crate) fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1).max(1);
    }

    /// Multiplicative hashing: every key bit reaches the top bits of the product.
    fn bucket(&self, key: u128) -> usize {
        let h = (key as u64 ^ ((key >> 64) as u64).wrapping_mul(0xFF51_AFD7_ED55_8CCD))
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        // `checked_shr`: a table of one bucket shifts by 64.
        h.checked_shr(self.shift).unwrap_or(0) as usize
    }

    fn split(key: u128) -> (u64, u32) {
        debug_assert!(key >> 96 == 0 && key != 0, "keys are 96-bit and never 0");
        (key as u64, (key >> 64) as u32)
    }

    pub(crate) fn probe(&self, key: u128) -> Option<TtEntry> {
        let (k0, k1) = Table::split(key);
        self.buckets[self.bucket(key)]
            .0
            .iter()
            .find(|e| e.k0 == k0 && e.k1 == k1)
            .copied()
    }

    /// Stores bounds, tightening any bounds already stored for the same key.
    /// `best` is [`NO_MOVE`] when the search found no move better than the others: an entry
    /// already holding a lead then keeps it.
    pub(crate) fn store(&mut self, key: u128, lo: u8, hi: u8, best: u8, depth: u8) {
        let (k0, k1) = Table::split(key);
        let generation = self.generation;
        let i = self.bucket(key);
        let bucket = &mut self.buckets[i].0;
        if let Some(e) = bucket.iter_mut().find(|e| e.k0 == k0 && e.k1 == k1) {
            e.bounds = e.lo().max(lo) | e.hi().min(hi) << 4;
            if best != NO_MOVE {
                e.best = best;
            }
            e.generation = generation;
            return;
        }
        // The victim: an empty slot, else one from an older search, else the shallowest.
        let worth = |e: &TtEntry| {
            if e.generation == 0 {
                0
            } else {
                1 + u32::from(e.generation == generation) * 16 + u32::from(e.depth)
            }
        };
        let mut slot = 0;
        for j in 1..4 {
            if worth(&bucket[j]) < worth(&bucket[slot]) {
                slot = j;
            }
        }
        bucket[slot] = TtEntry {
            k0,
            k1,
            bounds: lo | hi << 4,
            best,
            depth,
            generation,
        };
    }
}
