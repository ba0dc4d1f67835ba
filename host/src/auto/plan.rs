//! `auto` for a known number of solves: the plan that minimises preparation
//! plus solves. A trial prepares every candidate (the partition solver in
//! several forms: over a second on a road network of 300 k vertices), which
//! few solves pay back; one solve takes the choice without a trial, more
//! solves a trial cut to what they can repay.

use std::time::Instant;

use super::choice::{BUCKETED_CANDIDATES, Choice};
use super::trial::{Candidate, best_time};
use crate::Result;
use crate::algorithms::Algorithm;
use crate::gpu::context::Gpu;
use crate::graph::Graph;
use crate::options::Tuning;

/// How many solves a preparation is for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Solves {
    /// An unknown number: the solver is kept (a prepared graph), planned as
    /// for [`KEPT_SOLVES`].
    #[default]
    Kept,
    /// This many (`auto` plans for them).
    Count(usize),
    /// So many that the whole trial pays (benchmarks, long-lived services).
    Many,
}

/// The solves a kept solver is planned for: on a road network that is the
/// partition solver in one form, not the whole trial, whose other forms
/// solved at most 10% faster (road-BAY-pace 0.486 against 0.549 ms,
/// USA-road-d.NY none faster) for 4–5 times the preparation (1.3 s
/// against 0.2–0.25 s; docs/PERFORMANCE.md).
pub const KEPT_SOLVES: usize = 1000;

/// What the whole trial's other forms of the partition solver are assumed
/// to save a solve, as a fraction of the first form's time: the most
/// measured on road networks (see [`KEPT_SOLVES`]).
const TRIAL_GAIN: f64 = 0.1;

/// How many more forms than the first the whole trial prepares (without
/// shortcuts, compact pieces, two other block sizes).
const TRIAL_EXTRA_FORMS: f64 = 4.0;

/// How much faster than near-far the partition solver is assumed to solve
/// when deciding whether to prepare it: a low bound of what was measured on
/// deep graphs (5–10× on road networks, 1.2–3× on meshes and grids; on a
/// 50³ grid near-far won).
const PARTITION_SPEEDUP: f64 = 1.5;

/// The partition solver's preparation in one form (cut, shortcuts, upload,
/// calibration), per vertex and arc of the graph, ns: 200–250 ns measured on
/// road networks and meshes of 0.3 to 1 M vertices.
const PARTITION_PREPARE_NS: f64 = 250.0;

/// The plan for `solves` solves from `source` (the first) when `auto` chose
/// `choice`: `None` where the whole trial pays (or there is none), else the
/// solver to keep, its tuning and the words for `auto`'s reason.
pub fn plan<'g>(
    gpu: &'g Gpu,
    graph: &Graph,
    choice: &Choice,
    tuning: Tuning,
    (source, solves): (usize, Solves),
) -> Result<Option<(Candidate<'g>, String)>> {
    let count = match solves {
        Solves::Many => return Ok(None),
        Solves::Kept => KEPT_SOLVES,
        Solves::Count(count) => count,
    };
    if choice.trial.is_empty() {
        return Ok(None);
    }
    let bucketed = choice.trial == BUCKETED_CANDIDATES;
    if !bucketed && count > 1 {
        // The low-diameter candidates prepare in milliseconds.
        return Ok(None);
    }
    // Near-far first on deep graphs: it prepares in milliseconds.
    let first = if bucketed {
        Algorithm::NearFar
    } else {
        choice.algorithm
    };
    let (candidate, ms) = prepared(gpu, graph, first, tuning, source, count > 1)?;
    if count == 1 {
        return Ok(Some((
            candidate,
            format!("; for one solve {first} without a trial (one would cost more than it saves)"),
        )));
    }
    let planned = match solves {
        Solves::Kept => format!("kept for any number of solves (planned for {count})"),
        _ => format!("for {count} solves"),
    };
    // What the partition solver could save over the solves still to come,
    // against what preparing it costs.
    let elements = (graph.num_vertices() + graph.num_edges()) as f64;
    let preparation_ms = PARTITION_PREPARE_NS * elements * 1e-6;
    let saving_ms = count as f64 * ms * (1.0 - 1.0 / PARTITION_SPEEDUP);
    if saving_ms < preparation_ms {
        return Ok(Some((
            candidate,
            format!(
                "; {planned} {first} ({ms:.3} ms a solve) without a trial: the partition \
                 solver's preparation (about {preparation_ms:.0} ms) would cost more than it \
                 could save (about {saving_ms:.0} ms)"
            ),
        )));
    }
    // One form of the partition solver; the whole trial only where its
    // other forms could repay their preparation.
    let start = Instant::now();
    let (partition, partition_ms) =
        prepared(gpu, graph, Algorithm::Partition, tuning, source, true)?;
    let form_ms = start.elapsed().as_secs_f64() * 1e3;
    let trial_saving_ms = count as f64 * TRIAL_GAIN * partition_ms.min(ms);
    if trial_saving_ms > TRIAL_EXTRA_FORMS * form_ms {
        return Ok(None);
    }
    let reason = format!(
        "; {planned} the faster of {first} ({ms:.3} ms) and one form of partition \
         ({partition_ms:.3} ms, prepared in {form_ms:.0} ms), without the whole trial (its \
         other forms could save at most about {trial_saving_ms:.0} ms)"
    );
    let kept = if partition_ms < ms {
        partition
    } else {
        candidate
    };
    Ok(Some((kept, reason)))
}

/// `algorithm` prepared for `graph` and calibrated from `source`; with
/// `timed`, its best time from `source` ([`best_time`]), ms (else 0).
fn prepared<'g>(
    gpu: &'g Gpu,
    graph: &Graph,
    algorithm: Algorithm,
    mut tuning: Tuning,
    source: usize,
    timed: bool,
) -> Result<(Candidate<'g>, f64)> {
    let mut solver = algorithm.prepare_gpu_tuned(gpu, graph, tuning)?;
    solver.calibrate(source as u32, &mut tuning)?;
    let ms = match timed {
        true => f64::from(best_time(&mut *solver, source)?),
        false => 0.0,
    };
    Ok((((algorithm, tuning), solver), ms))
}
