//! Regions for cutting in parallel (see the module docs of
//! [`crate::partition::pieces`]): phase 1 splits the graph into regions
//! around seeds, phase 2 grows each region's pieces on its own thread.

use std::sync::atomic::AtomicU32;
use std::sync::atomic::Ordering::Relaxed;

use rand_xoshiro::SplitMix64;
use rand_xoshiro::rand_core::{Rng, SeedableRng};
use rayon::prelude::*;

use super::adjacency::Adjacency;
use super::growth::{Growth, NONE, grow};

/// The most regions per rayon thread: a few, so that threads done with their
/// regions can take over others.
pub(super) const REGIONS_PER_THREAD: usize = 4;

/// The fewest pieces per region: each region adds one mixed piece and cuts
/// pieces along its border, so regions stay large against pieces.
pub(super) const PIECES_PER_REGION: usize = 256;

/// The fewest rayon threads for regions: phases 1 and 2 together do 2.5–4
/// times the growth's work on one thread, and phase 1 ran at most 1.5 times
/// as fast on two (road graphs and grids on 2 cores), so fewer threads would
/// gain little or lose.
pub(super) const FEWEST_THREADS: usize = 8;

/// Marks a region's claim on a vertex within one level of phase 1, before it
/// is final.
pub(super) const TENTATIVE: u32 = 1 << 31;

/// Phase 1 handles frontiers of up to this many vertices on one thread.
const FRONTIER_CHUNK: usize = 1 << 10;

/// Phase 1 (see the module docs) for `regions` seeds (2 to `n`): each
/// vertex's region as its word, and the vertices of each region in id order.
pub(super) fn split_into_regions(
    adjacency: &Adjacency,
    regions: usize,
) -> (Vec<AtomicU32>, Vec<Vec<u32>>) {
    let n = adjacency.successors.num_vertices();
    let words: Vec<AtomicU32> = (0..n)
        .into_par_iter()
        .map(|_| AtomicU32::new(NONE))
        .collect();
    // One seed in each of `regions` equal ranges of ids, at a scrambled
    // offset (the middle would line the seeds up on grids stored row by row).
    let mut frontier: Vec<u32> = (0..regions)
        .map(|r| {
            let (start, end) = (r * n / regions, (r + 1) * n / regions);
            let scrambled = SplitMix64::seed_from_u64(r as u64).next_u64();
            (start + (scrambled % (end - start) as u64) as usize) as u32
        })
        .collect();
    for (r, &seed) in frontier.iter().enumerate() {
        words[seed as usize].store(r as u32, Relaxed);
    }
    // One level: each unclaimed neighbour of the frontier goes to the
    // smallest region that reaches it (the least tentative word)...
    let claim = |vertices: &[u32]| {
        let mut claimed = Vec::new();
        for &u in vertices {
            let mine = words[u as usize].load(Relaxed) | TENTATIVE;
            for v in adjacency.neighbours(u as usize) {
                if words[v].load(Relaxed) > mine && words[v].fetch_min(mine, Relaxed) == NONE {
                    claimed.push(v as u32);
                }
            }
        }
        claimed
    };
    // ...and is final once the level is done.
    let make_final = |&v: &u32| {
        let word = &words[v as usize];
        word.store(word.load(Relaxed) & !TENTATIVE, Relaxed);
    };
    // On a worker thread, so that each level's parallel loops start without
    // waking this one.
    rayon::scope(|_| {
        while !frontier.is_empty() {
            frontier = if frontier.len() <= FRONTIER_CHUNK {
                let next = claim(&frontier);
                next.iter().for_each(make_final);
                next
            } else {
                let next: Vec<u32> = frontier
                    .par_chunks(FRONTIER_CHUNK)
                    .flat_map_iter(claim)
                    .collect();
                next.par_iter().for_each(make_final);
                next
            };
        }
    });

    // Each region's vertices in id order: ranges of ids in parallel, then
    // each region's parts in range order. The last list holds the unreached.
    let range = n.div_ceil(REGIONS_PER_THREAD * rayon::current_num_threads());
    let parts: Vec<Vec<Vec<u32>>> = words
        .par_chunks(range)
        .enumerate()
        .map(|(k, chunk)| {
            let mut lists = vec![Vec::new(); regions + 1];
            for (v, word) in (k * range..).zip(chunk) {
                let region = word.load(Relaxed) as usize;
                lists[region.min(regions)].push(v as u32);
            }
            lists
        })
        .collect();
    let mut members: Vec<Vec<u32>> = (0..=regions)
        .into_par_iter()
        .map(|r| {
            let mut list = Vec::with_capacity(parts.iter().map(|lists| lists[r].len()).sum());
            parts
                .iter()
                .for_each(|lists| list.extend_from_slice(&lists[r]));
            list
        })
        .collect();
    drop(parts);
    let unreached = members.pop().unwrap_or_default();
    for chunk in unreached.chunks(n.div_ceil(regions)) {
        let region = members.len() as u32;
        chunk
            .par_iter()
            .for_each(|&v| words[v as usize].store(region, Relaxed));
        members.push(chunk.to_vec());
    }
    (words, members)
}

/// Phase 2 (see the module docs): the regions' pieces grown in parallel,
/// then put in order (all full but the last) by copies in parallel.
pub(super) fn grow_regions(
    words: &[AtomicU32],
    members: &[Vec<u32>],
    capacity: usize,
    growth: Growth,
    adjacency: &Adjacency,
) -> Vec<u32> {
    let grown: Vec<Vec<u32>> = members
        .par_iter()
        .enumerate()
        .map(|(r, list)| {
            let order = list.iter().map(|&v| v as usize);
            grow(words, r as u32, capacity, order, growth, adjacency)
        })
        .collect();
    let (full, remainders): (Vec<&[u32]>, Vec<&[u32]>) = grown
        .iter()
        .map(|vertices| vertices.split_at(vertices.len() / capacity * capacity))
        .unzip();
    let mut order = vec![0u32; words.len()];
    let mut rest = &mut order[..];
    let mut copies = Vec::with_capacity(2 * grown.len());
    for from in full.into_iter().chain(remainders) {
        let (to, tail) = std::mem::take(&mut rest).split_at_mut(from.len());
        copies.push((to, from));
        rest = tail;
    }
    copies
        .into_par_iter()
        .for_each(|(to, from)| to.copy_from_slice(from));
    order
}
