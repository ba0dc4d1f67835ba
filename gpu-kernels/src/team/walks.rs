//! Warp walks of the loop teams ([`Team`]): the indices of a list dealt to
//! the warps' lanes, and the edges of the lanes' vertices walked by the warp
//! together, load-balanced and coalesced.

use core::sync::atomic::AtomicU32;
use core::sync::atomic::Ordering::Relaxed;

use crate::csr::Csr;
use crate::distance::INFINITY;

use super::warps::Team;

/// Calls `f(Some(k))` for this thread's indices `k < len` and `f(None)` where
/// a lane of its warp still has one but it has not, so that the lanes of a
/// warp call `f` equally often: `f` may make warp-wide calls.
///
/// Which indices: with at least one per thread, `thread`, `thread + threads`,
/// … (consecutive lanes read consecutive entries: coalesced). With fewer
/// (`len < threads`, a small frontier), one round with the entries dealt to
/// the warps first (lane `l` of warp `w` of `W` takes `l · W + w`): every
/// warp gets a few, so the warps' edge walks are short and run side by side,
/// instead of a few full warps walking many steps while the rest idle.
#[inline(always)]
pub fn for_each_warp_uniform(len: usize, team: &impl Team, mut f: impl FnMut(Option<usize>)) {
    let (thread, threads, warp_size) = (team.thread(), team.threads(), team.warp_size());
    let lane = thread % warp_size;
    if len < threads {
        let (warp, warps) = (thread / warp_size, threads / warp_size);
        let k = lane * warps + warp;
        f(if k < len { Some(k) } else { None });
        return;
    }
    let mut base = thread - lane;
    while base < len {
        let k = base + lane;
        f(if k < len { Some(k) } else { None });
        base += threads;
    }
}

/// The edges of the lanes' vertices, walked by the warp together: calls
/// `f(Some((v, w, dist_u)))` for each edge `(u, v, w)` leaving this lane's
/// share and `f(None)` in the steps where this lane has none, every lane
/// equally often, so `f` may make warp-wide calls. `u` is this lane's vertex
/// (`None`: it has none) and `dist_u` its distance as loaded once here.
///
/// Load-balanced and coalesced: the warp lays the edges of its lanes'
/// vertices end to end and walks them one edge per lane per step, so that
/// consecutive lanes read consecutive edges and a vertex of high degree
/// spreads over the warp. Lane `l`'s vertex owns positions
/// `[sum(l) - degree(l), sum(l))` of the warp's `total`, `sum` being the
/// inclusive sum of the degrees; a lane finds the owner of its position by a
/// binary search over the lanes' sums.
#[inline(always)]
pub fn for_each_edge_of_warp(
    u: Option<usize>,
    successors: Csr<'_>,
    dist: &[AtomicU32],
    team: &impl Team,
    f: impl FnMut(Option<(usize, u32, u32)>),
) {
    walk_edges(
        u,
        successors,
        dist,
        team,
        (0, team.warp_size()),
        u32::MAX,
        f,
    );
}

/// As [`for_each_edge_of_warp`], but a lane whose vertex has more than
/// `hub_degree` edges leaves them out of the walk and gets its vertex back,
/// for the caller to put off: one warp would walk them in as many steps over
/// 32. The degree comes from the loads the walk makes anyway.
#[inline(always)]
pub fn for_each_edge_of_warp_but_hubs(
    u: Option<usize>,
    successors: Csr<'_>,
    dist: &[AtomicU32],
    team: &impl Team,
    hub_degree: u32,
    f: impl FnMut(Option<(usize, u32, u32)>),
) -> Option<usize> {
    walk_edges(
        u,
        successors,
        dist,
        team,
        (0, team.warp_size()),
        hub_degree,
        f,
    )
}

/// The walk of [`for_each_edge_of_warp`] from position `first` in steps of
/// `stride` (both warp-uniform multiples of the warp size), without the
/// edges of a vertex of more than `hub_degree`, which it returns.
#[inline(always)]
fn walk_edges(
    u: Option<usize>,
    successors: Csr<'_>,
    dist: &[AtomicU32],
    team: &impl Team,
    (first, stride): (usize, usize),
    hub_degree: u32,
    mut f: impl FnMut(Option<(usize, u32, u32)>),
) -> Option<usize> {
    let (start, degree, dist_u) = match u {
        Some(u) => {
            let start = successors.offsets[u];
            (
                start,
                successors.offsets[u + 1] - start,
                dist[u].load(Relaxed),
            )
        }
        None => (0, 0, INFINITY),
    };
    let hub = u.filter(|_| degree > hub_degree);
    let degree = if hub.is_some() { 0 } else { degree };
    let warp_size = team.warp_size();
    let lane = team.thread() % warp_size;
    let sum = team.warp_inclusive_sum(degree);
    let total = team.warp_shuffle(sum, warp_size - 1) as usize;
    let mut base = first;
    while base < total {
        let position = base + lane;
        // The owner: the number of lanes whose inclusive sum is <= position.
        let mut owner = 0;
        let mut step = warp_size.next_power_of_two() / 2;
        while step > 0 {
            let probe = (owner + step - 1).min(warp_size - 1);
            if (team.warp_shuffle(sum, probe) as usize) <= position {
                owner += step;
            }
            step /= 2;
        }
        let owner = owner.min(warp_size - 1);
        let owner_start = team.warp_shuffle(start, owner) as usize;
        let owner_first = team.warp_shuffle(sum, owner) - team.warp_shuffle(degree, owner);
        let owner_dist = team.warp_shuffle(dist_u, owner);
        f(if position < total {
            let e = owner_start + (position - owner_first as usize);
            Some((
                successors.targets[e] as usize,
                successors.weights[e],
                owner_dist,
            ))
        } else {
            None
        });
        base += stride;
    }
    hub
}
