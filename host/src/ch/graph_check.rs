//! [`Hierarchy::check_graph`]: whether an index is the index of a graph,
//! checked in time linear in the index and the graph (in parallel), so that
//! no edit of an index file (its checksum recomputed) gives a distance
//! shorter than the graph's, nor drops an arc of the graph.
//!
//! What is checked, beyond [`Hierarchy::validate`] (a permutation, levels,
//! every arc upward, every middle lower, rows sorted), in the order 1, 4
//! with 2 (each arc of the graph finds its one place in the index), 3:
//! 1. the vertex count, the weight kind and the [`graph_checksum`] of the
//!    graph's lightest arcs ([`Lightest`]);
//! 2. every arc of the graph in the index is the graph's lightest arc of
//!    its pair, with its weight;
//! 3. every shortcut's halves (the arcs of its middle vertex to its two
//!    ends) are in the index, and its weight is theirs summed as the build
//!    sums them: exactly for `u32` weights; for `f32` weights in `f64`, each
//!    arc's `f64` length recomputed from the bottom level up and rounded once
//!    to `f32`, the build's word bit for bit;
//! 4. every arc of the graph (its lightest per pair, self-loops aside) is in
//!    the index, no heavier.
//!
//! By 2 and 3 every arc of the index is a path of the graph of its weight,
//! so every distance from the index is the length of a path of the graph
//! (never shorter than the shortest); by 4 no arc of the graph is missing.
//! What a linear check cannot see is a shortcut removed together with
//! every shortcut built on it: proving that none was needed takes the
//! build's witness searches. The distances of such an index can only be
//! too long, which checking a tree against the graph's arcs (no arc
//! `u → v` with `d(u) + w < d(v)`) catches.
//!
//! [`graph_checksum`]: super::index::graph_checksum

use std::path::Path;

use gpu_kernels::distance::WeightKind;
use rayon::prelude::*;

use super::index::{Arcs, Hierarchy, NO_MIDDLE, lightest_checksum};
use super::lightest::Lightest;
use crate::graph::Graph;
use crate::{Error, Result};

impl Hierarchy {
    /// An error unless this index (read from `path`) is an index of
    /// `graph` (see the module documentation of what is checked).
    pub fn check_graph(&self, graph: &Graph, path: &Path) -> Result<()> {
        let index = |reason: String| Error::Index {
            path: path.to_path_buf(),
            reason,
        };
        if self.num_vertices() != graph.num_vertices() {
            return Err(index(format!(
                "it was built for a graph of {} vertices; this graph has {}",
                self.num_vertices(),
                graph.num_vertices()
            )));
        }
        if self.weight_kind != graph.weight_kind() {
            return Err(index(format!(
                "it was built for {} weights; this graph has {} weights",
                self.weight_kind.name(),
                graph.weight_kind().name()
            )));
        }
        let lightest = Lightest::new(graph);
        let checksum = lightest_checksum(&lightest, graph.weight_kind());
        if self.graph_checksum != checksum {
            return Err(index(format!(
                "it was built from another graph: the same vertices but other arcs (graph \
                 checksum {:016x}, this graph's {checksum:016x}; parallel arcs count by the \
                 lightest, self-loops not at all)",
                self.graph_checksum
            )));
        }
        self.check_arcs(&lightest).map_err(index)
    }

    /// Checks 2–4 of the module documentation against `lightest`, the
    /// lightest arcs of a graph of as many vertices.
    fn check_arcs(&self, lightest: &Lightest) -> Result<(), String> {
        self.validate()?;
        // Each arc of the graph has one place in the index, so when as many
        // arcs of the graph as the index has found theirs (of the same
        // weight), every arc of the graph in the index is one.
        let matched = self.check_cover(lightest)?;
        let originals: usize = [&self.up, &self.down]
            .iter()
            .map(|arcs| arcs.middles.par_iter().filter(|&&m| m == NO_MIDDLE).count())
            .sum();
        if matched != originals {
            return Err(self.original_not_in_graph(lightest));
        }
        match self.weight_kind {
            WeightKind::U32 => self.check_weights::<Exact>(),
            WeightKind::F32 => self.check_weights::<Rounded>(),
        }
    }

    /// The first arc of the index that claims to be an arc of the graph
    /// and is none.
    fn original_not_in_graph(&self, lightest: &Lightest) -> String {
        for side in [Side::Up, Side::Down] {
            let arcs = side.arcs(self);
            for x in 0..self.num_vertices() {
                for e in arcs.range(x) {
                    let (tail, head) = self.graph_pair(side, x, arcs.ends[e]);
                    if arcs.middles[e] == NO_MIDDLE
                        && lightest.weight(tail as usize, head).is_none()
                    {
                        return format!("{} is no arc of the graph", self.describe(side, e, x));
                    }
                }
            }
        }
        "an arc of the graph is in the index twice".into()
    }

    /// The arc of lower position `x` and higher `end` on `side` as graph
    /// vertices, its tail first.
    fn graph_pair(&self, side: Side, x: usize, end: u32) -> (u32, u32) {
        let (tail, head) = side.pair(x as u32, end);
        (self.vertex[tail as usize], self.vertex[head as usize])
    }

    /// Arc `e` of position `x` on `side`, for people.
    fn describe(&self, side: Side, e: usize, x: usize) -> String {
        let arcs = side.arcs(self);
        let (tail, head) = self.graph_pair(side, x, arcs.ends[e]);
        format!(
            "{} arc {e} (graph vertices {tail} → {head}, counted from 0, weight {})",
            side.name(),
            shown(self.weight_kind, arcs.weights[e])
        )
    }

    /// Checks 3, one level at a time from the bottom (a shortcut's halves
    /// are arcs of its middle, on a lower level), the vertices of a level in
    /// parallel. The down arcs of a symmetric index are its up arcs, their
    /// lengths the same: they are computed once.
    fn check_weights<S: Sums>(&self) -> Result<(), String> {
        let symmetric = self.is_symmetric();
        let mut up_lengths = vec![S::Length::default(); self.up.len()];
        let mut down_lengths =
            vec![S::Length::default(); if symmetric { 0 } else { self.down.len() }];
        for level in (0..self.num_levels()).rev() {
            let (first, end) = (
                self.level_starts[level] as usize,
                self.level_starts[level + 1] as usize,
            );
            let (up_here, up_below) = level_split(&self.up, &mut up_lengths, first, end);
            let (down_here, down_below) = if symmetric {
                (Vec::new(), up_below)
            } else {
                level_split(&self.down, &mut down_lengths, first, end)
            };
            let below = Below {
                up: up_below,
                up_from: self.up.offsets[end] as usize,
                down: down_below,
                down_from: self.down.offsets[end] as usize,
            };
            let mut down_rows: Vec<Option<&mut [S::Length]>> =
                down_here.into_iter().map(Some).collect();
            down_rows.resize_with(end - first, || None);
            let failure = (first..end)
                .into_par_iter()
                .zip(up_here.into_par_iter().zip(down_rows))
                .map(|(x, (up, down))| {
                    self.row_lengths::<S>(&below, x, Side::Up, up)?;
                    match down {
                        Some(down) => self.row_lengths::<S>(&below, x, Side::Down, down),
                        None => Ok(()),
                    }
                })
                .find_map_first(Result::err);
            if let Some(reason) = failure {
                return Err(reason);
            }
        }
        Ok(())
    }

    /// The lengths of position `x`'s arcs on `side` into `lengths`, each
    /// checked against its word.
    fn row_lengths<S: Sums>(
        &self,
        below: &Below<S::Length>,
        x: usize,
        side: Side,
        lengths: &mut [S::Length],
    ) -> Result<(), String> {
        let arcs = side.arcs(self);
        for (e, length) in arcs.range(x).zip(lengths) {
            let (end, word, middle) = (arcs.ends[e], arcs.weights[e], arcs.middles[e]);
            let arc = || self.describe(side, e, x);
            if middle == NO_MIDDLE {
                // Its weight is the graph's: `check_cover` checks it.
                *length = S::length(word);
                continue;
            }
            // A shortcut `t → h` through `m`: `t → m` is a down arc of `m`,
            // `m → h` an up arc of `m`.
            let (t, h) = side.pair(x as u32, end);
            let m = middle as usize;
            let half = |side: Side, other: u32| {
                let arcs = side.arcs(self);
                let row = &arcs.ends[arcs.range(m)];
                row.binary_search(&other)
                    .map(|i| below.length(side, arcs.offsets[m] as usize + i))
                    .map_err(|_| {
                        format!(
                            "{} is a shortcut through graph vertex {} without the arc of that \
                             vertex to {}",
                            arc(),
                            self.vertex[m],
                            self.vertex[other as usize]
                        )
                    })
            };
            let sum = S::add(half(Side::Down, t)?, half(Side::Up, h)?);
            match S::word(sum) {
                Some(expected) if expected == word => *length = sum,
                expected => {
                    return Err(format!(
                        "{}: its halves through graph vertex {} sum to {}",
                        arc(),
                        self.vertex[m],
                        expected.map_or("more than a weight holds".into(), |w| shown(
                            self.weight_kind,
                            w
                        ))
                    ));
                }
            }
        }
        Ok(())
    }

    /// Checks 4 (in parallel over the graph's vertices), and 2 for the arcs
    /// of the index that the graph's arcs find: the number of those.
    fn check_cover(&self, lightest: &Lightest) -> Result<usize, String> {
        let counts = (0..lightest.num_vertices())
            .into_par_iter()
            .map(|u| {
                let mut matched = 0;
                let pu = self.position[u];
                for &(v, weight) in lightest.row(u) {
                    let pv = self.position[v as usize];
                    // Stored with the lower vertex: an up arc of `u` or a down arc of `v`.
                    let (side, lower, higher) = if pu > pv {
                        (Side::Up, pu, pv)
                    } else {
                        (Side::Down, pv, pu)
                    };
                    let arcs = side.arcs(self);
                    let range = arcs.range(lower as usize);
                    let found = arcs.ends[range.clone()]
                        .binary_search(&higher)
                        .map(|i| range.start + i);
                    match found.map(|e| (e, arcs.weights[e], arcs.middles[e])) {
                        Ok((_, word, NO_MIDDLE)) if word == weight => matched += 1,
                        Ok((e, _, NO_MIDDLE)) => {
                            return Err(format!(
                                "{}: the graph's lightest arc {u} → {v} has weight {}",
                                self.describe(side, e, lower as usize),
                                shown(self.weight_kind, weight)
                            ));
                        }
                        Ok((_, word, _)) if word <= weight => {}
                        Ok((_, word, _)) => {
                            return Err(format!(
                                "the graph's arc {u} → {v} (counted from 0) has weight {}; \
                                 the index's arc between them is heavier ({})",
                                shown(self.weight_kind, weight),
                                shown(self.weight_kind, word)
                            ));
                        }
                        Err(_) => {
                            return Err(format!(
                                "the graph's arc {u} → {v} (counted from 0, weight {}) is not \
                                 in the index",
                                shown(self.weight_kind, weight)
                            ));
                        }
                    }
                }
                Ok(matched)
            })
            .collect::<Vec<Result<usize, String>>>();
        counts.into_iter().sum()
    }
}

/// Up or down arcs.
#[derive(Clone, Copy)]
enum Side {
    Up,
    Down,
}

impl Side {
    fn arcs(self, hierarchy: &Hierarchy) -> &Arcs {
        match self {
            Side::Up => &hierarchy.up,
            Side::Down => &hierarchy.down,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Side::Up => "up",
            Side::Down => "down",
        }
    }

    /// The arc of lower position `x` and higher `end` as `(tail, head)`.
    fn pair(self, x: u32, end: u32) -> (u32, u32) {
        match self {
            Side::Up => (x, end),
            Side::Down => (end, x),
        }
    }
}

/// The checked lengths of the arcs of the levels below the current one: the
/// up and down arcs from `up_from` and `down_from` on.
struct Below<'a, L> {
    up: &'a [L],
    up_from: usize,
    down: &'a [L],
    down_from: usize,
}

impl<L: Copy> Below<'_, L> {
    fn length(&self, side: Side, e: usize) -> L {
        match side {
            Side::Up => self.up[e - self.up_from],
            Side::Down => self.down[e - self.down_from],
        }
    }
}

/// `lengths` of `arcs` split into the rows of positions `first..end` (one
/// level, to be written) and the arcs of the positions after `end` (the
/// levels below, read).
fn level_split<'a, L>(
    arcs: &Arcs,
    lengths: &'a mut [L],
    first: usize,
    end: usize,
) -> (Vec<&'a mut [L]>, &'a [L]) {
    let (here, below) = lengths.split_at_mut(arcs.offsets[end] as usize);
    let mut rest = &mut here[arcs.offsets[first] as usize..];
    let mut rows = Vec::with_capacity(end - first);
    for x in first..end {
        let (row, tail) = std::mem::take(&mut rest).split_at_mut(arcs.range(x).len());
        rows.push(row);
        rest = tail;
    }
    (rows, below)
}

/// A weight word for people.
fn shown(kind: WeightKind, word: u32) -> String {
    match kind {
        WeightKind::U32 => word.to_string(),
        WeightKind::F32 => f32::from_bits(word).to_string(),
    }
}

/// How the build sums a shortcut's halves: the length of every arc of the
/// index, and its weight word.
trait Sums {
    type Length: Copy + Default + Send + Sync;
    /// The length of an arc of the graph of weight `word`.
    fn length(word: u32) -> Self::Length;
    /// The length of a shortcut of halves `a` and `b`.
    fn add(a: Self::Length, b: Self::Length) -> Self::Length;
    /// The weight word of `length`, if it has one.
    fn word(length: Self::Length) -> Option<u32>;
}

/// `u32` weights: exact sums.
struct Exact;

impl Sums for Exact {
    type Length = u64;

    fn length(word: u32) -> u64 {
        word as u64
    }

    fn add(a: u64, b: u64) -> u64 {
        a + b
    }

    fn word(length: u64) -> Option<u32> {
        u32::try_from(length).ok()
    }
}

/// `f32` weights: `f64` sums rounded once (the build's keys).
struct Rounded;

impl Sums for Rounded {
    type Length = f64;

    fn length(word: u32) -> f64 {
        f32::from_bits(word) as f64
    }

    fn add(a: f64, b: f64) -> f64 {
        a + b
    }

    fn word(length: f64) -> Option<u32> {
        Some((length as f32).to_bits())
    }
}
