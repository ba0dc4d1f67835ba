//! What every GPU solver offers ([`GpuSolver`]) and what its solves report.

use super::certificate::Certifier;
pub use super::run_stats::RunStats;
use crate::Result;
use crate::options::{RowSink, Stop, Tuning};

/// A GPU solver prepared for one graph (its device copies uploaded, its state
/// allocated); it can solve from any source any number of times.
pub trait GpuSolver: Send {
    /// Solves from `source`; the distances stay on the device until
    /// [`GpuSolver::distances`].
    fn run(&mut self, source: u32) -> Result<RunStats>;

    /// The distances of the last solve, checked for overflow
    /// ([`crate::Error::DistanceOverflow`]).
    fn distances(&self) -> Result<Vec<u32>>;

    /// Bounds the next solves as `stop` says, where the solver can stop
    /// early: it may then leave distances above [`Stop::bound`] unreached
    /// or not final, which [`Stop::apply`] marks unreached (by default
    /// nothing: the solves are complete, and bounded after).
    fn stop_early(&mut self, stop: Stop) {
        let _ = stop;
    }
    /// Certifies the last solve (from `source`, bounded by `stop`) where its
    /// distances lie on the device in the caller's numbering next to the
    /// forward CSR ([`super::certificate::PushCheck`]): `Some(Ok(true))`
    /// proven, `Some(Ok(false))` undecided (zero-weight ties: the pull form
    /// decides), `None` where the solver cannot (by default).
    fn certify_in_place(&mut self, source: u32, stop: Stop) -> Option<Result<bool>> {
        let _ = (source, stop);
        None
    }

    /// Solves from each of `sources` in turn within `stop` and hands each
    /// row to `sink` ([`RowSink`]), bounded by `stop`, checked for overflow
    /// and, with a `certifier`, certified; returns each solve's GPU time, ms. By default one solve,
    /// copy and bound after another; a solver may pipeline them
    /// ([`super::rows::RowSlots`]).
    fn stream_rows(
        &mut self,
        sources: &[u32],
        stop: Stop,
        sink: &mut RowSink<'_>,
        mut certifier: Option<Certifier<'_>>,
    ) -> Result<Vec<f32>> {
        self.stop_early(stop);
        let mut times = Vec::with_capacity(sources.len());
        for (i, &source) in sources.iter().enumerate() {
            times.push(self.run(source)?.solve_ms);
            let mut dist = self.distances()?;
            stop.apply(&mut dist);
            if let Some(certifier) = certifier.as_mut() {
                let proven = self.certify_in_place(source, stop).transpose()?;
                if proven != Some(true) {
                    certifier.check_row(source, stop, &dist)?;
                }
            }
            sink(i, &dist)?;
        }
        Ok(times)
    }

    /// Chooses, by solves from `source`, what the preparation left to the
    /// graph (the partition solver: its window where `tuning` gives no Δ,
    /// and its edge lanes where it gives none); called once after preparing.
    /// Writes the choice into `tuning`, so that a copy prepared with it needs
    /// no trial ([`Tuning`]; by default nothing to choose).
    fn calibrate(&mut self, source: u32, tuning: &mut Tuning) -> Result<()> {
        let _ = (source, tuning);
        Ok(())
    }

    /// Forms of this solver that `auto`'s trial also tries after it, with
    /// `queued` the tuning it was prepared with and `calibrated` what its
    /// calibration made of it (the partition solver: without shortcuts,
    /// with compact pieces); none by default.
    fn trial_variants(&self, queued: &Tuning, calibrated: &Tuning) -> Vec<Tuning> {
        let _ = (queued, calibrated);
        Vec::new()
    }

    /// Forms that `auto`'s trial tries once every candidate has run and this
    /// one, prepared with `fastest`, was the fastest, with `asked` the
    /// caller's tuning (the partition solver: its pieces in blocks of other
    /// sizes); none by default.
    fn final_variants(&self, asked: &Tuning, fastest: &Tuning) -> Vec<Tuning> {
        let _ = (asked, fastest);
        Vec::new()
    }

    /// What the preparation made of the graph, for reports (the partition
    /// solver: its pieces, its mode and how long cutting the graph took);
    /// `None` for solvers with nothing to say.
    fn layout(&self) -> Option<String> {
        None
    }

    /// Measuring mode: solves from `source` once more, untimed, counting with a
    /// device counter how many of the launched `relax` threads found work.
    /// `None` for solvers that do not count.
    fn count_working_threads(&mut self, source: u32) -> Result<Option<ThreadCount>> {
        let _ = source;
        Ok(None)
    }

    /// Solves from `source` the way every report times it: `warmup` untimed
    /// solves, then `runs` timed ones.
    fn time_runs(&mut self, source: u32, warmup: u32, runs: u32) -> Result<TimedRuns> {
        for _ in 0..warmup {
            self.run(source)?;
        }
        let mut timed = TimedRuns {
            times_ms: Vec::with_capacity(runs as usize),
            iterations: 0,
        };
        for _ in 0..runs {
            let stats = self.run(source)?;
            timed.iterations = stats.iterations;
            timed.times_ms.push(stats.solve_ms as f64);
        }
        Ok(timed)
    }
}

/// What [`GpuSolver::time_runs`] measured.
#[derive(Clone, Debug, PartialEq)]
pub struct TimedRuns {
    /// GPU time of each timed solve, in run order, ms.
    pub times_ms: Vec<f64>,
    /// Iterations of the last solve (every solve from one source takes the same).
    pub iterations: u32,
}

/// Launched and working threads of the `relax` kernel over one solve.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ThreadCount {
    /// Threads launched.
    pub launched: u64,
    /// Threads whose vertex had work (in the frontier for push, unsettled for pull).
    pub working: u64,
}
