//! `host algos`: the algorithms that `--algo` takes.

/// Prints the catalogue: name, device, paper and description of each algorithm.
pub fn list() {
    use sssp::algorithms::{Algorithm, Processor};
    for algo in Algorithm::ALL {
        let spec = algo.spec();
        let device = if spec.device == Processor::Gpu {
            "GPU"
        } else {
            "CPU"
        };
        println!(
            "{:<26} {device}  {:<58} {}",
            spec.name, spec.paper, spec.description
        );
    }
}
