//! The frontier of a Dijkstra search that reaches a few vertices of a large
//! graph (witness searches, upward searches): distances in a dense array that
//! is reset through the list of vertices the last search touched, so that a
//! search costs what it reaches, not the graph's size.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use gpu_kernels::distance::INFINITY;

/// A reusable search frontier; see the module documentation.
#[derive(Default)]
pub(crate) struct Frontier {
    dist: Vec<u32>,
    touched: Vec<u32>,
    heap: BinaryHeap<Reverse<(u32, u32)>>,
}

impl Frontier {
    /// A new search in a graph of `n` vertices, from `source` at distance 0.
    pub(crate) fn start(&mut self, n: usize, source: u32) {
        if self.dist.len() < n {
            self.dist.resize(n, INFINITY);
        }
        for &v in &self.touched {
            self.dist[v as usize] = INFINITY;
        }
        self.touched.clear();
        self.heap.clear();
        self.relax(source, 0);
    }

    /// The distance word of `v` so far ([`INFINITY`] when unreached).
    pub(crate) fn dist(&self, v: u32) -> u32 {
        self.dist[v as usize]
    }

    /// The distance of the next vertex to settle ([`INFINITY`] when none);
    /// entries left behind by a later decrease are dropped.
    pub(crate) fn min_key(&mut self) -> u32 {
        while let Some(&Reverse((d, v))) = self.heap.peek() {
            if d == self.dist[v as usize] {
                return d;
            }
            self.heap.pop();
        }
        INFINITY
    }

    /// The next vertex to settle, `(distance, vertex)`; entries left behind
    /// by a later decrease are skipped.
    pub(crate) fn pop(&mut self) -> Option<(u32, u32)> {
        while let Some(Reverse((d, v))) = self.heap.pop() {
            if d == self.dist[v as usize] {
                return Some((d, v));
            }
        }
        None
    }

    /// Lowers the distance of `v` to `candidate` if that is smaller; whether
    /// it did.
    pub(crate) fn relax(&mut self, v: u32, candidate: u32) -> bool {
        let d = &mut self.dist[v as usize];
        if candidate >= *d {
            return false;
        }
        if *d == INFINITY {
            self.touched.push(v);
        }
        *d = candidate;
        self.heap.push(Reverse((candidate, v)));
        true
    }
}
