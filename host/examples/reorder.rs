//! Times the vertex orders of `sssp::reorder` on a g.csr file and prints the
//! locality before and after (mean edge span, bandwidth).
//!
//!     cargo run --release -p host --example reorder -- FILE [--shuffle SEED] [--root R]
//!
//! `--shuffle` first relabels the graph by a random permutation (a graph in an
//! order with no locality, as road networks often come); `--root` is the BFS
//! root (default 0).

use std::time::Instant;

use sssp::formats::csr;
use sssp::reorder::{self, Permutation};
use sssp::{Graph, Result};

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: reorder FILE [--shuffle SEED] [--root R]";
    let path = args.first().expect(usage);
    let option = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .map(|k| args[k + 1].parse::<u64>().expect(usage))
    };
    let start = Instant::now();
    let mut graph = csr::read(path)?;
    println!(
        "{path}: {} vertices, {} edges (read in {:.2} s)",
        graph.num_vertices(),
        graph.num_edges(),
        start.elapsed().as_secs_f64()
    );
    if let Some(seed) = option("--shuffle") {
        graph = shuffle(&graph, seed).apply(&graph);
        println!("shuffled with seed {seed}");
    }
    let root = option("--root").unwrap_or(0) as usize;
    report("original", &graph, None);
    let timed = |name: &str, order: &dyn Fn() -> Permutation| {
        let start = Instant::now();
        let p = order();
        let ordered = start.elapsed().as_secs_f64();
        let start = Instant::now();
        let relabelled = p.apply(&graph);
        let applied = start.elapsed().as_secs_f64();
        report(name, &relabelled, Some((ordered, applied)));
    };
    timed("bfs", &|| {
        reorder::bfs(&graph, root).expect("root is a vertex")
    });
    timed("rcm", &|| reorder::rcm(&graph));
    timed("degree", &|| reorder::degree_sorted(&graph));
    Ok(())
}

fn report(name: &str, graph: &Graph, times: Option<(f64, f64)>) {
    let start = Instant::now();
    let span = reorder::mean_edge_span(graph);
    let bandwidth = reorder::bandwidth(graph);
    let measured = start.elapsed().as_secs_f64() / 2.0;
    let times = times.map_or(String::new(), |(order, apply)| {
        format!("order {order:.3} s, apply {apply:.3} s, ")
    });
    println!(
        "{name:<8} {times}mean edge span {span:.1}, bandwidth {bandwidth} (metric {measured:.3} s)"
    );
}

/// A uniformly random permutation (Fisher–Yates on SplitMix64).
fn shuffle(graph: &Graph, seed: u64) -> Permutation {
    let mut state = seed;
    let mut next = || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let n = graph.num_vertices();
    let mut order: Vec<u32> = (0..n as u32).collect();
    for i in (1..n).rev() {
        let j = ((next() as u128 * (i as u128 + 1)) >> 64) as usize;
        order.swap(i, j);
    }
    Permutation::from_old_of_new(order).expect("a shuffle is a permutation")
}
