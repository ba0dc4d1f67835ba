//! The rule that tells a graph without a useful hierarchy from one whose
//! hierarchy merely has many shortcuts.
//!
//! Contraction keeps a *core*: the vertices not yet contracted and the arcs
//! among them. On a graph with small separators (roads, grids, meshes) each
//! round removes more arcs from the core than its shortcuts add, so the core
//! thins out as it shrinks; only its top, a few separators' worth of vertices,
//! grows dense, and that top is small (on a 300² grid about 1,500 vertices
//! when it starts to grow, whose square is 6 times the graph; on a 1000²
//! grid about 10,000, 20 times).
//! On a graph without small separators (social, web, Kronecker, random graphs
//! of mean degree ten and more) the core's arcs grow while it is still large:
//! every contraction adds more shortcuts than it removes arcs, and the core
//! tends to a clique of all its vertices.
//!
//! So the build stops when the core's arcs exceed the fewest it has had by
//! more than [`GROWTH_PERCENT`] ([`PREDICTED_GROWTH_PERCENT`] when
//! estimated) while its vertex count, squared (the arcs of
//! the clique it tends to), exceeds [`BuildOptions::max_core_ratio`] times the
//! graph's arcs plus vertices and [`SMALL_CORE`]. It is checked after every
//! round, on the arcs counted, and once before the first round, on the
//! priorities' estimate of what the selected vertices add (their edge
//! differences), so that a dense graph is refused before its first round,
//! the most expensive one. Later rounds' estimates come from short searches
//! in a denser graph: on a Delaunay mesh they predict 10 % growth while the
//! counted arcs keep falling, so they are not used.
//!
//! [`BuildOptions::max_core_ratio`]: super::BuildOptions::max_core_ratio

/// Growth of the core's arcs over their fewest, in percent, that counts.
pub(crate) const GROWTH_PERCENT: u64 = 1;

/// Growth that counts when it is only estimated, in percent: the estimate
/// takes the priorities' short witness searches, which miss witnesses that
/// the contraction finds (before the first round it predicts a fall on roads,
/// grids, meshes and soc-Epinions1, and 30 % growth on a random graph of mean
/// degree 20).
pub(crate) const PREDICTED_GROWTH_PERCENT: u64 = 10;

/// A core whose clique would have at most this many arcs is never refused:
/// it is cheap whatever its density (small graphs always get an index).
pub(crate) const SMALL_CORE: u64 = 1 << 16;

/// The core's arcs through the build.
pub(crate) struct CoreGrowth {
    /// The core's arcs now.
    arcs: u64,
    /// The fewest arcs the core has had.
    fewest: u64,
    /// The vertex count, squared, above which growth refuses.
    large: u128,
}

impl CoreGrowth {
    /// The core of a graph of `arcs` arcs (self-loops and parallel arcs
    /// dropped) and `size` arcs plus vertices, under `max_core_ratio`.
    pub(crate) fn new(arcs: u64, size: u64, max_core_ratio: usize) -> Self {
        let large = (max_core_ratio as u128 * size as u128).max(SMALL_CORE as u128);
        CoreGrowth {
            arcs,
            fewest: arcs,
            large,
        }
    }

    /// The core's arcs now.
    pub(crate) fn arcs(&self) -> u64 {
        self.arcs
    }

    /// Why a core of `vertices` vertices and `arcs` arcs means no useful
    /// hierarchy, or `None`.
    fn verdict(&self, vertices: usize, arcs: i128, percent: u64) -> Option<String> {
        let grown = arcs * 100 > (self.fewest as i128) * (100 + percent as i128);
        let large = (vertices as u128).pow(2) > self.large;
        (grown && large).then(|| {
            format!(
                "the remaining graph's arcs grow ({} at their fewest, {arcs} now) while {vertices} \
                 vertices remain",
                self.fewest
            )
        })
    }

    /// Before contracting: why the core of `vertices` vertices, changed by
    /// the estimated `change` in arcs, means no useful hierarchy, or `None`.
    pub(crate) fn predict(&self, vertices: usize, change: i64) -> Option<String> {
        self.verdict(
            vertices,
            self.arcs as i128 + change as i128,
            PREDICTED_GROWTH_PERCENT,
        )
        .map(|why| format!("by the estimate of the next round, {why}"))
    }

    /// After contracting: records the core's `arcs` and `vertices`, and says
    /// why they mean no useful hierarchy, or `None`.
    pub(crate) fn record(&mut self, vertices: usize, arcs: u64) -> Option<String> {
        self.arcs = arcs;
        let why = self.verdict(vertices, arcs as i128, GROWTH_PERCENT);
        self.fewest = self.fewest.min(arcs);
        why
    }
}
