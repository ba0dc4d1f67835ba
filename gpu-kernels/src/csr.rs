//! Compressed sparse rows: the adjacency-list representation of Martín et al. §4
//! (arrays `v`, `e` and `ω`, with `v[n] = m`).

/// A borrowed CSR graph. In the successor interpretation the adjacency list of
/// vertex `i` holds the heads of the edges leaving `i`; in the predecessor
/// interpretation, the tails of the edges entering `i`.
#[derive(Clone, Copy, Debug)]
pub struct Csr<'a> {
    /// `offsets[i]..offsets[i + 1]` indexes the adjacency list of `i`; `n + 1` entries.
    pub offsets: &'a [u32],
    /// The adjacent vertex of each edge; `m` entries.
    pub targets: &'a [u32],
    /// The weight of each edge; `m` entries.
    pub weights: &'a [u32],
}

impl<'a> Csr<'a> {
    /// Number of vertices `n`.
    #[inline(always)]
    pub fn num_vertices(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }

    /// Number of edges `m`.
    #[inline(always)]
    pub fn num_edges(&self) -> usize {
        self.targets.len()
    }

    /// The edges of vertex `i` as `(adjacent vertex, weight)` pairs.
    #[inline(always)]
    pub fn edges(&self, i: usize) -> impl Iterator<Item = (usize, u32)> + 'a {
        let range = self.offsets[i] as usize..self.offsets[i + 1] as usize;
        let targets = &self.targets[range.clone()];
        let weights = &self.weights[range];
        targets.iter().zip(weights).map(|(&t, &w)| (t as usize, w))
    }
}
