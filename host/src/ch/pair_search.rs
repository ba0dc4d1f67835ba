//! The state of the two searches of a point-to-point query, kept by each
//! thread from one query to the next: per vertex both searches' distances
//! side by side (the meeting check reads the other search's distance of the
//! vertex just settled from the same cache line), reset through the list of
//! vertices the last query touched, so that a query costs what it reaches,
//! not the graph's size; and per search a 4-ary heap of `(distance, vertex)`
//! keys packed in one `u64`, whose entries left behind by a later decrease
//! are dropped when they surface.

use gpu_kernels::distance::INFINITY;
use gpu_kernels::pair_query::{sift_down, sift_up};

/// See the module documentation.
#[derive(Default)]
pub(crate) struct PairSearch {
    dist: Vec<[u32; 2]>,
    touched: Vec<u32>,
    heaps: [QuadHeap; 2],
}

impl PairSearch {
    /// A new query in a graph of `n` vertices: search 0 from `s`, search 1
    /// from `t`, both at distance 0.
    pub(crate) fn start(&mut self, n: usize, s: u32, t: u32) {
        if self.dist.len() < n {
            self.dist.resize(n, [INFINITY; 2]);
        }
        for &v in &self.touched {
            self.dist[v as usize] = [INFINITY; 2];
        }
        self.touched.clear();
        for heap in &mut self.heaps {
            heap.keys.clear();
        }
        self.relax(0, s, 0);
        self.relax(1, t, 0);
    }

    /// The distance of `v` in search `dir` so far ([`INFINITY`] when
    /// unreached).
    #[inline(always)]
    pub(crate) fn dist(&self, dir: usize, v: u32) -> u32 {
        self.dist[v as usize][dir]
    }

    /// Lowers the distance of `v` in search `dir` to `candidate` if that is
    /// smaller; whether it was.
    #[inline(always)]
    pub(crate) fn relax(&mut self, dir: usize, v: u32, candidate: u32) -> bool {
        let slot = &mut self.dist[v as usize];
        if candidate < slot[dir] {
            if *slot == [INFINITY; 2] {
                self.touched.push(v);
            }
            slot[dir] = candidate;
            self.heaps[dir].push(key(candidate, v));
            return true;
        }
        false
    }

    /// The distance of the next vertex search `dir` settles ([`INFINITY`]
    /// when none).
    #[inline(always)]
    pub(crate) fn min_key(&mut self, dir: usize) -> u32 {
        while let Some(&k) = self.heaps[dir].keys.first() {
            let (d, v) = unkey(k);
            if d == self.dist[v as usize][dir] {
                return d;
            }
            self.heaps[dir].pop();
        }
        INFINITY
    }

    /// The next vertex search `dir` settles, `(distance, vertex)`.
    #[inline(always)]
    pub(crate) fn pop(&mut self, dir: usize) -> Option<(u32, u32)> {
        while let Some(k) = self.heaps[dir].pop() {
            let (d, v) = unkey(k);
            if d == self.dist[v as usize][dir] {
                return Some((d, v));
            }
        }
        None
    }
}

#[inline(always)]
fn key(d: u32, v: u32) -> u64 {
    (u64::from(d) << 32) | u64::from(v)
}

#[inline(always)]
fn unkey(k: u64) -> (u32, u32) {
    ((k >> 32) as u32, k as u32)
}

/// A 4-ary min-heap of `u64` keys (the sifts of the GPU's queries,
/// [`gpu_kernels::pair_query`]).
#[derive(Default)]
struct QuadHeap {
    keys: Vec<u64>,
}

impl QuadHeap {
    #[inline(always)]
    fn push(&mut self, k: u64) {
        let at = self.keys.len();
        self.keys.push(k);
        sift_up(&mut self.keys, at, k);
    }

    #[inline(always)]
    fn pop(&mut self) -> Option<u64> {
        let last = self.keys.pop()?;
        let Some(&top) = self.keys.first() else {
            return Some(last);
        };
        let len = self.keys.len();
        sift_down(&mut self.keys, len, last);
        Some(top)
    }
}
