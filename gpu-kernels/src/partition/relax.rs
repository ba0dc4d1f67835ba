//! The relax phase of a round and the chains (module docs of
//! [`crate::partition`]): the compute threads' groups, the edges of a
//! frontier vertex, the hops each warp chains after the frontier, and the
//! notifications that leave the piece.

use core::cell::Cell;
use core::sync::atomic::AtomicU32;
use core::sync::atomic::Ordering::Relaxed;

use crate::csr::Csr;
use crate::distance::{INFINITY, Weight};
use crate::team::BlockTeam;

use super::control::{CHAIN_QUEUE_WORDS, CHAIN_SLOTS, OUTBOX_SLOTS};
use super::memory::{Global, Local, PieceEdges, Pieces};
use super::settings::RoundSettings;

/// What a round's select and relax phases need besides the piece's
/// distances: the piece's range and windows, the round's outbox and next
/// round's minima.
pub(super) struct RoundTargets<'a> {
    /// The piece's range and entries as `u32`, as the relax phase compares
    /// them with every edge's head: 64-bit arithmetic costs the hot loop
    /// twice the instructions.
    pub(super) start: u32,
    pub(super) len: u32,
    /// The piece's entries are its first `boundary` vertices.
    pub(super) boundary: u32,
    /// The round's window: an improvement of an entry below it may be
    /// chained; of another vertex, below `interior_window`.
    pub(super) window: u32,
    pub(super) interior_window: u32,
    /// The solve's bound as the step found it: no candidate above it is
    /// sent.
    pub(super) bound: u32,
    pub(super) outbox_open: bool,
    pub(super) outbox: &'a [AtomicU32],
    pub(super) outbox_len: &'a AtomicU32,
    pub(super) next_minimum: &'a AtomicU32,
    /// Next round's smallest dirty entry distance.
    pub(super) next_entry_minimum: &'a AtomicU32,
    /// This thread's share of the two: the smallest distances it left
    /// dirty, which lower the shared words once, after the relax phase
    /// ([`RoundTargets::flush_pending`]). An atomic minimum per dirty vertex
    /// on one shared word serializes the lanes that meet on it.
    pub(super) pending: Cell<u32>,
    pub(super) pending_entries: Cell<u32>,
}

impl RoundTargets<'_> {
    /// Whether the piece's vertex `v` is one of its entries.
    #[inline(always)]
    pub(super) fn is_entry(&self, v: usize) -> bool {
        (v as u32) < self.boundary
    }

    /// The window the piece's vertex `v` is taken or chained below.
    #[inline(always)]
    pub(super) fn window_of(&self, v: usize) -> u32 {
        if self.is_entry(v) {
            self.window
        } else {
            self.interior_window
        }
    }

    /// Counts the piece's dirty vertex `v`, at distance `d`, in next round's
    /// minima.
    #[inline(always)]
    pub(super) fn keep_pending(&self, v: usize, d: u32) {
        self.pending.set(self.pending.get().min(d));
        if self.is_entry(v) {
            self.pending_entries.set(self.pending_entries.get().min(d));
        }
    }

    /// Lowers next round's minima with this thread's share (before the
    /// barrier that ends the relax phase).
    #[inline(always)]
    pub(super) fn flush_pending(&self) {
        if self.pending.get() != INFINITY {
            self.next_minimum.fetch_min(self.pending.get(), Relaxed);
        }
        if self.pending_entries.get() != INFINITY {
            self.next_entry_minimum
                .fetch_min(self.pending_entries.get(), Relaxed);
        }
    }

    /// Leaves the piece's vertex `v`, now at distance `d`, dirty for the next
    /// round.
    #[inline(always)]
    pub(super) fn leave_dirty(&self, v: usize, d: u32, local: &Local<'_>) {
        local.dirty[v].store(1, Relaxed);
        self.keep_pending(v, d);
    }
}

/// A compute thread's place in the relax phase's groups ([`relax_frontier`]),
/// computed once per piece: the divisions by a lane count known only at run
/// time cost a round dozens of instructions.
#[derive(Clone, Copy)]
pub(super) struct EdgeLanes {
    /// Lanes per group: [`RoundSettings::edge_lanes`], or fewer in a smaller
    /// team.
    lanes: usize,
    /// Groups of the compute threads (threads past the last whole group
    /// relax nothing).
    groups: usize,
    /// This thread's group and lane.
    group: usize,
    lane: usize,
    /// The first frontier entry this thread's group relaxes: groups are
    /// ranked warp by warp (the first group of every warp, then the second,
    /// …), so that a small frontier and the chains it opens spread over
    /// every warp instead of filling the first warps' groups.
    first: usize,
}

impl EdgeLanes {
    /// Compute thread `thread`'s place among `threads` compute threads, in
    /// groups of `lanes` (at least 1, at most `threads`) in warps of
    /// `warp_size` threads.
    #[inline(always)]
    pub(super) fn new(thread: usize, threads: usize, lanes: usize, warp_size: usize) -> Self {
        let lanes = lanes.clamp(1, threads);
        let (groups, group) = (threads / lanes, thread / lanes);
        // Groups a warp holds; the ranking needs whole groups in whole warps.
        let per_warp = warp_size / lanes;
        let first =
            if per_warp > 1 && warp_size.is_multiple_of(lanes) && groups.is_multiple_of(per_warp) {
                group % per_warp * (groups / per_warp) + group / per_warp
            } else {
                group
            };
        EdgeLanes {
            lanes,
            groups,
            group,
            lane: thread % lanes,
            first,
        }
    }
}

/// The relax phase of one compute thread (module docs): the compute threads
/// form groups of [`RoundSettings::edge_lanes`] (`place`); a group takes the
/// frontier entries `first, first + groups, …` of the first `selected`
/// ([`EdgeLanes::first`]), and lane `l` of it the entry's edges `l, l +
/// lanes, …`, read from `edges`. With about as many lanes as a vertex has
/// edges, each lane walks about one: a round waits for one edge's chain of
/// shared-memory accesses, not for a vertex's edges one after another. Then
/// each warp chains the hops its improvements opened ([`chain_hops`];
/// `queues`: the thread's warp's, `None` for a warp with no queues in
/// [`Local::chain`], which chains nothing).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(super) fn relax_frontier<W: Weight>(
    edges: &impl OutEdges,
    selected: usize,
    place: &EdgeLanes,
    queues: Option<&ChainQueues<'_>>,
    round: &RoundTargets<'_>,
    pieces: &Pieces<'_>,
    global: &Global<'_>,
    local: &Local<'_>,
    team: &impl BlockTeam,
) {
    let EdgeLanes {
        lanes,
        groups,
        group,
        lane,
        first,
    } = *place;
    let fill = queues.map(|q| q.buffer(0));
    if group < groups {
        let mut k = first;
        while k < selected {
            let v = local.frontier[k].load(Relaxed) as usize;
            let targets = (fill, round, pieces, global);
            relax_vertex::<W>(v, (lane, lanes), edges, targets, local, team);
            k += groups;
        }
    }
    if let Some(queues) = queues {
        chain_hops::<W>(edges, queues, round, pieces, global, local, team);
    }
}

/// Relaxes the edges `lane, lane + lanes, …` of the piece's vertex `v` (a
/// local index) with its distance here ([`relax_edge`]; `chain`: the
/// warp's queue being filled).
#[inline(always)]
pub(super) fn relax_vertex<W: Weight>(
    v: usize,
    (lane, lanes): (usize, usize),
    edges: &impl OutEdges,
    (chain, round, pieces, global): (
        Option<ChainBuffer<'_>>,
        &RoundTargets<'_>,
        &Pieces<'_>,
        &Global<'_>,
    ),
    local: &Local<'_>,
    team: &impl BlockTeam,
) {
    let d = local.dist[v].load(Relaxed);
    let edge_range = edges.range(v);
    let (lane, lanes) = (lane as u32, lanes as u32);
    let mut e = edge_range.start + lane;
    while e < edge_range.end {
        let (u, w) = edges.edge(e);
        relax_edge(
            W::extend(d, w),
            u,
            chain,
            round,
            pieces,
            global,
            local,
            team,
        );
        e += lanes;
    }
}

/// Offers `candidate` to vertex `u` (a renumbered global id), as the relax
/// phase does for every edge it walks. Inside the piece: an atomic minimum
/// on the shared distance; a vertex it lowered is put in `chain` (this
/// warp's queue being filled) when below the window and there is room, else
/// marked dirty for the next round. Outside: an atomic minimum on the global
/// distance, and the head's piece in the round's outbox (or notified
/// directly) when that lowered it.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(super) fn relax_edge(
    candidate: u32,
    u: u32,
    chain: Option<ChainBuffer<'_>>,
    round: &RoundTargets<'_>,
    pieces: &Pieces<'_>,
    global: &Global<'_>,
    local: &Local<'_>,
    team: &impl BlockTeam,
) {
    let inside = u.wrapping_sub(round.start);
    if inside < round.len {
        let inside = inside as usize;
        // The old word is not read back (a non-returning atomic: no round
        // trip on the edge's path). Where another lane lowered the vertex
        // further in between, it is chained or marked once more: a
        // relaxation too many, never one missed.
        if candidate < local.dist[inside].load(Relaxed) {
            local.dist[inside].fetch_min(candidate, Relaxed);
            let chained =
                candidate < round.window_of(inside) && chain.is_some_and(|q| q.push(inside));
            if !chained {
                round.leave_dirty(inside, candidate, local);
            }
        }
    } else if candidate <= round.bound {
        // Loaded before the minimum's round trip, not after it.
        let u = u as usize;
        let head_piece = pieces.piece_of[u];
        if candidate < global.dist[u].fetch_min(candidate, Relaxed) {
            let slot = if round.outbox_open {
                round.outbox_len.fetch_add(1, Relaxed) as usize
            } else {
                OUTBOX_SLOTS
            };
            if let Some(entry) = round.outbox.get(2 * slot..2 * slot + 2) {
                entry[0].store(head_piece, Relaxed);
                entry[1].store(candidate, Relaxed);
            } else {
                let word = &global.notify[head_piece as usize];
                notify_directly(word, candidate, global, team);
            }
        }
    }
}

/// One warp's two chain queues in shared memory: buffer `b` is a length
/// word and [`CHAIN_SLOTS`] local vertex indices.
#[derive(Clone, Copy)]
pub(super) struct ChainQueues<'a> {
    pub(super) words: &'a [AtomicU32],
    /// This thread's lane in its warp.
    pub(super) lane: usize,
    /// The warp's lanes in groups of `edge_lanes` as the chain relaxes a
    /// queued vertex: how many groups, this lane's group and its lane in it.
    pub(super) groups: usize,
    pub(super) group: usize,
    pub(super) edge_lane: usize,
    pub(super) edge_lanes: usize,
    /// The most hops a chain takes ([`RoundSettings::chain_hops`]).
    pub(super) hops: u32,
}

/// One buffer of a warp's chain queues.
#[derive(Clone, Copy)]
pub(super) struct ChainBuffer<'a> {
    len: &'a AtomicU32,
    slots: &'a [AtomicU32],
}

impl<'a> ChainQueues<'a> {
    /// The queues of compute thread `thread`'s warp, whose vertices it
    /// relaxes [`RoundSettings::edge_lanes`] lanes a vertex for at most
    /// [`RoundSettings::chain_hops`] hops; `None` for a warp past those
    /// [`Local::chain`] has queues for.
    #[inline(always)]
    pub(super) fn of_warp(
        local: &Local<'a>,
        thread: usize,
        settings: &RoundSettings,
        team: &impl BlockTeam,
    ) -> Option<Self> {
        let warp_size = team.warp_size();
        let warp = thread / warp_size;
        let words = local
            .chain
            .get(warp * CHAIN_QUEUE_WORDS..(warp + 1) * CHAIN_QUEUE_WORDS)?;
        let lane = thread % warp_size;
        let edge_lanes = (settings.edge_lanes as usize).clamp(1, warp_size);
        Some(ChainQueues {
            words,
            lane,
            groups: warp_size / edge_lanes,
            group: lane / edge_lanes,
            edge_lane: lane % edge_lanes,
            edge_lanes,
            hops: settings.chain_hops,
        })
    }

    /// Buffer `b` (0 or 1).
    #[inline(always)]
    pub(super) fn buffer(&self, b: usize) -> ChainBuffer<'a> {
        let words = &self.words[b * (1 + CHAIN_SLOTS)..(b + 1) * (1 + CHAIN_SLOTS)];
        ChainBuffer {
            len: &words[0],
            slots: &words[1..],
        }
    }

    /// Buffer `b`'s length word.
    #[inline(always)]
    pub(super) fn len(&self, b: usize) -> &'a AtomicU32 {
        self.buffer(b).len
    }
}

impl ChainBuffer<'_> {
    /// Appends `v`; false when the buffer is full.
    #[inline(always)]
    pub(super) fn push(&self, v: usize) -> bool {
        let slot = self.len.fetch_add(1, Relaxed) as usize;
        match self.slots.get(slot) {
            Some(entry) => {
                entry.store(v as u32, Relaxed);
                true
            }
            None => false,
        }
    }
}

/// The hops a warp chains after the round's frontier (every lane of the
/// warp calls it): the vertices its lanes lowered below the window are
/// relaxed at once by the warp, [`RoundSettings::edge_lanes`] lanes a
/// vertex, and what those lower below the window is relaxed in turn, up to
/// [`RoundSettings::chain_hops`] times; so a path inside the piece and the
/// window advances a hop per warp step (a few shared-memory accesses) rather
/// than per round (two block barriers and a scan of the piece). What is left
/// when the hops run out is marked dirty for the next round, so every
/// lowered vertex is either relaxed after it was lowered or dirty: the
/// round's contract is unchanged.
///
/// Buffer 0 was filled by the frontier's relaxations; each step reads one
/// buffer and fills the other, whose length lane 0 clears between two warp
/// barriers. Both lengths are 0 again when the warp leaves.
#[inline(always)]
pub(super) fn chain_hops<W: Weight>(
    edges: &impl OutEdges,
    queues: &ChainQueues<'_>,
    round: &RoundTargets<'_>,
    pieces: &Pieces<'_>,
    global: &Global<'_>,
    local: &Local<'_>,
    team: &impl BlockTeam,
) {
    let warp_size = team.warp_size();
    // Split once per piece (`ChainQueues::of_warp`): a division per round
    // costs it dozens of instructions.
    let ChainQueues {
        lane,
        groups,
        group,
        edge_lane,
        edge_lanes: lanes,
        hops: most_hops,
        ..
    } = *queues;
    let mut current = 0;
    let mut hops = 0;
    loop {
        team.sync_warp();
        let read = queues.buffer(current);
        let queued = (read.len.load(Relaxed) as usize).min(CHAIN_SLOTS);
        if queued == 0 {
            break;
        }
        let fill = queues.buffer(1 - current);
        if lane == 0 {
            fill.len.store(0, Relaxed);
        }
        team.sync_warp();
        if hops == most_hops {
            let mut k = lane;
            while k < queued {
                let v = read.slots[k].load(Relaxed) as usize;
                round.leave_dirty(v, local.dist[v].load(Relaxed), local);
                k += warp_size;
            }
            break;
        }
        if group < groups {
            let mut k = group;
            while k < queued {
                let v = read.slots[k].load(Relaxed) as usize;
                let targets = (Some(fill), round, pieces, global);
                relax_vertex::<W>(v, (edge_lane, lanes), edges, targets, local, team);
                k += groups;
            }
        }
        hops += 1;
        current = 1 - current;
    }
    team.sync_warp();
    if lane == 0 {
        queues.len(0).store(0, Relaxed);
        queues.len(1).store(0, Relaxed);
    }
}

/// A piece's out-edges as the relax phase reads them.
pub(super) trait OutEdges {
    /// The edges of the piece's vertex `v` (a local index).
    fn range(&self, v: usize) -> core::ops::Range<u32>;
    /// Edge `e`'s head (a renumbered global id) and weight word.
    fn edge(&self, e: u32) -> (u32, u32);
}

impl OutEdges for PieceEdges<'_> {
    #[inline(always)]
    fn range(&self, v: usize) -> core::ops::Range<u32> {
        self.offsets[v].load(Relaxed)..self.offsets[v + 1].load(Relaxed)
    }
    #[inline(always)]
    fn edge(&self, e: u32) -> (u32, u32) {
        let e = e as usize;
        (self.targets[e].load(Relaxed), self.weights[e].load(Relaxed))
    }
}

/// The out-edges of the piece that starts at vertex `start`, in the global
/// CSR (when they do not fit in shared memory).
pub(super) struct GlobalEdges<'a> {
    pub(super) successors: Csr<'a>,
    pub(super) start: usize,
}

impl OutEdges for GlobalEdges<'_> {
    #[inline(always)]
    fn range(&self, v: usize) -> core::ops::Range<u32> {
        let offsets = self.successors.offsets;
        offsets[self.start + v]..offsets[self.start + v + 1]
    }
    #[inline(always)]
    fn edge(&self, e: u32) -> (u32, u32) {
        let e = e as usize;
        (self.successors.targets[e], self.successors.weights[e])
    }
}

/// A compute thread's notification of a piece with distance `sent` (module
/// docs, rule 2), when the round's outbox cannot take it.
#[inline(always)]
pub(super) fn notify_directly(
    notify: &AtomicU32,
    sent: u32,
    global: &Global<'_>,
    team: &impl BlockTeam,
) {
    global.pending.fetch_add(1, Relaxed);
    team.device_fence();
    if notify.fetch_min(sent, Relaxed) != INFINITY {
        global.pending.fetch_sub(1, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use std::format;
    use std::vec::Vec;

    use super::*;

    /// Every group of every split takes a different first frontier entry,
    /// together all of `0..groups`; with whole groups in whole warps,
    /// entries `0..warps` go to the first group of each warp.
    #[test]
    fn groups_rank_warp_by_warp() {
        for threads in [1, 3, 4, 6, 32, 64, 96, 224, 256] {
            for warp_size in [1, 2, 3, 32] {
                for lanes in [1, 2, 3, 4, 8, 16, 32, 64] {
                    let places: Vec<EdgeLanes> = (0..threads)
                        .map(|t| EdgeLanes::new(t, threads, lanes, warp_size))
                        .collect();
                    let groups = places[0].groups;
                    let mut firsts: Vec<usize> = places
                        .iter()
                        .filter(|p| p.group < groups && p.lane == 0)
                        .map(|p| p.first)
                        .collect();
                    firsts.sort_unstable();
                    let context = format!("{threads} threads, warps of {warp_size}, {lanes} lanes");
                    assert_eq!(firsts, (0..groups).collect::<Vec<_>>(), "{context}");
                    let lanes = places[0].lanes;
                    if lanes < warp_size && warp_size % lanes == 0 && threads % warp_size == 0 {
                        let warps = threads / warp_size;
                        for (warp, place) in places.iter().step_by(warp_size).enumerate() {
                            assert_eq!(place.first, warp, "{context}: warp {warp}");
                        }
                        assert_eq!(groups % (warp_size / lanes), 0, "{context}");
                        assert!(warps <= groups, "{context}");
                    }
                }
            }
        }
    }
}
