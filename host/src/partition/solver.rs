//! The partition-local solver on the GPU ([`gpu_kernels::partition`]), for
//! graphs of high diameter such as road networks: the graph is cut into
//! pieces on the CPU when the solver is prepared ([`crate::partition`]), and
//! the whole solve is one cooperative launch.
//! - Resident mode, where every piece's block fits the device at once with
//!   the piece's edges: one persistent block per piece keeps the piece's
//!   distances and edges in shared memory.
//! - Paged mode, for larger graphs (or when asked for): pieces of 512 to
//!   2,048 vertices whose edges fit in shared memory too, and as many
//!   persistent blocks as fit the device, each claiming a piece with pending
//!   work, working on it until it has none and handing it back.

use std::sync::{Mutex, PoisonError};
use std::time::Instant;

use cudarc::driver::{CudaSlice, PinnedHostSlice};

use gpu_kernels::distance::{MAX_DISTANCE, Weight};
use gpu_kernels::launch::{PARTITION_BLOCK_SIZE, PARTITION_BLOCK_SIZES};
use gpu_kernels::partition::{DEFAULT_CHAIN_HOPS, RoundSettings, partition_shared_bytes};

use super::growth::Growth;
use super::options::{Paging, PartitionOptions, PartitionTuning};
use super::pieces::{Partitioning, partition_grown, partition_joined};
use super::search::*;
use super::shortcuts::{Added, Shortcuts, add_shortcuts, few_shortcuts};
use crate::distances::check_overflow;
use crate::gpu::certificate::Certifier;
use crate::gpu::context::Gpu;
use crate::gpu::kernels::{PartitionBuffers, PartitionKernels};
use crate::gpu::memory::{DeviceGraph, alloc_zeroed, bytes_of, download_words};
use crate::gpu::rows::{RenumberedRows, RowSlots};
use crate::gpu::solver::{GpuSolver, RunStats};
use crate::graph::{Graph, with_weight_type};
use crate::options::{RowSink, Stop, Tuning};
use crate::reorder::Permutation;
use crate::{Error, Result};

/// With shortcuts, the window's width in mean shortcut weights (the default
/// window is [`gpu_kernels::partition::auto_delta`]'s 8 mean arc weights;
/// 2, 4, 8 and 16 measured: docs/PERFORMANCE.md, 2026-11-27).
const WINDOW_ARCS: f64 = 8.0;
/// The partition-local solver for one graph.
pub struct Partition<'a> {
    gpu: &'a Gpu,
    graph: DeviceGraph,
    buffers: PartitionBuffers,
    permutation: Permutation,
    piece_of: Vec<u32>,
    delta: u32,
    /// Whether the caller fixed the window (else [`GpuSolver::calibrate`]
    /// chooses it), and what that trial measured.
    window_fixed: bool,
    window_trial: Option<String>,
    /// How the pieces grew.
    growth: Growth,
    /// The edge lanes, whether the caller fixed them, and their trial.
    edge_lanes: u32,
    lanes_fixed: bool,
    lanes_trial: Option<String>,
    /// The chain hops, whether the caller fixed them, and their trial.
    chain_hops: u32,
    hops_fixed: bool,
    hops_trial: Option<String>,
    /// Whether rounds take the entries first, whether the caller fixed it,
    /// and its trial.
    entries_first: bool,
    entries_fixed: bool,
    entries_trial: Option<String>,
    partition_ms: f64,
    /// Shortcuts added to the pieces ([`crate::shortcuts`]) and the time that took.
    shortcuts: Added,
    shortcut_ms: f64,
    /// The bound of the next solves ([`GpuSolver::stop_early`]).
    stop: Stop,
    /// Page-locked host memory the distances are copied into (4 times the
    /// bandwidth of a copy into pageable memory), made at the first copy.
    staging: Mutex<Option<PinnedHostSlice<u32>>>,
    /// The slots of [`GpuSolver::stream_rows`], made at its first batch.
    rows: Option<RowSlots>,
}

impl<'a> Partition<'a> {
    /// Shortcuts added to the pieces ([`super::shortcuts`]).
    pub fn shortcuts_added(&self) -> usize {
        self.shortcuts.count
    }

    /// Threads a block.
    pub fn block_threads(&self) -> u32 {
        self.buffers.threads
    }

    /// Cuts `graph` into pieces sized for the device's shared memory
    /// (resident: [`PartitionKernels::resident_capacity`]; paged:
    /// [`PartitionKernels::paged_capacity`]), uploads the renumbered graph
    /// and allocates the state; window width `options.delta`, or the one
    /// derived from the weights when `None`
    /// ([`gpu_kernels::partition::auto_delta`]).
    pub fn new(gpu: &'a Gpu, graph: &Graph, options: &PartitionOptions) -> Result<Self> {
        if let Some(lanes) = options
            .tuning
            .edge_lanes
            .filter(|l| !(1..=MOST_EDGE_LANES).contains(l))
        {
            return Err(Error::InvalidArgument(format!(
                "the partition solver's edge lanes must be 1 to {MOST_EDGE_LANES}, not {lanes}"
            )));
        }
        let threads = options.tuning.block_threads.unwrap_or(PARTITION_BLOCK_SIZE);
        if !PARTITION_BLOCK_SIZES.contains(&threads) {
            return Err(Error::InvalidArgument(format!(
                "the partition solver's blocks have {PARTITION_BLOCK_SIZES:?} threads, not {threads}"
            )));
        }
        if let Some(hops) = options.tuning.chain_hops.filter(|&h| h > MOST_CHAIN_HOPS) {
            return Err(Error::InvalidArgument(format!(
                "the partition solver's chain hops must be 0 to {MOST_CHAIN_HOPS}, not {hops}"
            )));
        }
        let delta = match options.delta {
            Some(0) => {
                return Err(Error::InvalidArgument(
                    "the partition solver's window width Δ must be positive".into(),
                ));
            }
            Some(delta) => delta,
            None => with_weight_type!(graph.weight_kind(), W => {
                gpu_kernels::partition::auto_delta::<W>(graph.csr())
            }),
        };
        let n = u32::try_from(graph.num_vertices()).map_err(|_| {
            Error::InvalidArgument("the graph's vertices do not fit 32-bit ids".into())
        })?;
        let kernels = &gpu.kernels().partition;
        let kind = graph.weight_kind();
        let cut_start = Instant::now();
        let resident = match options.paging {
            Paging::WhenNeeded => kernels.resident_capacity(gpu, kind, n, threads)?,
            Paging::Always => None,
        };
        // Resident mode only where the pieces' edges fit too: with the edges
        // in global memory, paging (which keeps them in shared memory) was
        // faster on the 1000² grid (docs/PERFORMANCE.md, 2026-11-26).
        let resident = match resident {
            Some(capacity) if mean_edges_fit(kernels, gpu, graph, (capacity, threads))? => {
                resident_layout(
                    kernels,
                    gpu,
                    graph,
                    (capacity, threads),
                    options.tuning.growth,
                )?
            }
            _ => None,
        };
        let layout = match resident {
            Some(layout) => layout,
            None => paged_layout(kernels, gpu, graph, options, threads)?,
        };
        let partition_ms = cut_start.elapsed().as_secs_f64() * 1e3;
        let shortcut_start = Instant::now();
        let (layout, shortcuts) = match options.tuning.shortcuts {
            Shortcuts::Never => (layout, Added::default()),
            policy => with_shortcuts(kernels, gpu, layout, policy)?,
        };
        let shortcut_ms = shortcut_start.elapsed().as_secs_f64() * 1e3;
        // A path crosses a piece on one shortcut: the window spans a few of
        // them (WINDOW_ARCS), as it spans a few arcs without shortcuts.
        let delta = match options.delta {
            None if shortcuts.count > 0 => {
                let width = WINDOW_ARCS * shortcuts.mean_weight;
                delta.max(width.min(f64::from(MAX_DISTANCE / 2)) as u32)
            }
            _ => delta,
        };
        let Layout {
            parts,
            capacity,
            edge_capacity,
            paged,
            threads,
        } = layout;
        let k = parts.pieces();
        let Partitioning {
            permutation,
            graph: renumbered,
            starts,
            boundary_ends,
            piece_of,
        } = parts;
        gpu.check_fits(
            "the graph and the partition solver's state",
            DeviceGraph::bytes_needed(renumbered.num_vertices(), renumbered.num_edges())
                + bytes_of::<u32>(4 * n as usize + 4 * k + 3),
        )?;
        let device_graph = DeviceGraph::upload(gpu.stream(), &renumbered)?;
        let stream = gpu.stream();
        let upload = |data: &[u32], what: &str| {
            if data.is_empty() {
                alloc_zeroed(gpu, 1, what)
            } else {
                stream
                    .clone_htod(data)
                    .map_err(Error::cuda(format!("copying {what} to the GPU")))
            }
        };
        let buffers = PartitionBuffers {
            starts: upload(&starts, "the pieces' starts")?,
            boundary_ends: upload(&boundary_ends, "the pieces' boundaries")?,
            piece_of: upload(&piece_of, "the vertices' pieces")?,
            dist: alloc_zeroed(gpu, n as usize, "distances")?,
            backing: alloc_zeroed(gpu, n as usize, "paged distances")?,
            notify: alloc_zeroed(gpu, k, "notification words")?,
            owner: alloc_zeroed(gpu, k, "owner words")?,
            counters: alloc_zeroed(gpu, 3, "the partition solver's counters")?,
            pieces: k as u32,
            capacity,
            edge_capacity,
            paged,
            threads,
        };
        Ok(Partition {
            gpu,
            graph: device_graph,
            buffers,
            permutation,
            piece_of,
            delta,
            window_fixed: options.delta.is_some(),
            window_trial: None,
            growth: options.tuning.growth,
            edge_lanes: options.tuning.edge_lanes.unwrap_or(DEFAULT_EDGE_LANES),
            lanes_fixed: options.tuning.edge_lanes.is_some(),
            lanes_trial: None,
            chain_hops: options.tuning.chain_hops.unwrap_or(DEFAULT_CHAIN_HOPS),
            hops_fixed: options.tuning.chain_hops.is_some(),
            hops_trial: None,
            entries_first: options.tuning.entries_first.unwrap_or(shortcuts.count > 0),
            entries_fixed: options.tuning.entries_first.is_some(),
            entries_trial: None,
            partition_ms,
            shortcuts,
            shortcut_ms,
            stop: Stop::default(),
            staging: Mutex::new(None),
            rows: None,
        })
    }

    /// Pieces of the partition.
    pub fn pieces(&self) -> u32 {
        self.buffers.pieces
    }

    /// Largest piece size.
    pub fn capacity(&self) -> u32 {
        self.buffers.capacity
    }

    /// Whether the blocks keep their pieces' edges in shared memory (else
    /// they read the global CSR).
    pub fn edges_in_shared_memory(&self) -> bool {
        self.buffers.edge_capacity > 0
    }

    /// Paged mode's blocks, `None` in resident mode.
    pub fn paged_blocks(&self) -> Option<u32> {
        self.buffers.paged
    }

    /// [`GpuSolver::calibrate`]'s searches, the solves unbounded: the window,
    /// then the edge lanes, then the chain hops, then entries first, each
    /// unless fixed, each with the best value and every (value, time) tried.
    fn search_settings(&mut self, source: u32) -> Result<[Option<Searched>; 4]> {
        let kind = self.graph.weight_kind();
        let time = |solver: &mut Self| {
            let mut ms = f32::INFINITY;
            for _ in 0..WINDOW_TRIAL_SOLVES {
                ms = ms.min(solver.run(source)?.solve_ms);
            }
            Ok::<f32, Error>(ms)
        };
        let window = if self.window_fixed {
            None
        } else {
            let searched = search_window(
                self.delta,
                |window, factor| with_weight_type!(kind, W => scale_window::<W>(window, factor)),
                |window| {
                    self.delta = window;
                    time(self)
                },
            )?;
            self.delta = searched.0;
            Some(searched)
        };
        let lanes = if self.lanes_fixed {
            None
        } else {
            let searched = search_edge_lanes(self.edge_lanes, |lanes| {
                self.edge_lanes = lanes;
                time(self)
            })?;
            self.edge_lanes = searched.0;
            Some(searched)
        };
        let hops = if self.hops_fixed {
            None
        } else {
            let searched = search_chain_hops(self.chain_hops, |hops| {
                self.chain_hops = hops;
                time(self)
            })?;
            self.chain_hops = searched.0;
            Some(searched)
        };
        let entries = if self.entries_fixed {
            None
        } else {
            let searched = search_entries_first(self.entries_first, |on| {
                self.entries_first = on != 0;
                time(self)
            })?;
            self.entries_first = searched.0 != 0;
            Some(searched)
        };
        Ok([window, lanes, hops, entries])
    }

    /// Initialize and solve (queued on the stream, not waited for).
    fn solve(&mut self, source: u32) -> Result<()> {
        let new_source = self.permutation.new_id(source as usize) as u32;
        let source_piece = self.piece_of[new_source as usize];
        let target = self.stop.target.map(|t| self.permutation.new_id(t) as u32);
        let bound = self.stop.limit_word();
        let (kernels, stream) = (&self.gpu.kernels().partition, self.gpu.stream());
        kernels.initialize(stream, &self.graph, &mut self.buffers, source_piece, bound)?;
        self.gpu.cooperative(|| {
            kernels.solve(
                stream,
                &self.graph,
                &mut self.buffers,
                (new_source, target),
                RoundSettings {
                    delta: self.delta,
                    edge_lanes: self.edge_lanes,
                    chain_hops: self.chain_hops,
                    entries_first: self.entries_first,
                },
            )
        })
    }

    /// The most rounds a block ran in the last solve.
    fn rounds(&self) -> Result<u32> {
        let [_, rounds, _] = download_words::<3>(self.gpu, &self.buffers.counters, "the counters")?;
        Ok(rounds)
    }
}

impl RenumberedRows for Partition<'_> {
    fn queue_solve(&mut self, source: u32) -> Result<()> {
        self.solve(source)
    }

    fn result(&self) -> &CudaSlice<u32> {
        match self.buffers.paged {
            Some(_) => &self.buffers.backing,
            None => &self.buffers.dist,
        }
    }

    fn new_id(&self, vertex: usize) -> u32 {
        self.permutation.new_id(vertex) as u32
    }
}

impl GpuSolver for Partition<'_> {
    /// The solve's time ends with its kernel: the rounds are read after the
    /// end event, so that the host's round trip for them is not timed.
    fn run(&mut self, source: u32) -> Result<RunStats> {
        let (gpu, n) = (self.gpu, self.graph.num_vertices() as usize);
        let mut stats = gpu.timed_solve(n, source, || self.solve(source).map(|()| 0))?;
        stats.iterations = self.rounds()?;
        Ok(stats)
    }

    /// No vertex above the bound is relaxed: the limit from the start, the
    /// target's tentative distance as it falls (module docs of
    /// [`gpu_kernels::partition`], *Early stop*).
    fn stop_early(&mut self, stop: Stop) {
        self.stop = stop;
    }

    /// The window ([`search_window`] from the default), then the edge lanes
    /// ([`search_edge_lanes`]), then the chain hops ([`search_chain_hops`]),
    /// then entries first or not ([`search_entries_first`]), each unless the
    /// caller gave it, each candidate solving [`WINDOW_TRIAL_SOLVES`] times
    /// from `source` (complete solves).
    fn calibrate(&mut self, source: u32, tuning: &mut Tuning) -> Result<()> {
        let kind = self.graph.weight_kind();
        let stop = std::mem::take(&mut self.stop);
        let searched = self.search_settings(source);
        self.stop = stop;
        let [window, lanes, hops, entries] = searched?;
        let listed = |tried: &[(u32, f32)], value: &dyn Fn(u32) -> String| {
            let tried: Vec<String> = tried
                .iter()
                .map(|&(v, ms)| format!("{} {ms:.3} ms", value(v)))
                .collect();
            tried.join(", ")
        };
        if let Some((best, tried)) = window {
            tuning.delta = Some(best);
            let value = |w: u32| with_weight_type!(kind, W => W::to_f64(w)).to_string();
            self.window_trial = Some(listed(&tried, &value));
        }
        if let Some((best, tried)) = lanes {
            tuning.partition.edge_lanes = Some(best);
            self.lanes_trial = Some(listed(&tried, &|l: u32| l.to_string()));
        }
        if let Some((best, tried)) = hops {
            tuning.partition.chain_hops = Some(best);
            self.hops_trial = Some(listed(&tried, &|h: u32| h.to_string()));
        }
        if let Some((best, tried)) = entries {
            tuning.partition.entries_first = Some(best != 0);
            let value = |on: u32| if on != 0 { "on" } else { "off" }.to_string();
            self.entries_trial = Some(listed(&tried, &value));
        }
        Ok(())
    }

    /// Where the shortcuts rule ([`Shortcuts::Auto`]) added some: the same
    /// pieces without them (calibrated anew: the shortcuts set the window).
    /// Where the pieces grew breadth-first: compact pieces, with the window
    /// and edge lanes this form calibrated (the windows two growths chose
    /// agreed within 2% on roads and meshes, docs/PERFORMANCE.md), and
    /// shortcuts only where this form has some (on a 2048² grid a second
    /// search and shortcuts for the compact pieces cost seconds).
    fn trial_variants(&self, queued: &Tuning, calibrated: &Tuning) -> Vec<Tuning> {
        let mut variants = Vec::new();
        let knobs = &calibrated.partition;
        if knobs.shortcuts == Shortcuts::Auto && self.shortcuts_added() > 0 {
            variants.push(Tuning {
                partition: PartitionTuning {
                    shortcuts: Shortcuts::Never,
                    ..queued.partition
                },
                ..*queued
            });
        }
        if knobs.growth == Growth::Breadth && self.growth == Growth::Breadth {
            // Where the rule added no shortcuts to these pieces, none are
            // added to the compact ones either.
            let shortcuts = match knobs.shortcuts {
                Shortcuts::Auto if self.shortcuts_added() == 0 => Shortcuts::Never,
                policy => policy,
            };
            variants.push(Tuning {
                partition: PartitionTuning {
                    growth: Growth::Compact,
                    shortcuts,
                    ..*knobs
                },
                ..*calibrated
            });
        }
        variants
    }

    /// The fastest form's pieces in blocks of each other size (larger
    /// blocks, fewer and larger pieces: 10% faster on a Delaunay mesh, 16%
    /// on New York, 28% slower on a paged 3-D grid, docs/PERFORMANCE.md),
    /// each calibrated anew; none where the caller fixed the size.
    fn final_variants(&self, asked: &Tuning, fastest: &Tuning) -> Vec<Tuning> {
        if asked.partition.block_threads.is_some() {
            return Vec::new();
        }
        PARTITION_BLOCK_SIZES
            .iter()
            .filter(|&&size| size != self.block_threads())
            .map(|&size| Tuning {
                partition: PartitionTuning {
                    growth: fastest.partition.growth,
                    shortcuts: fastest.partition.shortcuts,
                    block_threads: Some(size),
                    ..asked.partition
                },
                ..*asked
            })
            .collect()
    }

    fn layout(&self) -> Option<String> {
        let buffers = &self.buffers;
        let threads = buffers.threads;
        let mode = match buffers.paged {
            Some(blocks) => format!("paged on {blocks} blocks of {threads} threads"),
            None => format!("resident in blocks of {threads} threads"),
        };
        let mode = match self.growth {
            Growth::Compact => format!("{mode}, compact pieces"),
            Growth::Breadth => mode,
        };
        let edges = if self.edges_in_shared_memory() {
            "shared"
        } else {
            "global"
        };
        let shortcuts = match self.shortcuts.count {
            0 => "no shortcuts".to_string(),
            count => format!("{count} shortcuts added in {:.1} ms", self.shortcut_ms),
        };
        // A setting, and the trial that chose it.
        let tried = |setting: String, trial: &Option<String>, best: &str| match trial {
            Some(trial) => format!("{setting}, the {best} in a trial ({trial})"),
            None => setting,
        };
        let window = with_weight_type!(self.graph.weight_kind(), W => W::to_f64(self.delta));
        let window = tried(format!("window {window}"), &self.window_trial, "fastest");
        let lanes = format!("{} edge lanes", self.edge_lanes);
        let lanes = tried(lanes, &self.lanes_trial, "fastest");
        let hops = format!("chains of {} hops", self.chain_hops);
        let hops = tried(hops, &self.hops_trial, "fastest");
        let entries = match self.entries_first {
            true => "entries first",
            false => "entries not first",
        };
        let entries = tried(entries.to_string(), &self.entries_trial, "faster");
        Some(format!(
            "{} pieces of at most {} vertices, {mode}, edges in {edges} memory; cut in {:.1} ms \
             on the CPU; {shortcuts}; {window}; {lanes}; {hops}; {entries}",
            buffers.pieces, buffers.capacity, self.partition_ms
        ))
    }

    /// Pipelined ([`RowSlots::stream`]): each row is gathered back into the
    /// caller's numbering on the GPU while the host hands over the one
    /// before.
    fn stream_rows(
        &mut self,
        sources: &[u32],
        stop: Stop,
        sink: &mut RowSink<'_>,
        certifier: Option<Certifier<'_>>,
    ) -> Result<Vec<f32>> {
        let n = self.graph.num_vertices() as usize;
        for &source in sources {
            crate::distances::check_source_of(source as u64, n)?;
        }
        self.stop = stop;
        let mut slots = match self.rows.take() {
            Some(slots) => slots,
            None => RowSlots::new(self.gpu, self.permutation.new_of_old())?,
        };
        let (gpu, kind) = (self.gpu, self.graph.weight_kind());
        let mut certifier = certifier;
        let certificate = certifier.as_mut().map(Certifier::state).transpose()?;
        let streamed = slots.stream(gpu, (sources, stop, kind), (sink, certificate), self);
        self.rows = Some(slots);
        streamed
    }

    fn distances(&self) -> Result<Vec<u32>> {
        let result = self.result();
        let stream = self.gpu.stream();
        let mut staging = self.staging.lock().unwrap_or_else(PoisonError::into_inner);
        if staging
            .as_ref()
            .is_none_or(|host| host.len() != result.len())
        {
            // SAFETY: the buffer is written by the copy below before anything
            // reads it. No write-combining (flags 0): the host reads it.
            let host = unsafe {
                stream
                    .context()
                    .alloc_pinned_with_flags::<u32>(result.len(), 0)
            }
            .map_err(Error::cuda(
                "allocating page-locked memory for the distances",
            ))?;
            *staging = Some(host);
        }
        let Some(host) = staging.as_mut() else {
            return Err(Error::Internal(
                "no page-locked buffer for the distances".into(),
            ));
        };
        stream
            .memcpy_dtoh(result, host)
            .map_err(Error::cuda("copying the distances to the host"))?;
        stream
            .synchronize()
            .map_err(Error::cuda("waiting for the distances' copy"))?;
        let copied = host
            .as_slice()
            .map_err(Error::cuda("reading the distances' copy"))?;
        let renumbered = &copied[..self.graph.num_vertices() as usize];
        let mut dist = self.permutation.map_distances_back(renumbered);
        // Beyond the bound the distances may be tentative, even overflowing.
        self.stop.apply(&mut dist);
        check_overflow(self.graph.weight_kind(), &dist)?;
        Ok(dist)
    }
}

/// A partitioning and how its blocks hold it.
struct Layout {
    parts: Partitioning,
    capacity: u32,
    edge_capacity: u32,
    paged: Option<u32>,
    /// Threads a block.
    threads: u32,
}

/// Whether resident blocks of `threads` with pieces of `capacity` vertices
/// all fit at once with as many edges as such a piece has on average
/// (checked before the graph is cut: where even that fails, the real pieces
/// cannot fit).
fn mean_edges_fit(
    kernels: &PartitionKernels,
    gpu: &Gpu,
    graph: &Graph,
    (capacity, threads): (u32, u32),
) -> Result<bool> {
    let n = graph.num_vertices().max(1) as u64;
    let edges = (u64::from(capacity) * graph.num_edges() as u64).div_ceil(n);
    let edges = edges.clamp(1, u64::from(u32::MAX / 16)) as u32;
    let bytes = partition_shared_bytes(capacity, edges, threads);
    let pieces = graph.num_vertices().div_ceil(capacity as usize) as u32;
    kernels.all_resident(gpu, graph.weight_kind(), (bytes, threads), pieces)
}

/// Resident mode: blocks of `threads`, pieces of `capacity` grown as
/// `growth` says, with their fragments joined ([`partition_joined`]) where
/// their blocks all fit at once with their edges in shared memory, else as
/// cut ([`partition_grown`]) where those fit; `None` when neither does.
fn resident_layout(
    kernels: &PartitionKernels,
    gpu: &Gpu,
    graph: &Graph,
    (capacity, threads): (u32, u32),
    growth: Growth,
) -> Result<Option<Layout>> {
    let kind = graph.weight_kind();
    for joined in [true, false] {
        let parts = if joined {
            partition_joined(graph, capacity as usize, growth)?
        } else {
            partition_grown(graph, capacity as usize, growth)?
        };
        let capacity = capacity.max(parts.largest());
        // 0 edges: no edge area at all.
        let most_edges = parts.most_edges().max(1);
        let with_edges = partition_shared_bytes(capacity, most_edges, threads);
        if kernels.all_resident(gpu, kind, (with_edges, threads), parts.pieces() as u32)? {
            return Ok(Some(Layout {
                parts,
                capacity,
                edge_capacity: most_edges,
                paged: None,
                threads,
            }));
        }
    }
    Ok(None)
}

/// `layout` with its pieces' shortcuts added ([`crate::shortcuts`]) where
/// `policy` wants them (`Auto` in paged mode: where [`few_shortcuts`]), as
/// many as keep every block resident (paged mode: as many blocks fitting),
/// and what was added; unchanged where the edges stay in global memory.
fn with_shortcuts(
    kernels: &PartitionKernels,
    gpu: &Gpu,
    mut layout: Layout,
    policy: Shortcuts,
) -> Result<(Layout, Added)> {
    // Paged mode's `Auto` decides before the bisection's occupancy queries.
    let auto_paged = policy == Shortcuts::Auto && layout.paged.is_some();
    if layout.edge_capacity == 0 || (auto_paged && !few_shortcuts(&layout.parts)) {
        return Ok((layout, Added::default()));
    }
    let kind = layout.parts.graph.weight_kind();
    let pieces = layout.parts.pieces() as u32;
    let fits = |edges: u32| {
        let bytes = partition_shared_bytes(layout.capacity, edges, layout.threads);
        match layout.paged {
            None => kernels.all_resident(gpu, kind, (bytes, layout.threads), pieces),
            Some(blocks) => Ok(kernels
                .paged_blocks(gpu, kind, (bytes, layout.threads))?
                .is_some_and(|fitting| fitting >= blocks)),
        }
    };
    // The most edges a piece may hold: a bisection between the plain
    // layout's, which fits, and 2^20 (8 MiB of edges), which no
    // multiprocessor's shared memory holds.
    let (mut fitting, mut too_many) = (layout.edge_capacity, 1 << 20);
    while too_many - fitting > 1 {
        let middle = fitting + (too_many - fitting) / 2;
        if fits(middle)? {
            fitting = middle;
        } else {
            too_many = middle;
        }
    }
    // The graph is replaced only where shortcuts were added.
    let added = add_shortcuts(&mut layout.parts, fitting as usize)?;
    if added.count > 0 {
        layout.edge_capacity = layout.parts.most_edges().max(1);
    }
    Ok((layout, added))
}

/// Paged mode: pieces of the capacity `options` asks for or
/// [`PartitionKernels::paged_capacity`], their edges in shared memory unless
/// a piece has more than a block may hold, as many blocks as fit at once (at
/// most one per piece, and at most `options.blocks`), each of `threads`.
fn paged_layout(
    kernels: &PartitionKernels,
    gpu: &Gpu,
    graph: &Graph,
    options: &PartitionOptions,
    threads: u32,
) -> Result<Layout> {
    let context = gpu.stream().context();
    let kind = graph.weight_kind();
    let (n, m) = (graph.num_vertices() as u32, graph.num_edges() as u32);
    let capacity = match options.capacity {
        Some(0) => {
            return Err(Error::InvalidArgument(
                "the partition solver's pieces need at least one vertex".into(),
            ));
        }
        Some(capacity) => capacity.min(n.max(1)),
        None => kernels.paged_capacity(context, kind, (n, m), threads)?,
    };
    let parts = partition_grown(graph, capacity as usize, options.tuning.growth)?;
    let most_edges = parts.most_edges().max(1);
    let with_edges = partition_shared_bytes(capacity, most_edges, threads);
    let (edge_capacity, fitting) = match kernels.paged_blocks(gpu, kind, (with_edges, threads))? {
        Some(blocks) if blocks > 0 => (most_edges, blocks),
        _ => {
            let bytes = partition_shared_bytes(capacity, 0, threads);
            match kernels.paged_blocks(gpu, kind, (bytes, threads))? {
                Some(blocks) if blocks > 0 => (0, blocks),
                _ => {
                    return Err(Error::InvalidArgument(format!(
                        "the partition solver's paged blocks do not fit a multiprocessor \
                         with pieces of {capacity} vertices ({bytes} bytes of shared memory)"
                    )));
                }
            }
        }
    };
    let blocks = fitting
        .min(parts.pieces() as u32)
        .min(options.blocks.unwrap_or(u32::MAX))
        .max(1);
    Ok(Layout {
        parts,
        capacity,
        edge_capacity,
        paged: Some(blocks),
        threads,
    })
}
