//! The partition solver's calibration searches ([`GpuSolver::calibrate`]):
//! the window, the edge lanes, the chain hops and entries first, each timed
//! from the default in a few steps.
//!
//! [`GpuSolver::calibrate`]: crate::gpu::solver::GpuSolver::calibrate

use gpu_kernels::distance::Weight;

use crate::Result;

/// How far [`calibrate`](crate::gpu::solver::GpuSolver::calibrate)'s search may move the window from the
/// default: at most this many halvings, and this many doublings. The best
/// window differed by graph (docs/PERFORMANCE.md, 2026-11-27): a 3-D grid solved in half the time at a quarter of the
/// default, Delaunay meshes were 3–25% slower at a half, a quarter or twice
/// it, road networks with shortcuts about as fast at twice it.
pub const WINDOW_SEARCH_STEPS: (u32, u32) = (4, 2);

/// Solves per window in [`calibrate`](crate::gpu::solver::GpuSolver::calibrate)'s trial; the best counts.
pub const WINDOW_TRIAL_SOLVES: usize = 2;

/// The edge lanes [`calibrate`](crate::gpu::solver::GpuSolver::calibrate)'s trial starts from: the
/// road networks' and 2-D grids' best of 4 and 8 (docs/PERFORMANCE.md,
/// 2026-11-27).
pub const DEFAULT_EDGE_LANES: u32 = 4;

/// How far the edge-lanes trial may move from [`DEFAULT_EDGE_LANES`]: at
/// most one halving and two doublings (the meshes, of mean degree 6, were
/// 10–14% faster with 8 lanes, roads and 2-D grids 3–14% slower).
pub const EDGE_LANES_SEARCH_STEPS: (u32, u32) = (1, 2);

/// The most edge lanes: a warp.
pub const MOST_EDGE_LANES: u32 = 32;

/// How far the chain-hops trial may move from [`DEFAULT_CHAIN_HOPS`]: one
/// hop fewer, or one more (2 and 3 each won on some graphs, 4 and 5 were
/// slower everywhere measured: docs/PERFORMANCE.md, 2026-11-27).
pub const CHAIN_HOPS_SEARCH_STEPS: (u32, u32) = (1, 1);

/// The most chain hops a caller may ask for: more only hold the other warps
/// at the round's barrier longer.
pub const MOST_CHAIN_HOPS: u32 = 32;

/// A search's result: the fastest value, and every (value, time in ms)
/// tried, in order.
pub type Searched = (u32, Vec<(u32, f32)>);

/// `window` (a weight word of `W`) times `factor`, at least the smallest
/// positive word and at most half of [`MAX_DISTANCE`].
pub fn scale_window<W: Weight>(window: u32, factor: f64) -> u32 {
    let ceiling = W::to_f64(W::MAX_DISTANCE) / 2.0;
    W::from_f64((W::to_f64(window) * factor).min(ceiling)).max(1)
}

/// The window search of [`calibrate`](crate::gpu::solver::GpuSolver::calibrate): times `base`, then halves
/// the window while that is faster ([`WINDOW_SEARCH_STEPS`] times at most),
/// or, if the first halving was not, doubles it while that is faster.
/// `time` solves with a window and returns its time; `scale` is
/// [`scale_window`] for the weights' type. Returns the fastest window and
/// every (window, time) tried, in order.
pub fn search_window<E>(
    base: u32,
    scale: impl Fn(u32, f64) -> u32,
    time: impl FnMut(u32) -> Result<f32, E>,
) -> Result<Searched, E> {
    search(base, WINDOW_SEARCH_STEPS, scale, time)
}

/// The edge-lanes search of [`calibrate`](crate::gpu::solver::GpuSolver::calibrate): as [`search_window`],
/// from `base` lanes within [`EDGE_LANES_SEARCH_STEPS`], 1 to 32 lanes.
pub fn search_edge_lanes<E>(
    base: u32,
    time: impl FnMut(u32) -> Result<f32, E>,
) -> Result<Searched, E> {
    let scale =
        |lanes: u32, factor: f64| ((f64::from(lanes) * factor) as u32).clamp(1, MOST_EDGE_LANES);
    search(base, EDGE_LANES_SEARCH_STEPS, scale, time)
}

/// The chain-hops search of [`calibrate`](crate::gpu::solver::GpuSolver::calibrate): from `base` hops, one
/// fewer or else one more ([`CHAIN_HOPS_SEARCH_STEPS`]), 0 to
/// [`MOST_CHAIN_HOPS`].
pub fn search_chain_hops<E>(
    base: u32,
    time: impl FnMut(u32) -> Result<f32, E>,
) -> Result<Searched, E> {
    let step = |hops: u32, factor: f64| {
        let next = if factor < 1.0 {
            hops.saturating_sub(1)
        } else {
            hops + 1
        };
        next.min(MOST_CHAIN_HOPS)
    };
    search(base, CHAIN_HOPS_SEARCH_STEPS, step, time)
}

/// The entries-first trial of [`calibrate`](crate::gpu::solver::GpuSolver::calibrate): `base` (1 for on,
/// 0 for off), then the other.
pub fn search_entries_first<E>(
    base: bool,
    time: impl FnMut(u32) -> Result<f32, E>,
) -> Result<Searched, E> {
    search(u32::from(base), (1, 0), |on, _| 1 - on.min(1), time)
}

/// Times `base`, then scales it by a half while that is faster (at most
/// `halvings` times), or, if the first halving was not, by two while that is
/// faster (at most `doublings` times); a value already tried ends the
/// direction. Returns the fastest value and every (value, time) tried, in
/// order.
fn search<E>(
    base: u32,
    (halvings, doublings): (u32, u32),
    scale: impl Fn(u32, f64) -> u32,
    mut time: impl FnMut(u32) -> Result<f32, E>,
) -> Result<Searched, E> {
    let mut tried = vec![(base, time(base)?)];
    for (factor, steps) in [(0.5, halvings), (2.0, doublings)] {
        let mut value = base;
        for _ in 0..steps {
            let next = scale(value, factor);
            if tried.iter().any(|&(v, _)| v == next) {
                break;
            }
            tried.push((next, time(next)?));
            if fastest(&tried).0 != next {
                break;
            }
            value = next;
        }
        if fastest(&tried).0 != base {
            break;
        }
    }
    Ok((fastest(&tried).0, tried))
}

/// The (value, time) with the smallest time (the first of equals).
fn fastest(tried: &[(u32, f32)]) -> (u32, f32) {
    tried.iter().copied().fold(
        (0, f32::INFINITY),
        |best, t| if t.1 < best.1 { t } else { best },
    )
}
