//! Per-thread logic of the certificate: a linear-time proof, checked after a
//! solve, that its distances are the shortest ones, written to be run one
//! thread per vertex over the predecessor CSR.
//!
//! Distances `dist` from `source`, reported within a bound `bound` (a distance
//! word; [`INFINITY`] for none: vertices farther than it are reported
//! unreached), are the shortest distances when:
//!
//! 1. the source's distance is 0;
//! 2. no arc improves a distance: for every arc `u → v` of weight `w` with `u`
//!    reached, `dist[v] <= extend(dist[u], w)` ([`Weight::extend`], the
//!    solvers' own saturating sum, so nothing overflows), except that an
//!    unreached `v` may lie beyond the bound (`extend(dist[u], w) > bound`);
//! 3. every reached vertex other than the source lies at the end of a path of
//!    tight arcs (`extend(dist[u], w) = dist[v]`) from the source. A tight
//!    in-arc from a strictly closer `u` gives such a path by induction on the
//!    distance ([`check_vertex`] finds one: with positive weights every
//!    vertex has one). A tight arc between equal distances (zero weights, or
//!    `f32` weights too small to change a sum) proves nothing alone — a cycle
//!    of them could hold itself up — so vertices without a closer tight
//!    in-arc are proven by the shortest-path tree's rounds
//!    ([`crate::parents::join_round`], a breadth-first search from the source
//!    over tight arcs): every one of them must join the tree ([`check_tree`]).
//!
//! (1) and (2) make every distance at most the shortest one (by induction along
//! a shortest path), (3) at least it (the tight path is a path of that length).
//!
//! [`SATURATED`] means what it means to the solvers: reached, and the shortest
//! distance does not fit. (2) proves such a distance is not below the largest
//! exact one: the first saturated vertex on a shortest path has an exact
//! predecessor whose sum overflows. (3) for a saturated vertex asks for just
//! that: an in-arc from an exact vertex whose sum overflows, so a saturated
//! vertex reached only through other saturated ones is not proven (the
//! certificate is strict there: a cycle of saturated vertices could hold
//! itself up). Saturated distances never reach a caller as distances: the
//! solvers report them as an overflow error before any certificate.
//!
//! Failures are recorded as one word per kernel, [`bad_word`] (the first bad
//! vertex and its [`Reason`]), kept by an atomic minimum, so the first bad
//! vertex is reported whatever the schedule.

use core::sync::atomic::{AtomicU32, AtomicU64, Ordering};

use crate::csr::Csr;
use crate::distance::{INFINITY, SATURATED, Weight};
use crate::parents::{NO_PARENT, NOT_IN_TREE};

/// The failure word when no vertex failed.
pub const NO_FAILURE: u64 = u64::MAX;

/// Why a vertex fails the certificate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum Reason {
    /// The source's distance is not 0.
    SourceDistance = 1,
    /// An in-arc from a reached vertex gives a shorter distance.
    ArcImproves = 2,
    /// A reached vertex has no path of tight arcs from the source.
    NoTightPath = 3,
    /// A vertex's parent is not a tight arc from a vertex earlier in the tree.
    BadParent = 4,
}

impl Reason {
    /// The reason of code `code`, `None` for an unknown code.
    pub fn from_code(code: u32) -> Option<Reason> {
        Some(match code {
            1 => Reason::SourceDistance,
            2 => Reason::ArcImproves,
            3 => Reason::NoTightPath,
            4 => Reason::BadParent,
            _ => return None,
        })
    }

    /// The reason in words.
    pub fn describe(self) -> &'static str {
        match self {
            Reason::SourceDistance => "the source's distance is not 0",
            Reason::ArcImproves => "an in-arc from a reached vertex gives a shorter distance",
            Reason::NoTightPath => "no path of tight arcs leads to it from the source",
            Reason::BadParent => "its parent is not a tight arc from a vertex earlier in the tree",
        }
    }
}

/// What [`check_vertex`] concludes of one vertex.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The vertex passes.
    Proven,
    /// The vertex passes (1) and (2), but (3) needs the tree's rounds: it is
    /// reached with an exact distance and has no tight in-arc from a closer
    /// vertex.
    NeedsRounds,
    /// The vertex fails.
    Bad(Reason),
}

/// The failure word of vertex `v` failing for `reason`: smaller for smaller
/// vertices, so an atomic minimum keeps the first.
#[inline(always)]
pub fn bad_word(v: usize, reason: Reason) -> u64 {
    ((v as u64) << 32) | reason as u64
}

/// The vertex and reason of a failure word other than [`NO_FAILURE`].
pub fn decode(word: u64) -> (usize, Option<Reason>) {
    ((word >> 32) as usize, Reason::from_code(word as u32))
}

/// Checks (1), (2) and the first half of (3) for vertex `v` of the
/// predecessor CSR `predecessors` (see the module documentation).
#[inline(always)]
pub fn check_vertex<W: Weight>(
    v: usize,
    source: usize,
    bound: u32,
    predecessors: Csr<'_>,
    dist: &[u32],
) -> Verdict {
    let d = dist[v];
    if v == source && d != 0 {
        return Verdict::Bad(Reason::SourceDistance);
    }
    let mut closer_tight = false;
    for (u, w) in predecessors.edges(v) {
        let dist_u = dist[u];
        if dist_u == INFINITY {
            continue;
        }
        let through_u = W::extend(dist_u, w);
        if through_u < d && (d != INFINITY || through_u <= bound) {
            return Verdict::Bad(Reason::ArcImproves);
        }
        closer_tight |= dist_u < d && through_u == d;
    }
    if d == INFINITY || v == source || closer_tight {
        Verdict::Proven
    } else if d == SATURATED {
        Verdict::Bad(Reason::NoTightPath)
    } else {
        Verdict::NeedsRounds
    }
}

/// Whether the tree's rounds left vertex `v` unproven: reached with an exact
/// distance, not the source, and not in the tree (`level[v]` is
/// [`NOT_IN_TREE`] after the last round of [`crate::parents::join_round`]).
#[inline(always)]
pub fn left_out(v: usize, source: usize, dist: &[u32], level: &[AtomicU32]) -> bool {
    v != source && dist[v] < SATURATED && level[v].load(Ordering::Relaxed) == NOT_IN_TREE
}

/// Checks (3) for vertex `v` after the tree's rounds, and its entry `parent` of
/// the tree they built: the source, unreached and saturated vertices have no
/// parent; any other vertex is in the tree, and its parent `p` is a tight
/// in-arc from a vertex earlier in the tree (`dist[p] < dist[v]`, or the same
/// distance and a lower level), so the parents form a tree rooted at the source.
#[inline(always)]
pub fn check_tree<W: Weight>(
    v: usize,
    source: usize,
    predecessors: Csr<'_>,
    dist: &[u32],
    parent: u32,
    level: &[AtomicU32],
) -> Option<Reason> {
    let d = dist[v];
    if v == source || d >= SATURATED {
        return (parent != NO_PARENT).then_some(Reason::BadParent);
    }
    if left_out(v, source, dist, level) {
        return Some(Reason::NoTightPath);
    }
    let level_v = level[v].load(Ordering::Relaxed);
    let earlier =
        |u: usize| dist[u] < d || (dist[u] == d && level[u].load(Ordering::Relaxed) < level_v);
    let tight = predecessors
        .edges(v)
        .any(|(u, w)| u as u32 == parent && earlier(u) && W::extend(dist[u], w) == d);
    (!tight).then_some(Reason::BadParent)
}

/// A distance as a solve bounded by `bound` reports it: unreached above the
/// bound (where a bounded solve may leave tentative values).
#[inline(always)]
pub fn reported(d: u32, bound: u32) -> u32 {
    if d > bound { INFINITY } else { d }
}

/// The push form of (2) and the first half of (3), for distances whose
/// solver holds the forward CSR `successors` (no predecessor CSR needed),
/// as [`reported`] within `bound`: vertex `u`'s thread checks `u`'s
/// out-arcs, records a head that an arc improves into `failure`, and marks
/// in `closer` each head that a tight arc reaches from a strictly closer
/// `u`. [`push_verdict`] concludes per vertex once every thread is done;
/// together they decide exactly what [`check_vertex`] decides.
#[inline(always)]
pub fn push_out_arcs<W: Weight>(
    u: usize,
    bound: u32,
    successors: Csr<'_>,
    dist: &[u32],
    (closer, failure): (&[AtomicU32], &AtomicU64),
) {
    let dist_u = reported(dist[u], bound);
    if dist_u == INFINITY {
        return;
    }
    for (v, w) in successors.edges(u) {
        let d = reported(dist[v], bound);
        let through_u = W::extend(dist_u, w);
        if through_u < d && (d != INFINITY || through_u <= bound) {
            record(failure, v, Reason::ArcImproves);
        } else if dist_u < d && through_u == d {
            closer[v].store(1, Ordering::Relaxed);
        }
    }
}

/// Vertex `v`'s verdict after [`push_out_arcs`] ran on every vertex: (1),
/// and (3) from the marks in `closer`, as [`check_vertex`] decides them.
#[inline(always)]
pub fn push_verdict(
    v: usize,
    (source, bound): (usize, u32),
    dist: &[u32],
    closer: &[AtomicU32],
) -> Verdict {
    let d = reported(dist[v], bound);
    if v == source && d != 0 {
        Verdict::Bad(Reason::SourceDistance)
    } else if d == INFINITY || v == source || closer[v].load(Ordering::Relaxed) != 0 {
        Verdict::Proven
    } else if d == SATURATED {
        Verdict::Bad(Reason::NoTightPath)
    } else {
        Verdict::NeedsRounds
    }
}

/// The push form on one thread, for the CPU: [`push_out_arcs`] on every
/// vertex, then [`push_verdict`] on every vertex. `Ok(true)`: proven;
/// `Ok(false)`: some vertex needs the tree's rounds ([`certify`] decides);
/// otherwise the first failing vertex and why.
pub fn certify_push<W: Weight>(
    source: usize,
    bound: u32,
    successors: Csr<'_>,
    dist: &[u32],
    closer: &[AtomicU32],
) -> Result<bool, (usize, Reason)> {
    let n = successors.num_vertices();
    let failure = AtomicU64::new(NO_FAILURE);
    for u in 0..n {
        push_out_arcs::<W>(u, bound, successors, dist, (closer, &failure));
    }
    let mut rounds = false;
    for v in 0..n {
        match push_verdict(v, (source, bound), dist, closer) {
            Verdict::Proven => {}
            Verdict::NeedsRounds => rounds = true,
            Verdict::Bad(reason) => record(&failure, v, reason),
        }
    }
    match failure.load(Ordering::Relaxed) {
        NO_FAILURE => Ok(!rounds),
        word => {
            let (v, reason) = decode(word);
            Err((v, reason.unwrap_or(Reason::NoTightPath)))
        }
    }
}

/// Records vertex `v` failing for `reason` in the failure word `failure`.
#[inline(always)]
pub fn record(failure: &AtomicU64, v: usize, reason: Reason) {
    failure.fetch_min(bad_word(v, reason), Ordering::Relaxed);
}

/// The whole certificate on one thread, for the CPU: [`check_vertex`] on
/// every vertex, then, when some vertex needs them, the tree's rounds into
/// `parent` and `level` (scratch of `n` entries each) and [`check_tree`] on
/// every vertex. Returns the first failing vertex and why.
pub fn certify<W: Weight>(
    source: usize,
    bound: u32,
    predecessors: Csr<'_>,
    dist: &[u32],
    (parent, level): (&mut [u32], &[AtomicU32]),
) -> Result<(), (usize, Reason)> {
    let n = predecessors.num_vertices();
    let mut rounds = false;
    for v in 0..n {
        match check_vertex::<W>(v, source, bound, predecessors, dist) {
            Verdict::Proven => {}
            Verdict::NeedsRounds => rounds = true,
            Verdict::Bad(reason) => return Err((v, reason)),
        }
    }
    if !rounds {
        return Ok(());
    }
    let mut round = 0;
    loop {
        let mut more = false;
        for (v, parent) in parent.iter_mut().enumerate() {
            more |= crate::parents::join_round::<W>(
                v,
                source,
                round,
                predecessors,
                dist,
                parent,
                level,
            );
        }
        if !more {
            break;
        }
        round += 1;
    }
    for (v, &parent_v) in parent.iter().enumerate() {
        if let Some(reason) = check_tree::<W>(v, source, predecessors, dist, parent_v, level) {
            return Err((v, reason));
        }
    }
    Ok(())
}
