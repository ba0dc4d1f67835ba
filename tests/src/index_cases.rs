//! Graphs and indexes that the point-to-point tests share: an index of any
//! graph (random graphs have no hierarchy to speak of), grids with one-way
//! streets, and random `f32` graphs.

use sssp::Graph;
use sssp::ch::{self, BuildOptions, Hierarchy};
use sssp::generate::{GridSpec, grid_graph};

use crate::{F32Weights, TestRng, random_f32_graph, random_graph};

/// The index of `graph`, whatever its shortcuts cost.
pub fn any_index(graph: &Graph) -> Hierarchy {
    let options = BuildOptions {
        max_core_ratio: usize::MAX,
        ..BuildOptions::default()
    };
    ch::build(graph, &options).expect("build")
}

/// A random grid of `w × h` vertices, `w` and `h` drawn from `sides`, with
/// each arc dropped with probability `drop` (one-way streets: some pairs
/// unreachable); and its sides.
pub fn one_way_grid(
    rng: &mut TestRng,
    sides: (u64, u64),
    drop: f64,
) -> (Graph<'static>, (usize, usize)) {
    let (w, h) = (
        rng.range(sides.0, sides.1) as usize,
        rng.range(sides.0, sides.1) as usize,
    );
    let grid = grid_graph(&GridSpec::new(w, h, rng.bits())).expect("grid");
    let csr = grid.csr();
    let edges: Vec<(u32, u32, u32)> = (0..grid.num_vertices())
        .flat_map(|u| csr.edges(u).map(move |(v, w)| (u as u32, v as u32, w)))
        .filter(|_| !rng.chance(drop))
        .collect();
    let graph = Graph::from_edges(grid.num_vertices(), &edges).expect("grid edges");
    (graph, (w, h))
}

/// A random graph of fewer than `most` vertices (sparse draws leave parts
/// unreachable; zero weights and ties; half of them undirected), with
/// words for a failure's message.
pub fn random_u32_case(rng: &mut TestRng, most: u64, case: usize) -> (Graph<'static>, String) {
    let n = rng.range(1, most) as usize;
    let m = rng.below((n * 3) as u64 + 1) as usize;
    let max_weight = [0u32, 1, 3, 10, 1000][rng.below(5) as usize];
    let mut graph = random_graph(rng, n, m, max_weight);
    let undirected = rng.chance(0.5);
    if undirected {
        graph = graph.undirected().expect("undirected");
    }
    let context = format!(
        "case {case} (n {n}, m {m}, max weight {max_weight}, undirected {undirected}, seed {})",
        rng.seed
    );
    (graph, context)
}

/// A random graph of `f32` weights of fewer than `most` vertices (half of
/// them undirected), with words for a failure's message.
pub fn random_f32_case(rng: &mut TestRng, most: u64, case: usize) -> (Graph<'static>, String) {
    let styles = F32Weights::FINITE_SUMS;
    let n = rng.range(1, most) as usize;
    let m = rng.below((n * 3) as u64 + 1) as usize;
    let style = styles[rng.below(styles.len() as u64) as usize];
    let mut graph = random_f32_graph(rng, n, m, style);
    if rng.chance(0.5) {
        graph = graph.undirected().expect("undirected");
    }
    let context = format!("case {case} (n {n}, m {m}, {style:?}, seed {})", rng.seed);
    (graph, context)
}
