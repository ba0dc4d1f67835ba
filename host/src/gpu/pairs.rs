//! Batched point-to-point distances of a contraction hierarchy on the GPU:
//! one thread a pair, each with a hash table and two heaps of its own
//! ([`gpu_kernels::pair_query`]), as many threads as can be resident (and
//! as the device's memory allows), each taking the next pair as it finishes
//! the last. The index's arcs are uploaded once; the pairs go up and the
//! distances come down in batches.
//!
//! The scratch is sized from a sample of random pairs answered on the host
//! by the same code, with twice the memory the sample's largest query used.
//! A query that needs more stops and is answered on the CPU
//! ([`crate::ch::query::distance`]): a large query costs time, never a
//! wrong distance.

use gpu_kernels::distance::INFINITY;
use gpu_kernels::launch::BLOCK_SIZE;
use gpu_kernels::pair_query::{self, Entry, Outcome, Queries, Scratch, UpwardArcs, Usage};
use rayon::prelude::*;

use super::context::Gpu;
use super::kernels::{DevicePairs, DeviceUpwardArcs, PairScratch};
use super::memory::{alloc_zeroed, bytes_of, upload};
use crate::ch::index::Arcs;
use crate::ch::{Hierarchy, query};
use crate::graph::{WeightKind, with_weight_type};
use crate::{Error, Result};

/// Pairs from which a caller that may choose (`--device auto`) answers
/// distances on the GPU: below this the CPU's cores answer them before the
/// GPU's batch has paid for its upload and its scratch.
pub const GPU_PAIRS_FROM: usize = 10_000;

/// Pairs per launch: 16 bytes a pair on the device (64 MiB a batch).
const BATCH: usize = 1 << 22;

/// Random pairs answered on the host to size the scratch.
const SAMPLE: usize = 512;

/// The largest table and heap of a thread (1 MiB and 512 KiB), and the
/// table and heap the sample runs with.
const MOST_ENTRIES: usize = 1 << 16;

/// The device memory the scratch may take: at most this share of what is
/// free, and at most [`MOST_SCRATCH_BYTES`].
const SCRATCH_SHARE_OF_FREE: u64 = 2;
const MOST_SCRATCH_BYTES: u64 = 16 << 30;

/// A hierarchy's arcs on the GPU, ready for batches of pairs.
pub struct GpuPairs<'a> {
    gpu: &'a Gpu,
    hierarchy: &'a Hierarchy,
    arcs: [DeviceUpwardArcs; 2],
    table_len: u32,
    heap_len: u32,
    /// Threads the device keeps resident and its memory allows.
    most_threads: u32,
    scratch: Option<PairScratch>,
    pairs: Option<(DevicePairs, usize)>,
    /// The epoch of the next launch's first queries.
    epoch: u32,
    /// Pairs answered on the CPU because their query needed more than a
    /// thread's scratch.
    overflowed: usize,
}

impl<'a> GpuPairs<'a> {
    /// Uploads the arcs of `hierarchy` and sizes the threads' scratch.
    pub fn new(gpu: &'a Gpu, hierarchy: &'a Hierarchy) -> Result<Self> {
        let n = hierarchy.num_vertices();
        if n >= u32::MAX as usize {
            return Err(Error::InvalidArgument(format!(
                "{n} vertices do not fit the kernels' 32-bit positions"
            )));
        }
        let stream = gpu.stream();
        let up_down = [&hierarchy.up, &hierarchy.down];
        gpu.check_fits(
            "the hierarchy's arcs",
            up_down
                .iter()
                .map(|a| bytes_of::<u32>(a.offsets.len() + 2 * a.len()))
                .sum(),
        )?;
        let device = |arcs: &Arcs, what: &str| -> Result<DeviceUpwardArcs> {
            Ok(DeviceUpwardArcs {
                offsets: upload(stream, &arcs.offsets, &format!("the {what} arcs' offsets"))?,
                ends: upload(stream, &arcs.ends, &format!("the {what} arcs' ends"))?,
                weights: upload(stream, &arcs.weights, &format!("the {what} arcs' weights"))?,
                m: arcs.len() as u32,
            })
        };
        let arcs = [
            device(&hierarchy.up, "up")?,
            device(&hierarchy.down, "down")?,
        ];
        let usage = sample_usage(hierarchy);
        let table_len = (usage.entries as usize * 8 / 3 + 4)
            .max(64)
            .next_power_of_two()
            .min(MOST_ENTRIES);
        let heap_len = (2 * usage.keys as usize)
            .max(32)
            .next_power_of_two()
            .min(MOST_ENTRIES);
        let per_thread = bytes_of::<Entry>(table_len) + bytes_of::<u64>(2 * heap_len);
        let (free, _) = gpu.memory_info()?;
        let budget = (free / SCRATCH_SHARE_OF_FREE).min(MOST_SCRATCH_BYTES);
        let resident = gpu
            .kernels()
            .pair_query
            .resident_threads(stream.context())?;
        let fit = (budget / per_thread).min(u64::from(resident)) as u32 / BLOCK_SIZE * BLOCK_SIZE;
        Ok(GpuPairs {
            gpu,
            hierarchy,
            arcs,
            table_len: table_len as u32,
            heap_len: heap_len as u32,
            most_threads: fit.max(BLOCK_SIZE),
            scratch: None,
            pairs: None,
            epoch: 1,
            overflowed: 0,
        })
    }

    /// Entries of a thread's table and keys of each of its heaps.
    pub fn scratch_shape(&self) -> (u32, u32) {
        (self.table_len, self.heap_len)
    }

    /// Later batches give each thread a table of `table_len` entries (a
    /// power of two, 2 or more) and heaps of `heap_len` keys (1 or more),
    /// whatever the sample said: for tests of the overflow path.
    pub fn set_scratch_shape(&mut self, table_len: u32, heap_len: u32) -> Result<()> {
        if table_len < 2 || !table_len.is_power_of_two() || heap_len == 0 {
            return Err(Error::InvalidArgument(format!(
                "a pairs' scratch of tables of {table_len} entries and heaps of {heap_len} keys:                  tables take a power of two of 2 or more, heaps 1 or more"
            )));
        }
        let per_thread =
            bytes_of::<Entry>(table_len as usize) + bytes_of::<u64>(2 * heap_len as usize);
        let old = bytes_of::<Entry>(self.table_len as usize)
            + bytes_of::<u64>(2 * self.heap_len as usize);
        // No more threads than before, in no more memory than before.
        let most = (u64::from(self.most_threads) * old / per_thread.max(1))
            .min(u64::from(self.most_threads)) as u32;
        self.most_threads = (most / BLOCK_SIZE * BLOCK_SIZE).max(BLOCK_SIZE);
        (self.table_len, self.heap_len) = (table_len, heap_len);
        self.scratch = None;
        Ok(())
    }

    /// Pairs answered on the CPU so far because their query needed more
    /// memory than a thread has.
    pub fn overflowed(&self) -> usize {
        self.overflowed
    }

    /// The distance word of each pair `(source, target)` of graph vertices,
    /// [`INFINITY`] where the target is unreachable; the same words as
    /// [`crate::ch::pairs::pair_distances`]. A vertex out of range is an
    /// [`Error::InvalidArgument`] naming the pair.
    pub fn distances(&mut self, pairs: &[(usize, usize)]) -> Result<Vec<u32>> {
        crate::ch::pairs::check_pairs(self.hierarchy, pairs)?;
        let h = self.hierarchy;
        let mut dist = vec![INFINITY; pairs.len()];
        let mut overflow = vec![0u32; pairs.len()];
        for (i, chunk) in pairs.chunks(BATCH).enumerate() {
            let at = i * BATCH;
            let (sources, targets): (Vec<u32>, Vec<u32>) = chunk
                .par_iter()
                .map(|&(s, t)| (h.position[s], h.position[t]))
                .unzip();
            self.batch(
                (&sources, &targets),
                &mut dist[at..at + chunk.len()],
                &mut overflow[at..at + chunk.len()],
            )?;
        }
        let redo: Vec<usize> = (0..pairs.len()).filter(|&i| overflow[i] != 0).collect();
        self.overflowed += redo.len();
        let answers: Vec<u32> = redo
            .par_iter()
            .map(|&i| query::distance(h, pairs[i].0, pairs[i].1))
            .collect();
        for (&i, d) in redo.iter().zip(answers) {
            dist[i] = d;
        }
        Ok(dist)
    }

    /// One launch's pairs of positions: their distance words and overflow
    /// flags into `dist` and `overflow`.
    fn batch(
        &mut self,
        (sources, targets): (&[u32], &[u32]),
        dist: &mut [u32],
        overflow: &mut [u32],
    ) -> Result<()> {
        let count = sources.len();
        let threads = (count as u32)
            .div_ceil(BLOCK_SIZE)
            .saturating_mul(BLOCK_SIZE)
            .min(self.most_threads);
        let stream = self.gpu.stream().clone();
        self.grow_scratch(threads)?;
        let pairs = self.device_pairs(count)?;
        stream
            .memcpy_htod(sources, &mut pairs.sources)
            .map_err(Error::cuda("copying the pairs' sources to the GPU"))?;
        stream
            .memcpy_htod(targets, &mut pairs.targets)
            .map_err(Error::cuda("copying the pairs' targets to the GPU"))?;
        // An epoch for every pair at most (a thread may take many of them).
        let epochs = count as u32;
        let Some(scratch) = self.scratch.as_mut() else {
            return Err(Error::Internal("the pairs' scratch is missing".into()));
        };
        if u64::from(self.epoch) + u64::from(epochs) > u64::from(u32::MAX) {
            // Every epoch has been used: the tables start again from zero.
            stream
                .memset_zeros(&mut scratch.table)
                .map_err(Error::cuda("clearing the pairs' tables"))?;
            self.epoch = 1;
        }
        let Some((pairs, _)) = self.pairs.as_mut() else {
            return Err(Error::Internal("the pairs' buffers are missing".into()));
        };
        self.gpu.kernels().pair_query.query(
            &stream,
            self.hierarchy.weight_kind,
            (&self.arcs, self.hierarchy.num_vertices() as u32),
            pairs,
            count as u32,
            scratch,
            (
                threads,
                self.epoch,
                self.hierarchy.weight_kind == WeightKind::U32,
            ),
        )?;
        self.epoch += epochs;
        stream
            .memcpy_dtoh(&pairs.dist.slice(..count), dist)
            .map_err(Error::cuda("copying the pairs' distances from the GPU"))?;
        stream
            .memcpy_dtoh(&pairs.overflow.slice(..count), overflow)
            .map_err(Error::cuda(
                "copying the pairs' overflow flags from the GPU",
            ))?;
        Ok(())
    }

    /// The scratch of at least `threads` threads (a new, zeroed one when
    /// the current one is smaller).
    fn grow_scratch(&mut self, threads: u32) -> Result<()> {
        if self.scratch.as_ref().is_some_and(|s| s.threads >= threads) {
            return Ok(());
        }
        self.scratch = None;
        let t = threads as usize;
        self.scratch = Some(PairScratch {
            table: alloc_zeroed(
                self.gpu,
                4 * t * self.table_len as usize,
                "the pairs' hash tables",
            )?,
            table_len: self.table_len,
            heaps: alloc_zeroed(self.gpu, 2 * t * self.heap_len as usize, "the pairs' heaps")?,
            heap_len: self.heap_len,
            threads,
            next: alloc_zeroed(self.gpu, 1, "the pairs' counter")?,
        });
        self.epoch = 1;
        Ok(())
    }

    /// Device buffers for `count` pairs (new ones when the current ones are
    /// smaller).
    fn device_pairs(&mut self, count: usize) -> Result<&mut DevicePairs> {
        if !self.pairs.as_ref().is_some_and(|(_, len)| *len >= count) {
            self.pairs = None;
            let buffer = |what: &str| alloc_zeroed::<u32>(self.gpu, count, what);
            self.pairs = Some((
                DevicePairs {
                    sources: buffer("the pairs' sources")?,
                    targets: buffer("the pairs' targets")?,
                    dist: buffer("the pairs' distances")?,
                    overflow: buffer("the pairs' overflow flags")?,
                },
                count,
            ));
        }
        match self.pairs.as_mut() {
            Some((pairs, _)) => Ok(pairs),
            None => Err(Error::Internal("the pairs' buffers are missing".into())),
        }
    }
}

/// The most memory a query of [`SAMPLE`] random pairs of `h` used, each
/// answered on the host by the GPU's code with [`MOST_ENTRIES`] of scratch.
pub fn sample_usage(h: &Hierarchy) -> Usage {
    let n = h.num_vertices() as u64;
    if n == 0 {
        return Usage::default();
    }
    let arcs = upward_arcs(h);
    let stall = h.weight_kind == WeightKind::U32;
    (0..SAMPLE as u64)
        .into_par_iter()
        .map_init(ScratchVecs::default, |vecs, i| {
            // SplitMix64 of the sample's index: fixed pairs for one index.
            let mix = |x: u64| {
                let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
                z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
                z ^ (z >> 31)
            };
            let (s, t) = ((mix(2 * i) % n) as u32, (mix(2 * i + 1) % n) as u32);
            let mut usage = Usage::default();
            let epoch = vecs.next_epoch();
            let mut scratch = vecs.scratch();
            with_weight_type!(h.weight_kind, W => {
                pair_query::query::<W>(arcs, (s, t), stall, &mut scratch, (epoch, &mut usage))
            });
            usage
        })
        .reduce(Usage::default, |a, b| Usage {
            entries: a.entries.max(b.entries),
            keys: a.keys.max(b.keys),
        })
}

/// The hierarchy's arcs as the queries read them.
fn upward_arcs(h: &Hierarchy) -> [UpwardArcs<'_>; 2] {
    fn view(a: &Arcs) -> UpwardArcs<'_> {
        UpwardArcs {
            offsets: &a.offsets,
            ends: &a.ends,
            weights: &a.weights,
        }
    }
    [view(&h.up), view(&h.down)]
}

/// A host thread's scratch for [`pair_query::query`], [`MOST_ENTRIES`] of
/// each.
pub struct ScratchVecs {
    table: Vec<Entry>,
    heaps: [Vec<u64>; 2],
    /// The last query's epoch.
    epoch: u32,
}

impl Default for ScratchVecs {
    fn default() -> Self {
        ScratchVecs::new(MOST_ENTRIES, MOST_ENTRIES)
    }
}

impl ScratchVecs {
    /// A table of `table_len` entries (a power of two, 2 or more; else
    /// [`host_query`] panics) and heaps of `heap_len` keys.
    pub fn new(table_len: usize, heap_len: usize) -> Self {
        ScratchVecs {
            table: vec![[0; 4]; table_len],
            heaps: [vec![0; heap_len], vec![0; heap_len]],
            epoch: 0,
        }
    }

    /// A new query's epoch (the table cleared when every epoch is used).
    fn next_epoch(&mut self) -> u32 {
        self.reserve_epochs(1)
    }

    /// The first of `count` new epochs (the table cleared when they would
    /// run past the last).
    fn reserve_epochs(&mut self, count: usize) -> u32 {
        if u64::from(self.epoch) + count as u64 > u64::from(u32::MAX) {
            self.table.fill([0; 4]);
            self.epoch = 0;
        }
        let first = self.epoch + 1;
        self.epoch += count as u32;
        first
    }

    /// The scratch view.
    fn scratch(&mut self) -> Scratch<'_> {
        let [forward, backward] = &mut self.heaps;
        Scratch {
            table: &mut self.table,
            heaps: [forward, backward],
        }
    }
}

/// The pairs `(source, target)` of graph vertices answered on the host
/// as a GPU thread answers its pairs: one [`Queries`] over the scratch of
/// `vecs`, each pair under the next epoch, advanced a settled vertex at a
/// time. Each pair's distance word, or `None` when its query needed more
/// than the scratch.
pub fn host_queries(
    h: &Hierarchy,
    vecs: &mut ScratchVecs,
    pairs: &[(usize, usize)],
) -> Vec<Option<u32>> {
    let arcs = upward_arcs(h);
    let stall = h.weight_kind == WeightKind::U32;
    let first = vecs.reserve_epochs(pairs.len());
    let mut scratch = vecs.scratch();
    let mut queries = Queries::new(&mut scratch);
    let mut answers = Vec::with_capacity(pairs.len());
    for (k, &(s, t)) in pairs.iter().enumerate() {
        queries.begin((h.position[s], h.position[t]), first + k as u32);
        let outcome = loop {
            let step = with_weight_type!(h.weight_kind, W => queries.advance::<W>(arcs, stall));
            if let Some(outcome) = step {
                break outcome;
            }
        };
        answers.push(match outcome {
            Outcome::Distance(d) => Some(d),
            Outcome::Overflow => None,
        });
    }
    answers
}
