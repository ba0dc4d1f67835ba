//! Shortest distances from two sources of the DIMACS Rome road network, on
//! the GPU if there is one, else on the CPU: `cargo run -p host --example quick_start`.

use sssp::{Device, Query, Solver};

fn main() -> sssp::Result<()> {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../graphs/rome99.gr");
    let graph = sssp::formats::load(file, None)?.into_graph()?;
    let solver = Solver::new(Device::Auto)?;
    let solution = solver.solve(&graph, &Query::from_sources([0, 41]).with_parents())?;

    let row = &solution.rows[0];
    println!("{} solved on the {:?}", solution.algorithm, solution.device);
    println!("vertex 100 is {:?} from vertex 0", row.distance(99));
    println!("path: {:?}", row.path_to(99)?);
    Ok(())
}
