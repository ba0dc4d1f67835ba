//! The partitioner without a GPU (`sssp::partition`, on one thread and in regions, joined): pieces cover every vertex once, are contiguous and compact, grow breadth first, keep their promises.

mod partition_helpers;

use sssp::Graph;
use sssp::generate::{GridSpec, grid_graph};
use sssp::partition::growth::Growth;
use sssp::partition::pieces::{
    Partitioning, partition, partition_grown, partition_joined, partition_with_regions,
};
use sssp_tests::{TestRng, random_graph, random_small_graph};

use partition_helpers::*;

#[test]
fn partitions_cover_every_vertex_once_in_contiguous_pieces() {
    let mut rng = TestRng::new("partitions_cover_every_vertex_once_in_contiguous_pieces");
    for case in 0..500 {
        let graph = random_small_graph(&mut rng, 80);
        let capacity = rng.range(1, graph.num_vertices() as u64 + 2) as usize;
        let context = format!("case {case}, seed {}", rng.seed);
        let parts = cut(&graph, capacity, None, &context);
        check_partitioning(&graph, &parts, capacity, false, &context);
    }
    let grid = grid_graph(&GridSpec::new(57, 31, rng.bits())).unwrap();
    for capacity in [1, 64, 256, 1000, 2000] {
        let context = format!("grid 57×31, seed {}", rng.seed);
        let parts = cut(&grid, capacity, None, &context);
        check_partitioning(&grid, &parts, capacity, false, &context);
    }
    let empty = Graph::from_edges(0, &[]).unwrap();
    let parts = cut(&empty, 4, None, "no vertices");
    check_partitioning(&empty, &parts, 4, false, "no vertices");
    assert!(partition(&grid, 0).is_err(), "capacity 0");
}

#[test]
fn region_pieces_cover_every_vertex_once_in_contiguous_pieces() {
    let mut rng = TestRng::new("region_pieces_cover_every_vertex_once_in_contiguous_pieces");
    for case in 0..500 {
        // Dense ones, and sparse ones of many components and isolated vertices.
        let graph = if rng.chance(0.5) {
            random_small_graph(&mut rng, 80)
        } else {
            let n = rng.range(1, 80);
            let m = rng.below(n + 1) as usize;
            random_graph(&mut rng, n as usize, m, 10)
        };
        let n = graph.num_vertices();
        let capacity = rng.range(1, n as u64 + 2) as usize;
        // Up to more regions than vertices.
        let regions = rng.range(2, n as u64 + 3) as usize;
        let context = format!(
            "case {case}, n {n}, capacity {capacity}, {regions} regions, seed {}",
            rng.seed
        );
        let parts = cut(&graph, capacity, Some(regions), &context);
        check_partitioning(&graph, &parts, capacity, false, &context);
    }
    // Grids large enough for phase 1 to split its frontiers between threads,
    // alone and with other components no seed may reach.
    let grid = grid_graph(&GridSpec::new(300, 200, rng.bits())).unwrap();
    let small = grid_graph(&GridSpec::new(57, 31, rng.bits())).unwrap();
    let union = disjoint_union(&[&small, &grid, &small], 1000);
    for (name, graph) in [
        ("grid 300×200", &grid),
        ("three grids and isolated vertices", &union),
    ] {
        let n = graph.num_vertices();
        for (capacity, regions) in [(1, 7), (64, 2), (64, 13), (500, 8), (n, 5), (n + 9, 40)] {
            let context = format!(
                "{name}, capacity {capacity}, {regions} regions, seed {}",
                rng.seed
            );
            let parts = cut(graph, capacity, Some(regions), &context);
            check_partitioning(graph, &parts, capacity, false, &context);
        }
    }
    let empty = Graph::from_edges(0, &[]).unwrap();
    let parts = cut(&empty, 4, Some(8), "no vertices");
    check_partitioning(&empty, &parts, 4, false, "no vertices, 8 regions");
    assert!(partition_with_regions(&grid, 0, 8).is_err(), "capacity 0");
}

#[test]
fn region_pieces_do_not_depend_on_the_scheduling() {
    // The same regions give the same pieces run after run, on one thread or
    // on more threads than cores.
    let mut rng = TestRng::new("region_pieces_do_not_depend_on_the_scheduling");
    let grid = grid_graph(&GridSpec::new(300, 200, rng.bits())).unwrap();
    let random = random_graph(&mut rng, 20_000, 50_000, 100);
    let union = disjoint_union(&[&random, &grid], 500);
    let pool = |threads| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
    };
    let (one, many) = (pool(1), pool(8));
    for (name, graph) in [("grid 300×200", &grid), ("random and grid", &union)] {
        for (capacity, regions) in [(64, 8), (500, 3), (50, 61)] {
            let context = format!(
                "{name}, capacity {capacity}, {regions} regions, seed {}",
                rng.seed
            );
            let first = many.install(|| cut(graph, capacity, Some(regions), &context));
            for (run, pool) in [("again", &many), ("on one thread", &one)] {
                let parts = pool.install(|| cut(graph, capacity, Some(regions), &context));
                assert_eq!(
                    parts.permutation.old_of_new(),
                    first.permutation.old_of_new(),
                    "{context}: {run}, other pieces"
                );
                assert_eq!(
                    parts.boundary_ends, first.boundary_ends,
                    "{context}: {run}, other boundaries"
                );
            }
        }
    }
}

#[test]
fn region_pieces_are_about_as_compact_as_sequential_ones_on_a_grid() {
    let mut rng = TestRng::new("region_pieces_are_about_as_compact_as_sequential_ones_on_a_grid");
    let grid = grid_graph(&GridSpec::new(512, 512, rng.bits())).unwrap();
    let boundary = |regions| {
        let parts = cut(&grid, 512, Some(regions), "grid 512×512");
        (0..parts.pieces())
            .map(|p| parts.boundary_ends[p] - parts.starts[p])
            .sum::<u32>()
    };
    let sequential = boundary(1);
    for regions in [2, 8, 32] {
        let in_regions = boundary(regions);
        assert!(
            f64::from(in_regions) <= 1.15 * f64::from(sequential),
            "{regions} regions: {in_regions} boundary vertices, one thread {sequential}, seed {}",
            rng.seed
        );
    }
}

#[test]
fn pieces_grow_breadth_first_on_a_grid() {
    // A 64×64 grid in pieces of 256: BFS-grown pieces are compact, so few
    // vertices are entered from outside (a row-major cut of 4 rows would have
    // 2 × 64 boundary vertices per piece).
    let grid = grid_graph(&GridSpec::new(64, 64, 1)).unwrap();
    let parts = partition(&grid, 256).unwrap();
    let boundary: u32 = (0..parts.pieces())
        .map(|p| parts.boundary_ends[p] - parts.starts[p])
        .sum();
    assert!(
        (boundary as usize) < grid.num_vertices() / 2,
        "{boundary} boundary vertices of {}",
        grid.num_vertices()
    );
}

/// The fragments of each piece: how many of its vertices lie outside its
/// largest part connected inside the piece (edges of either direction).
fn fragment_vertices(parts: &Partitioning) -> Vec<usize> {
    let graph = &parts.graph;
    let n = graph.num_vertices();
    let mut neighbours = vec![Vec::new(); n];
    for (u, v, _) in edge_list(graph) {
        neighbours[u as usize].push(v as usize);
        neighbours[v as usize].push(u as usize);
    }
    let mut seen = vec![false; n];
    (0..parts.pieces())
        .map(|p| {
            let range = parts.starts[p] as usize..parts.starts[p + 1] as usize;
            let mut largest = 0;
            for v in range.clone() {
                if seen[v] {
                    continue;
                }
                seen[v] = true;
                let (mut stack, mut size) = (vec![v], 0);
                while let Some(x) = stack.pop() {
                    size += 1;
                    for &u in &neighbours[x] {
                        if range.contains(&u) && !seen[u] {
                            seen[u] = true;
                            stack.push(u);
                        }
                    }
                }
                largest = largest.max(size);
            }
            range.len() - largest
        })
        .collect()
}

/// `partition_joined`: the same promises as `partition` but pieces of up to
/// a quarter over the capacity, grown breadth-first or compactly; grown
/// breadth-first, no more fragment vertices than `partition` leaves (fewer
/// somewhere among the graphs). Compact pieces as cut (`partition_grown`)
/// keep `partition`'s promises.
#[test]
fn joined_pieces_keep_the_promises_with_fewer_fragments() {
    let mut rng = TestRng::new("joined_pieces_keep_the_promises_with_fewer_fragments");
    let grid = grid_graph(&GridSpec::new(57, 31, rng.bits())).unwrap();
    let mut graphs: Vec<(String, Graph)> = (0..300)
        .map(|case| (format!("case {case}"), random_small_graph(&mut rng, 80)))
        .collect();
    graphs.push(("grid 57×31".into(), grid));
    let mut joined_some = false;
    for (name, graph) in &graphs {
        let n = graph.num_vertices();
        for capacity in [rng.range(1, n as u64 + 2) as usize, 64, 100] {
            let context = format!("{name}, capacity {capacity}, seed {}", rng.seed);
            let plain = partition(graph, capacity).unwrap_or_else(|e| panic!("{context}: {e}"));
            let cut = |growth| {
                partition_joined(graph, capacity, growth)
                    .unwrap_or_else(|e| panic!("{context}, {growth:?}: {e}"))
            };
            let (joined, compact) = (cut(Growth::Breadth), cut(Growth::Compact));
            let compact_cut = partition_grown(graph, capacity, Growth::Compact)
                .unwrap_or_else(|e| panic!("{context}, compact as cut: {e}"));
            check_partitioning(
                graph,
                &compact_cut,
                capacity,
                false,
                &format!("{context}, compact as cut"),
            );
            check_partitioning(graph, &joined, capacity, true, &context);
            check_partitioning(
                graph,
                &compact,
                capacity,
                true,
                &format!("{context}, compact"),
            );
            let (before, after) = (fragment_vertices(&plain), fragment_vertices(&joined));
            let (before, after): (usize, usize) = (before.iter().sum(), after.iter().sum());
            assert!(
                after <= before,
                "{context}: {after} fragment vertices, {before} as cut"
            );
            joined_some |= after < before;
        }
    }
    assert!(
        joined_some,
        "seed {}: no fragment was ever joined",
        rng.seed
    );
}
