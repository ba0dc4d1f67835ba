//! One point-to-point query of a contraction hierarchy by one thread, in a
//! fixed amount of memory of its own: the batched pairs of the GPU
//! (`pair_query_u32` and `pair_query_f32`), and the same code on the host
//! for the tests and for sizing that memory.
//!
//! The search is the CPU's bidirectional query (`sssp::ch::query`): forward
//! over the up arcs from the source, backward over the down arcs from the
//! target, the queue with the smaller key first, both stopped once that key
//! reaches the best meeting distance, stall on demand with `u32` weights.
//! What differs is the memory. A thread cannot keep a distance per vertex,
//! so the vertices a query reaches live in a hash table of
//! `[epoch, vertex, forward distance, backward distance]` entries (open
//! addressing, linear probing). An entry belongs to the current query when
//! its epoch is the query's, so a new query starts with a new epoch instead
//! of clearing the table. Each search's queue is a 4-ary heap of
//! `(distance, entry)` keys packed in a `u64`, whose entries left behind by
//! a later decrease are dropped when they surface.
//!
//! A GPU thread answers its pairs through one [`Queries`], advanced one
//! settled vertex at a time, in one flat loop that starts the thread's next
//! pair as soon as the last has ended: the threads of a warp then run the
//! same loop body together instead of waiting for the warp's longest query
//! (with a loop per query, a warp had 2 to 4 of its 32 threads active on
//! average, measured).
//!
//! When a query needs more entries than the table holds (three quarters of
//! it, to keep probes short) or more keys than a heap holds, it stops and
//! says so ([`Outcome::Overflow`]); the host answers that pair itself. A
//! full table never gives a wrong distance.

use crate::distance::{INFINITY, Weight};

/// One direction's upward arcs, grouped by their lower position: up arcs
/// `v → u` (forward) or down arcs `u → v` stored at `v` (backward), `u`
/// always higher than `v`.
#[derive(Clone, Copy)]
pub struct UpwardArcs<'a> {
    /// Row offsets, `n + 1`.
    pub offsets: &'a [u32],
    /// The arcs' higher ends.
    pub ends: &'a [u32],
    /// The arcs' weight words.
    pub weights: &'a [u32],
}

impl UpwardArcs<'_> {
    /// The arcs of position `v`.
    #[inline(always)]
    fn row(&self, v: u32) -> core::ops::Range<usize> {
        self.offsets[v as usize] as usize..self.offsets[v as usize + 1] as usize
    }
}

/// A table entry: `[epoch, vertex, forward distance, backward distance]`.
pub type Entry = [u32; 4];

/// A thread's memory for its queries.
pub struct Scratch<'a> {
    /// The hash table, a power of two of entries (2 at least); all zero
    /// before the first query (epoch 0 is never a query's).
    pub table: &'a mut [Entry],
    /// The two searches' heaps, forward then backward.
    pub heaps: [&'a mut [u64]; 2],
}

/// The answer of [`query`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The distance word, [`INFINITY`] when the target is unreachable.
    Distance(u32),
    /// The query needed more memory than the scratch holds.
    Overflow,
}

/// The most memory a query used: table entries, and keys in one heap.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Usage {
    /// Table entries.
    pub entries: u32,
    /// Keys in the fuller heap.
    pub keys: u32,
}

/// Multiplier of the table's hash (Fibonacci hashing: its top bits).
const HASH: u32 = 0x9E37_79B1;

/// The entries a table of `len` entries takes before a query overflows.
#[inline(always)]
pub const fn entry_limit(len: usize) -> usize {
    len / 4 * 3
}

/// The search state of one query over a [`Scratch`].
struct Search<'s, 'a> {
    scratch: &'s mut Scratch<'a>,
    epoch: u32,
    shift: u32,
    mask: usize,
    entries: usize,
    limit: usize,
    lens: [usize; 2],
    usage: Usage,
}

/// The query overflowed its scratch.
struct Full;

impl Search<'_, '_> {
    /// The entry of `v`, if the query has reached it.
    #[inline(always)]
    fn find(&self, v: u32) -> Option<usize> {
        let mut at = (v.wrapping_mul(HASH) >> self.shift) as usize;
        loop {
            let entry = &self.scratch.table[at];
            if entry[0] != self.epoch {
                return None;
            }
            if entry[1] == v {
                return Some(at);
            }
            at = (at + 1) & self.mask;
        }
    }

    /// The entry of `v`, made (unreached both ways) if the query has not
    /// reached it yet.
    #[inline(always)]
    fn entry(&mut self, v: u32) -> Result<usize, Full> {
        let mut at = (v.wrapping_mul(HASH) >> self.shift) as usize;
        loop {
            let entry = &mut self.scratch.table[at];
            if entry[0] != self.epoch {
                if self.entries == self.limit {
                    return Err(Full);
                }
                self.entries += 1;
                self.usage.entries = self.usage.entries.max(self.entries as u32);
                *entry = [self.epoch, v, INFINITY, INFINITY];
                return Ok(at);
            }
            if entry[1] == v {
                return Ok(at);
            }
            at = (at + 1) & self.mask;
        }
    }

    /// The distance of `v` in search `dir` so far.
    #[inline(always)]
    fn dist(&self, dir: usize, v: u32) -> u32 {
        self.find(v)
            .map_or(INFINITY, |at| self.scratch.table[at][2 + dir])
    }

    /// Lowers the distance of `v` in search `dir` to `candidate` if that is
    /// smaller.
    #[inline(always)]
    fn relax(&mut self, dir: usize, v: u32, candidate: u32) -> Result<(), Full> {
        let at = self.entry(v)?;
        if candidate < self.scratch.table[at][2 + dir] {
            self.scratch.table[at][2 + dir] = candidate;
            self.push(dir, key(candidate, at))?;
        }
        Ok(())
    }

    /// The distance of the next entry search `dir` settles ([`INFINITY`]
    /// when none).
    #[inline(always)]
    fn min_key(&mut self, dir: usize) -> u32 {
        while self.lens[dir] > 0 {
            let (d, at) = unkey(self.scratch.heaps[dir][0]);
            if d == self.scratch.table[at][2 + dir] {
                return d;
            }
            self.pop(dir);
        }
        INFINITY
    }

    /// The next entry search `dir` settles, `(distance, entry)`.
    #[inline(always)]
    fn settle(&mut self, dir: usize) -> Option<(u32, usize)> {
        while let Some(k) = self.pop(dir) {
            let (d, at) = unkey(k);
            if d == self.scratch.table[at][2 + dir] {
                return Some((d, at));
            }
        }
        None
    }

    /// Adds `k` to heap `dir`.
    #[inline(always)]
    fn push(&mut self, dir: usize, k: u64) -> Result<(), Full> {
        let keys = &mut *self.scratch.heaps[dir];
        let len = self.lens[dir];
        if len == keys.len() {
            return Err(Full);
        }
        sift_up(keys, len, k);
        self.lens[dir] = len + 1;
        self.usage.keys = self.usage.keys.max(len as u32 + 1);
        Ok(())
    }

    /// Removes the smallest key of heap `dir`.
    #[inline(always)]
    fn pop(&mut self, dir: usize) -> Option<u64> {
        let keys = &mut *self.scratch.heaps[dir];
        let len = self.lens[dir].checked_sub(1)?;
        self.lens[dir] = len;
        let top = keys[0];
        sift_down(keys, len, keys[len]);
        Some(top)
    }
}

/// Puts `k` into the 4-ary min-heap `keys[..at]` at its place, making
/// `keys[..at + 1]` a heap (`keys` has room at `at`).
#[inline(always)]
pub fn sift_up(keys: &mut [u64], mut at: usize, k: u64) {
    while at > 0 {
        let parent = (at - 1) / 4;
        if keys[parent] <= k {
            break;
        }
        keys[at] = keys[parent];
        at = parent;
    }
    keys[at] = k;
}

/// Makes `keys[..len]` a 4-ary min-heap again after its top was taken:
/// `last` (the key that was at `len`) takes the top's place and sinks
/// (`keys` is not empty).
#[inline(always)]
pub fn sift_down(keys: &mut [u64], len: usize, last: u64) {
    let mut at = 0;
    loop {
        let first = 4 * at + 1;
        if first >= len {
            break;
        }
        let end = if first + 4 < len { first + 4 } else { len };
        let mut child = first;
        for c in first + 1..end {
            if keys[c] < keys[child] {
                child = c;
            }
        }
        if keys[child] >= last {
            break;
        }
        keys[at] = keys[child];
        at = child;
    }
    keys[at] = last;
}

#[inline(always)]
fn key(d: u32, at: usize) -> u64 {
    (u64::from(d) << 32) | at as u64
}

#[inline(always)]
fn unkey(k: u64) -> (u32, usize) {
    ((k >> 32) as u32, k as u32 as usize)
}

/// A thread's queries one after another over one [`Scratch`], each
/// advanced one settled vertex at a time ([`Queries::advance`]): a GPU
/// thread runs one flat loop whose every iteration does the same work (one
/// step of its current query, or the start of its next one), so the
/// threads of a warp stay together however long their queries are.
pub struct Queries<'s, 'a> {
    search: Search<'s, 'a>,
    best: u32,
    /// The answer of a query that ended in [`Queries::begin`].
    ended: Option<Outcome>,
}

impl<'s, 'a> Queries<'s, 'a> {
    /// Queries over `scratch`, whose table is 2 or more entries, a power of
    /// two (else this panics, a trap on the GPU).
    pub fn new(scratch: &'s mut Scratch<'a>) -> Self {
        let len = scratch.table.len();
        assert!(len >= 2 && len.is_power_of_two());
        Queries {
            search: Search {
                shift: 32 - len.trailing_zeros(),
                mask: len - 1,
                limit: entry_limit(len),
                scratch,
                epoch: 0,
                entries: 0,
                lens: [0, 0],
                usage: Usage::default(),
            },
            best: INFINITY,
            ended: None,
        }
    }

    /// Starts the query from position `s` to position `t` under `epoch`
    /// (not 0, and not the epoch of any entry left in the table by an
    /// earlier query).
    pub fn begin(&mut self, (s, t): (u32, u32), epoch: u32) {
        let search = &mut self.search;
        search.epoch = epoch;
        search.entries = 0;
        search.lens = [0, 0];
        self.best = INFINITY;
        self.ended = match search.relax(0, s, 0).and_then(|()| search.relax(1, t, 0)) {
            Ok(()) => None,
            Err(Full) => Some(Outcome::Overflow),
        };
    }

    /// Settles one vertex of the current query (the search with the smaller
    /// key): its answer once it has ended, else `None`.
    #[inline(always)]
    pub fn advance<W: Weight>(
        &mut self,
        arcs: [UpwardArcs<'_>; 2],
        stall_on_demand: bool,
    ) -> Option<Outcome> {
        if let Some(outcome) = self.ended {
            return Some(outcome);
        }
        let search = &mut self.search;
        let step = if search.min_key(0) <= search.min_key(1) {
            step::<W, 0>(arcs, stall_on_demand, search, &mut self.best)
        } else {
            step::<W, 1>(arcs, stall_on_demand, search, &mut self.best)
        };
        self.ended = match step {
            Ok(true) => None,
            Ok(false) => Some(Outcome::Distance(self.best)),
            Err(Full) => Some(Outcome::Overflow),
        };
        self.ended
    }

    /// The most memory a query used so far.
    pub fn usage(&self) -> Usage {
        self.search.usage
    }
}

/// The distance word from position `s` to position `t` over `arcs`
/// (forward, backward), with `scratch` as the query's memory under `epoch`
/// (not 0, and not the epoch of any entry left in the table by an earlier
/// query); `usage` grows to the most memory this query used.
///
/// Panics (a trap on the GPU) when `scratch.table` has fewer than 2 entries
/// or not a power of two, or a position is out of range.
pub fn query<W: Weight>(
    arcs: [UpwardArcs<'_>; 2],
    (s, t): (u32, u32),
    stall_on_demand: bool,
    scratch: &mut Scratch<'_>,
    (epoch, usage): (u32, &mut Usage),
) -> Outcome {
    let mut queries = Queries::new(scratch);
    queries.begin((s, t), epoch);
    let outcome = loop {
        if let Some(outcome) = queries.advance::<W>(arcs, stall_on_demand) {
            break outcome;
        }
    };
    let used = queries.usage();
    usage.entries = usage.entries.max(used.entries);
    usage.keys = usage.keys.max(used.keys);
    outcome
}

/// Settles the next vertex of search `K` and relaxes its arcs; whether the
/// query goes on. Each direction's step is its own instance (`K` a
/// constant), so that the arrays indexed by direction stay in registers on
/// the GPU.
#[inline(always)]
fn step<W: Weight, const K: usize>(
    arcs: [UpwardArcs<'_>; 2],
    stall_on_demand: bool,
    search: &mut Search<'_, '_>,
    best: &mut u32,
) -> Result<bool, Full> {
    let Some((d, at)) = search.settle(K) else {
        return Ok(false);
    };
    if d >= *best {
        return Ok(false); // both queues' keys are at least `best`
    }
    let [_, v, forward, backward] = search.scratch.table[at];
    let other = if K == 0 { backward } else { forward };
    if other != INFINITY {
        *best = (*best).min(W::extend(d, other));
    }
    if stall_on_demand {
        // A vertex that a higher vertex reaches more cheaply (over one arc
        // of the other kind) is not expanded.
        let reverse = arcs[1 - K];
        for e in reverse.row(v) {
            let du = search.dist(K, reverse.ends[e]);
            if du != INFINITY && W::extend(du, reverse.weights[e]) < d {
                return Ok(true);
            }
        }
    }
    let forward_arcs = arcs[K];
    for e in forward_arcs.row(v) {
        let candidate = W::extend(d, forward_arcs.weights[e]);
        // A vertex reached at `best` or more would only be settled after
        // the search has stopped.
        if candidate < *best {
            search.relax(K, forward_arcs.ends[e], candidate)?;
        }
    }
    Ok(true)
}
