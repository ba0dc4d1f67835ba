//! The CPU models that GPU DA2CF solvers must follow step for step (each
//! algorithm's spec names its `model`): the check of an algorithm's iterations
//! and measuring mode against its model.

use gpu_kernels::launch::BLOCK_SIZE;
use sssp::Graph;
use sssp::algorithms::{Algorithm, Family, Processor};
use sssp::cpu::Da2cfResult;
use sssp::gpu::context::Gpu;
use sssp::variants::{Frontier, Relax};

/// The six DA2CF forms of the papers: push and pull for Martín's rule, then
/// for Crauser's general and economic rules (the order
/// [`check_form_iterations`] reads).
pub const DA2CF_FORMS: [(Relax, Frontier); 6] = [
    (Relax::Push, Frontier::Martin),
    (Relax::Pull, Frontier::Martin),
    (Relax::Push, Frontier::CrauserGeneral),
    (Relax::Pull, Frontier::CrauserGeneral),
    (Relax::Push, Frontier::CrauserEconomic),
    (Relax::Pull, Frontier::CrauserEconomic),
];

/// Checks the iterations of the [`DA2CF_FORMS`] on one graph (`None` where a
/// form reported an error): push and pull settle the same vertices in the same
/// iterations, and Crauser's frontiers, supersets of Martín's, never take more.
pub fn check_form_iterations(iterations: &[Option<u32>], context: &str) {
    assert_eq!(iterations.len(), DA2CF_FORMS.len(), "{context}");
    for pair in iterations.chunks(2) {
        assert_eq!(
            pair[0], pair[1],
            "{context}: push and pull iterations differ"
        );
    }
    if let (Some(martin), Some(general), Some(economic)) =
        (iterations[0], iterations[2], iterations[4])
    {
        assert!(
            general <= martin && economic <= martin,
            "{context}: {iterations:?}"
        );
    }
}

/// The GPU solvers whose measuring mode counts working `relax` threads: the
/// host-driven DA2CF loops on lists and matrices.
pub fn counts_threads(algo: Algorithm) -> bool {
    let spec = algo.spec();
    spec.device == Processor::Gpu && matches!(spec.family, Family::Da2cf(_))
}

/// Runs the measuring mode of `algo` (one more solve from `source`) and
/// compares its count with the CPU `model`'s: the same working threads, and
/// one launched thread per vertex, rounded up to whole blocks, per iteration.
pub fn check_working_threads(
    gpu: &Gpu,
    algo: Algorithm,
    graph: &Graph,
    source: usize,
    model: &Da2cfResult,
    context: &str,
) {
    let mut solver = crate::gpu::prepare(gpu, algo, graph, source, Default::default())
        .unwrap_or_else(|e| panic!("{context}, {algo}: {e}"));
    let count = solver
        .count_working_threads(source as u32)
        .unwrap_or_else(|e| panic!("{context}, {algo}: measuring mode: {e}"));
    assert_eq!(
        count.is_some(),
        counts_threads(algo),
        "{context}, {algo}: whether the measuring mode counts threads"
    );
    let Some(count) = count else { return };
    assert_eq!(
        Some(count.working),
        model.working_threads,
        "{context}, {algo}: working relax threads differ from the CPU model's"
    );
    let per_launch = (graph.num_vertices() as u64).div_ceil(BLOCK_SIZE as u64) * BLOCK_SIZE as u64;
    assert_eq!(
        count.launched,
        per_launch * model.iterations as u64,
        "{context}, {algo}: launched relax threads"
    );
}

/// Runs the CPU DA2CF model of `algo`, of form `(relax, rule)` (its spec's
/// `model`), from `source` and checks the GPU solver's `iterations`
/// against the model's, then its working threads with
/// [`check_working_threads`]. Panics with `context`.
pub fn check_against_model(
    gpu: &Gpu,
    algo: Algorithm,
    graph: &Graph,
    source: usize,
    (relax, rule): (Relax, Frontier),
    iterations: u32,
    context: &str,
) {
    let model = sssp::cpu::da2cf_model(graph, source, relax, rule)
        .unwrap_or_else(|e| panic!("{context}, {algo}: CPU model: {e}"));
    assert_eq!(
        iterations, model.iterations,
        "{context}, {algo}: iterations differ from the CPU model's"
    );
    check_working_threads(gpu, algo, graph, source, &model, context);
}
