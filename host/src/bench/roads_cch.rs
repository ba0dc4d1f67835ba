//! The customization columns of `bench --preset roads-index`: a
//! customizable index (CCH) of each graph, its build, and the customization
//! of the graph's weights on the CPU (every thread) and on the GPU, next to
//! RoutingKit's CCH customization on one thread and on every core
//! (`--routingkit-cch`: the `rk_cch` driver of `../shared/baselines`, built
//! on the same machine). Each customized index is checked: the GPU's words
//! equal the CPU's, and its trees from sample sources equal the oracle's.

use std::path::Path;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::baseline_report::Report;
use sssp::cch::Cch;
use sssp::cch::customize::Customization;
use sssp::ch;
use sssp::graph::Graph;
use sssp::solver::Solver;
use sssp::{Error, Result};

/// Timed customizations (after a warm-up); the median counts.
const CUSTOMIZE_RUNS: usize = 3;

/// RoutingKit's CCH customization on one graph (its own report).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RoutingKitCchRecord {
    /// Customization on one thread, ms.
    pub one_thread_ms: f64,
    /// Customization on every core, ms.
    pub threads_ms: f64,
    /// The cores of that run.
    pub threads: usize,
    /// Its partial customization after 1 % of the arcs changed, one thread.
    #[serde(default)]
    pub partial_ms: Option<f64>,
}

/// The customizable index of one graph.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CchRecord {
    /// The metric-independent build (order, supergraph, triangles), ms.
    pub build_ms: f64,
    /// Arcs of the chordal supergraph.
    pub arcs: usize,
    /// Their lower triangles.
    pub triangles: usize,
    /// Customization of the graph's weights on the CPU (every thread), ms.
    pub cpu_ms: f64,
    /// The same on the GPU (CUDA events: upload, customization, download),
    /// the triangles uploaded once before.
    pub gpu_ms: Option<f64>,
    /// Re-customization on the CPU after 1 % of the graph's arcs got new
    /// weights (`Cch::recustomize`), ms.
    #[serde(default)]
    pub partial_ms: Option<f64>,
    /// The supergraph arcs that re-customization recomputed.
    #[serde(default)]
    pub partial_arcs: Option<usize>,
    /// Re-customization on the CPU after 0.01 % of the arcs changed (a few
    /// closures or slowdowns), ms.
    #[serde(default)]
    pub local_ms: Option<f64>,
    /// The supergraph arcs that it recomputed.
    #[serde(default)]
    pub local_arcs: Option<usize>,
    /// RoutingKit's CCH customization.
    pub routingkit: Option<RoutingKitCchRecord>,
}

/// Builds the CCH of `graph`, customizes its weights on the CPU and on the
/// solver's GPU, checks both (words equal, trees of `sample` equal the
/// oracle's `expected`), and runs RoutingKit's `rk_cch` on `gr` (the graph
/// as a DIMACS file) when given.
pub fn measure(
    solver: &Solver,
    graph: &Graph,
    (sample, expected): (&[usize], &[Vec<u32>]),
    (rk_cch, gr): (Option<&Path>, &Path),
    name: &str,
) -> Result<CchRecord> {
    let start = Instant::now();
    let cch = Cch::build(graph)?;
    let build_ms = start.elapsed().as_secs_f64() * 1e3;
    let initial = cch.initial_weights(graph)?;
    let mut cpu = initial.clone();
    cch.customize_weights(&mut cpu); // warm-up
    let cpu_ms = median_ms(|| {
        let mut weights = initial.clone();
        let start = Instant::now();
        cch.customize_weights(&mut weights);
        Ok(start.elapsed().as_secs_f64() * 1e3)
    })?;
    let n = graph.num_vertices();
    let h = cch.hierarchy(&cpu)?;
    if ch::phast::trees(&h, sample) != expected {
        return Err(mismatch(
            "the oracle's distances",
            format!("other trees from the customized index on {name}"),
            n,
        ));
    }
    let (partial_ms, partial_arcs) = partial(&cch, graph, (&initial, &cpu), 100, name)?;
    let (local_ms, local_arcs) = partial(&cch, graph, (&initial, &cpu), 10_000, name)?;
    let gpu_ms = match solver.gpu() {
        Some(gpu) => {
            let mut customizer = sssp::gpu::cch::GpuCustomizer::new(gpu, &cch)?;
            let mut weights = initial.clone();
            customizer.customize_in_place(&mut weights)?; // warm-up
            if weights != cpu {
                return Err(mismatch(
                    "the CPU's customized weights",
                    format!("other customized weights on the GPU on {name}"),
                    n,
                ));
            }
            Some(median_ms(|| {
                let mut weights = initial.clone();
                Ok(f64::from(customizer.customize_in_place(&mut weights)?))
            })?)
        }
        None => None,
    };
    let routingkit = rk_cch.map(|rk| run_rk_cch(rk, gr, name)).transpose()?;
    Ok(CchRecord {
        build_ms,
        arcs: cch.supergraph().num_arcs(),
        triangles: cch.triangles().len(),
        cpu_ms,
        gpu_ms,
        partial_ms: Some(partial_ms),
        partial_arcs: Some(partial_arcs),
        local_ms: Some(local_ms),
        local_arcs: Some(local_arcs),
        routingkit,
    })
}

/// Re-customization after every `every`-th arc of `graph` got twice its
/// weight plus one: the median of [`CUSTOMIZE_RUNS`] runs (ms), each from the
/// customization `customized` of `initial`, checked against a whole
/// customization; and the arcs recomputed.
fn partial(
    cch: &Cch,
    graph: &Graph,
    (initial, customized): (&Customization, &Customization),
    every: usize,
    name: &str,
) -> Result<(f64, usize)> {
    let csr = graph.csr();
    let mut edges = Vec::with_capacity(graph.num_edges());
    for u in 0..graph.num_vertices() {
        for (v, w) in csr.edges(u) {
            let changed = edges.len() % every == every - 1;
            let w = if changed {
                w.saturating_mul(2).saturating_add(1)
            } else {
                w
            };
            edges.push((u as u32, v as u32, w));
        }
    }
    let changed = Graph::from_edges(graph.num_vertices(), &edges)?;
    let new_initial = cch.initial_weights(&changed)?;
    let mut whole = new_initial.clone();
    cch.customize_weights(&mut whole);
    let mut recomputed = 0;
    let ms = median_ms(|| {
        let mut weights = customized.clone();
        let start = Instant::now();
        recomputed = cch.recustomize(initial, &new_initial, &mut weights)?;
        let ms = start.elapsed().as_secs_f64() * 1e3;
        if weights != whole {
            return Err(mismatch(
                "a whole customization's weights",
                format!("other re-customized weights on {name}"),
                graph.num_vertices(),
            ));
        }
        Ok(ms)
    })?;
    Ok((ms, recomputed))
}

/// The median of [`CUSTOMIZE_RUNS`] runs of `run` (each returns its ms).
fn median_ms(mut run: impl FnMut() -> Result<f64>) -> Result<f64> {
    let runs = (0..CUSTOMIZE_RUNS)
        .map(|_| run())
        .collect::<Result<Vec<f64>>>()?;
    Ok(sssp::solution::median(&runs))
}

/// A result of the benchmark that differs from what it is checked against.
fn mismatch(expected: &str, found: String, num_vertices: usize) -> Error {
    Error::Mismatch {
        vertex: 0,
        expected: expected.into(),
        found,
        count: 1,
        num_vertices,
    }
}

/// Runs RoutingKit's `rk_cch` on the DIMACS file `gr` and reads its report
/// (`threads=N`, `customize_1_thread_ms=…`, `customize_N_threads_ms=…`,
/// `partial_customize_1pct_ms=…`).
fn run_rk_cch(rk: &Path, gr: &Path, name: &str) -> Result<RoutingKitCchRecord> {
    let report = Report::of(rk, &[gr.as_os_str()])?;
    let threads: Option<usize> = report.value("threads=");
    let threads_ms = threads.and_then(|t| report.value(&format!("customize_{t}_threads_ms=")));
    match (report.value("customize_1_thread_ms="), threads, threads_ms) {
        (Some(one_thread_ms), Some(threads), Some(threads_ms)) if report.success => {
            Ok(RoutingKitCchRecord {
                one_thread_ms,
                threads_ms,
                threads,
                partial_ms: report.value("partial_customize_1pct_ms="),
            })
        }
        _ => Err(Error::InvalidArgument(format!(
            "{}: RoutingKit's CCH on {name} gave no report (exit {}): {}",
            rk.display(),
            report.status,
            report.text
        ))),
    }
}

/// The customization table's rows, markdown.
pub fn markdown_rows(rows: &[(&str, &CchRecord)]) -> String {
    let ms = |x: Option<f64>| x.map_or("-".to_string(), |x| format!("{x:.1}"));
    let mut text = String::from(
        "| graph | CCH build ms | arcs / triangles | customize, CPU ms | customize, GPU ms | \
         RoutingKit, 1 thread ms | RoutingKit, all cores ms | RoutingKit all cores / GPU | \
         1 % changed: re-customize, CPU ms (arcs) | RoutingKit partial, 1 thread ms | \
         0.01 % changed: re-customize, CPU ms (arcs) |\n\
         |---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for (graph, r) in rows {
        let rk = r.routingkit.as_ref();
        let ratio = match (rk, r.gpu_ms) {
            (Some(k), Some(g)) if g > 0.0 => format!("{:.1}×", k.threads_ms / g),
            _ => "-".into(),
        };
        text.push_str(&format!(
            "| {graph} | {:.0} | {} / {} | {:.1} | {} | {} | {} | {ratio} | {} | {} | {} |\n",
            r.build_ms,
            r.arcs,
            r.triangles,
            r.cpu_ms,
            ms(r.gpu_ms),
            ms(rk.map(|k| k.one_thread_ms)),
            rk.map_or("-".into(), |k| format!(
                "{:.1} ({} threads)",
                k.threads_ms, k.threads
            )),
            match (r.partial_ms, r.partial_arcs) {
                (Some(ms), Some(arcs)) => format!("{ms:.2} ({arcs})"),
                _ => "-".into(),
            },
            ms(rk.and_then(|k| k.partial_ms)),
            match (r.local_ms, r.local_arcs) {
                (Some(ms), Some(arcs)) => format!("{ms:.2} ({arcs})"),
                _ => "-".into(),
            },
        ));
    }
    text
}
