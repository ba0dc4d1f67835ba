//! Solves rome99 with the library, on the GPU if there is one (else the CPU),
//! and checks every distance against the library's oracle.

use sssp::{Device, Query, Solver};

fn main() -> Result<(), sssp::Error> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../graphs/rome99.gr");
    let graph = sssp::formats::load(path, None)?.into_graph()?;
    let solver = Solver::new(Device::Auto)?;
    let solution = solver.solve(&graph, &Query::from_sources([0]))?;
    let oracle = sssp::oracle::dijkstra(&graph, 0)?;
    if solution.rows[0].dist != oracle {
        eprintln!("distances differ from the oracle");
        std::process::exit(1);
    }
    println!(
        "stable-user: {} distances from vertex 0 verified ({}, {:?})",
        oracle.len(),
        solution.algorithm,
        solution.device
    );
    Ok(())
}
