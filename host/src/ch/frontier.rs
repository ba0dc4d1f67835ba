//! The frontier of a Dijkstra search that reaches a few vertices of a large
//! graph (witness searches, upward searches): distances in a dense array that
//! is reset through the list of vertices the last search touched, so that a
//! search costs what it reaches, not the graph's size.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use gpu_kernels::distance::INFINITY;

/// A distance of a search: the index's distance words (`u32`, [`INFINITY`]
/// when unreached), or the build's keys (`u64`).
pub(crate) trait Key: Copy + Ord + Default {
    /// Unreached.
    const INFINITY: Self;
}

impl Key for u32 {
    const INFINITY: u32 = INFINITY;
}

impl Key for u64 {
    const INFINITY: u64 = u64::MAX;
}

/// A reusable search frontier over distances `K`; see the module
/// documentation.
#[derive(Default)]
pub(crate) struct Frontier<K: Key = u32> {
    dist: Vec<K>,
    touched: Vec<u32>,
    heap: BinaryHeap<Reverse<(K, u32)>>,
}

impl<K: Key> Frontier<K> {
    /// A new search in a graph of `n` vertices, from `source` at distance 0.
    pub(crate) fn start(&mut self, n: usize, source: u32) {
        if self.dist.len() < n {
            self.dist.resize(n, K::INFINITY);
        }
        for &v in &self.touched {
            self.dist[v as usize] = K::INFINITY;
        }
        self.touched.clear();
        self.heap.clear();
        self.relax(source, K::default());
    }

    /// The distance of `v` so far ([`Key::INFINITY`] when unreached).
    pub(crate) fn dist(&self, v: u32) -> K {
        self.dist[v as usize]
    }

    /// The next vertex to settle, `(distance, vertex)`; entries left behind
    /// by a later decrease are skipped.
    pub(crate) fn pop(&mut self) -> Option<(K, u32)> {
        while let Some(Reverse((d, v))) = self.heap.pop() {
            if d == self.dist[v as usize] {
                return Some((d, v));
            }
        }
        None
    }

    /// Lowers the distance of `v` to `candidate` if that is smaller; whether
    /// it did.
    pub(crate) fn relax(&mut self, v: u32, candidate: K) -> bool {
        let d = &mut self.dist[v as usize];
        if candidate >= *d {
            return false;
        }
        if *d == K::INFINITY {
            self.touched.push(v);
        }
        *d = candidate;
        self.heap.push(Reverse((candidate, v)));
        true
    }
}
