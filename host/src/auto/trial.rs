//! `auto`'s trial ([`Choice::trial`](super::choice::Choice::trial)): each
//! candidate is prepared, calibrated and timed from the source, with the
//! forms its solver asks to be tried too
//! ([`GpuSolver::trial_variants`], [`GpuSolver::final_variants`]); the
//! fastest is kept.

use super::choice::TRIAL_SOLVES;
use crate::algorithms::Algorithm;
use crate::gpu::context::Gpu;
use crate::gpu::solver::GpuSolver;
use crate::graph::Graph;
use crate::options::Tuning;
use crate::{Error, Result};

/// A prepared candidate of [`fastest_candidate`]: what it is, its solver.
pub type Candidate<'g> = ((Algorithm, Tuning), Box<dyn GpuSolver + 'g>);

/// Each of `candidates` is prepared with `tuning`, calibrated
/// ([`GpuSolver::calibrate`]) and solves from `source` [`TRIAL_SOLVES`]
/// times; the one with the best time is kept (a candidate that cannot be
/// prepared is left out, unless all fail). The forms a candidate's solver
/// asks for ([`GpuSolver::trial_variants`]) are queued after it, unless one
/// of the same form is queued already; when every candidate has run, those
/// the fastest asks for ([`GpuSolver::final_variants`]). Returns the winner
/// and the tuning it ran with (its calibrated choices fixed), its solver,
/// and the trial's times for `auto`'s reason.
pub fn fastest_candidate<'g>(
    gpu: &'g Gpu,
    graph: &Graph,
    candidates: &[Algorithm],
    tuning: Tuning,
    source: usize,
) -> Result<(Candidate<'g>, String)> {
    let mut best: Option<(f32, Candidate<'g>)> = None;
    let (mut times, mut first_error) = (Vec::new(), None);
    let mut queue: Vec<(Algorithm, Tuning)> = candidates.iter().map(|&a| (a, tuning)).collect();
    let mut next = 0;
    let mut finals_queued = false;
    loop {
        if next == queue.len() && !finals_queued {
            finals_queued = true;
            if let Some((_, ((algorithm, fastest), solver))) = &best {
                let finals = solver.final_variants(&tuning, fastest);
                queue.extend(finals.into_iter().map(|t| (*algorithm, t)));
            }
        }
        let Some(&(candidate, mut tuned)) = queue.get(next) else {
            break;
        };
        next += 1;
        let name = format!("{candidate}{}", tuned.trial_form(&tuning));
        let mut solver = match candidate.prepare_gpu_tuned(gpu, graph, tuned) {
            Ok(solver) => solver,
            Err(e) => {
                times.push(format!("{name} not prepared: {e}"));
                first_error.get_or_insert(e);
                continue;
            }
        };
        let queued = tuned;
        solver.calibrate(source as u32, &mut tuned)?;
        for variant in solver.trial_variants(&queued, &tuned) {
            // A form reached from two sides: the first queued is tried.
            let same = |(a, t): &(Algorithm, Tuning)| *a == candidate && t.same_form(&variant);
            if !queue.iter().any(same) {
                queue.push((candidate, variant));
            }
        }
        let ms = best_time(&mut *solver, source)?;
        times.push(format!("{name} {ms:.3} ms"));
        if best.as_ref().is_none_or(|(fastest, ..)| ms < *fastest) {
            // The slower solver is dropped here, its device memory freed.
            best = Some((ms, ((candidate, tuned), solver)));
        }
    }
    match (best, first_error) {
        (Some((_, chosen)), _) => Ok((
            chosen,
            format!(
                "; then the fastest in a trial from the source ({})",
                times.join(", ")
            ),
        )),
        (None, Some(e)) => Err(e),
        (None, None) => Err(Error::Internal("auto's trial has no candidates".into())),
    }
}

/// The best GPU time of [`TRIAL_SOLVES`] solves of `solver` from `source`, ms.
pub fn best_time(solver: &mut dyn GpuSolver, source: usize) -> Result<f32> {
    let mut ms = f32::INFINITY;
    for _ in 0..TRIAL_SOLVES {
        ms = ms.min(solver.run(source as u32)?.solve_ms);
    }
    Ok(ms)
}
