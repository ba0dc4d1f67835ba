//! The catalogue of algorithms, selectable by name (`--algo NAME`): one
//! [`AlgorithmSpec`] per algorithm that states all the rest of the code needs
//! to know of it (dispatch, the solver, the CLI and the tests read it), and the
//! dispatch to its solver.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::cpu;
use crate::gpu::bellman_ford::{BellmanFord, BellmanFordForm};
use crate::gpu::compact::CompactDa2cf;
use crate::gpu::context::Gpu;
use crate::gpu::da2cf::Da2cf;
use crate::gpu::hybrid::{Hybrid, HybridKind};
use crate::gpu::solver::GpuSolver;
use crate::graph::Graph;
use crate::options::Tuning;
use crate::partition::options::{Paging, PartitionOptions};
use crate::partition::solver::Partition;
use crate::variants::{CompactRule, Da2cfConfig, Frontier, Relax};
use crate::{Error, Result, oracle};

/// Where an algorithm runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Processor {
    /// On the host's CPU.
    Cpu,
    /// On a CUDA GPU.
    Gpu,
}

/// How the algorithms store the graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Layout {
    /// Adjacency lists (CSR).
    List,
    /// Adjacency matrices.
    Matrix,
}

/// Which solver runs an algorithm, with the settings that tell its forms apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// DA2CF's relax → minimum → update loop (Martín et al.), driven by the
    /// host on the GPU, one vertex after another on the CPU.
    Da2cf(Da2cfConfig),
    /// Martín's hybrid pull DA2CF, some steps on the CPU.
    Hybrid(HybridKind),
    /// The compacted, device-resident DA2CF (`fast`) and its CPU loop.
    Compact(CompactRule),
    /// Algorithm 1 (round-by-round Bellman-Ford): its GPU launch form, `None`
    /// for the CPU loop.
    BellmanFord(Option<BellmanFordForm>),
    /// Near-far Δ-stepping.
    NearFar,
    /// The partition-local solver (GPU only), and when it pages.
    Partition(Paging),
    /// Parallel Δ-stepping on every CPU core.
    DeltaStepping,
    /// The oracle.
    Dijkstra,
    /// Trees from a contraction-hierarchy index ([`crate::ch`]), on the
    /// device the spec names: they need the index
    /// ([`crate::solver::Solver::index_trees`]).
    Index,
    /// Another algorithm, chosen per graph and source ([`crate::auto`]).
    Auto,
}

/// A DA2CF family in the catalogue's short form.
const fn da2cf(relax: Relax, frontier: Frontier, minimum_passes: u8) -> Family {
    Family::Da2cf(Da2cfConfig {
        relax,
        frontier,
        minimum_passes,
    })
}

/// What the catalogue says of an algorithm.
#[derive(Clone, Copy, Debug)]
pub struct AlgorithmSpec {
    /// The `--algo` name.
    pub name: &'static str,
    /// The name its paper gives it.
    pub paper: &'static str,
    /// One line on what it does.
    pub description: &'static str,
    /// Where it runs.
    pub device: Processor,
    /// False for the measurement-only variant that can give wrong distances.
    pub exact: bool,
    /// The solver that runs it.
    pub family: Family,
    /// How it stores the graph.
    pub layout: Layout,
    /// Its form on adjacency matrices (`f-gpu` → `matrix-f-gpu`), for list
    /// algorithms that have one.
    pub matrix_twin: Option<Algorithm>,
    /// The relaxation and settling rule of the CPU DA2CF model
    /// ([`cpu::da2cf_model`]) whose iterations it repeats exactly; `None` for
    /// other loops.
    pub model: Option<(Relax, Frontier)>,
    /// Whether it reads [`Tuning::delta`].
    pub takes_delta: bool,
}

macro_rules! catalogue {
    ($( $variant:ident {
        name: $name:literal,
        paper: $paper:literal,
        description: $description:literal,
        $( $field:ident: $value:expr, )*
    } )*) => {
        /// Every algorithm of the project.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Algorithm {
            $(
                #[doc = $description]
                $variant,
            )*
        }

        /// The specs, in the order of [`Algorithm`]'s variants.
        const CATALOGUE: &[AlgorithmSpec] = &[$(
            AlgorithmSpec {
                name: $name,
                paper: $paper,
                description: $description,
                $( $field: $value, )*
            },
        )*];

        impl Algorithm {
            /// All algorithms, in catalogue order.
            pub const ALL: &'static [Algorithm] = &[$(Algorithm::$variant),*];
        }
    };
}

catalogue! {
    FGpu {
        name: "f-gpu",
        paper: "F^GPU (Martín et al.)",
        description: "DA2CF, push: relax_F with atomicMin, minimum1 on the GPU and the rest on the host, update",
        device: Processor::Gpu, exact: true, layout: Layout::List, takes_delta: false,
        family: da2cf(Relax::Push, Frontier::Martin, 1),
        matrix_twin: Some(Algorithm::MatrixFGpu),
        model: Some((Relax::Push, Frontier::Martin)),
    }

    FGpu2Min {
        name: "f-gpu-2min",
        paper: "F^GPU with minimum2",
        description: "DA2CF, push, with the minimum reduced by two GPU passes (minimum1 + minimum2)",
        device: Processor::Gpu, exact: true, layout: Layout::List, takes_delta: false,
        family: da2cf(Relax::Push, Frontier::Martin, 2),
        matrix_twin: None,
        model: Some((Relax::Push, Frontier::Martin)),
    }

    FGpuNoAtomic {
        name: "f-gpu-no-atomic",
        paper: "F^GPU_no_Atomic (Martín et al.)",
        description: "DA2CF, push with a plain (racy) minimum instead of atomicMin: for measurement only, can be wrong",
        device: Processor::Gpu, exact: false, layout: Layout::List, takes_delta: false,
        family: da2cf(Relax::PushNoAtomic, Frontier::Martin, 1),
        matrix_twin: None,
        model: Some((Relax::Push, Frontier::Martin)),
    }

    UGpu {
        name: "u-gpu",
        paper: "U^GPU (Martín et al.)",
        description: "DA2CF, pull: relax_U (unsettled vertices scan their predecessors, no atomics), one GPU minimum pass",
        device: Processor::Gpu, exact: true, layout: Layout::List, takes_delta: false,
        family: da2cf(Relax::Pull, Frontier::Martin, 1),
        matrix_twin: Some(Algorithm::MatrixUGpu),
        model: Some((Relax::Pull, Frontier::Martin)),
    }

    UGpu2Min {
        name: "u-gpu-2min",
        paper: "U^GPU+2min (Martín et al.)",
        description: "DA2CF, pull, with the minimum reduced by two GPU passes",
        device: Processor::Gpu, exact: true, layout: Layout::List, takes_delta: false,
        family: da2cf(Relax::Pull, Frontier::Martin, 2),
        matrix_twin: None,
        model: Some((Relax::Pull, Frontier::Martin)),
    }

    UGpuPlus {
        name: "u-gpu-plus",
        paper: "U^GPU_PLUS (Martín et al.)",
        description: "DA2CF, pull, row offsets staged in shared memory and frontier flags read through the read-only cache",
        device: Processor::Gpu, exact: true, layout: Layout::List, takes_delta: false,
        family: da2cf(Relax::PullPlus, Frontier::Martin, 1),
        matrix_twin: None,
        model: Some((Relax::Pull, Frontier::Martin)),
    }

    UH1 {
        name: "u-h1",
        paper: "U^H1 (Martín et al.)",
        description: "hybrid DA2CF, pull: update on the GPU; relax_U and minimum on the CPU",
        device: Processor::Gpu, exact: true, layout: Layout::List, takes_delta: false,
        family: Family::Hybrid(HybridKind::H1),
        matrix_twin: None,
        model: Some((Relax::Pull, Frontier::Martin)),
    }

    UH2 {
        name: "u-h2",
        paper: "U^H2 (Martín et al.)",
        description: "hybrid DA2CF, pull: relax_U on the GPU; minimum and update on the CPU",
        device: Processor::Gpu, exact: true, layout: Layout::List, takes_delta: false,
        family: Family::Hybrid(HybridKind::H2),
        matrix_twin: None,
        model: Some((Relax::Pull, Frontier::Martin)),
    }

    UH3 {
        name: "u-h3",
        paper: "U^H3 (Martín et al.)",
        description: "hybrid DA2CF, pull: relax_U and update on the GPU; minimum on the CPU",
        device: Processor::Gpu, exact: true, layout: Layout::List, takes_delta: false,
        family: Family::Hybrid(HybridKind::H3),
        matrix_twin: None,
        model: Some((Relax::Pull, Frontier::Martin)),
    }

    CrauserGeneralSucc {
        name: "crauser-general-succ",
        paper: "GPU Crauser, general, successors (Ortega-Arranz et al.)",
        description: "Crauser frontier: settle every unsettled v with dist(v) <= min(dist(u) + min out-weight of u); push relaxation",
        device: Processor::Gpu, exact: true, layout: Layout::List, takes_delta: false,
        family: da2cf(Relax::Push, Frontier::CrauserGeneral, 2),
        matrix_twin: Some(Algorithm::MatrixCrauserGeneralSucc),
        model: Some((Relax::Push, Frontier::CrauserGeneral)),
    }

    CrauserGeneralPred {
        name: "crauser-general-pred",
        paper: "GPU Crauser, general, predecessors (Ortega-Arranz et al.)",
        description: "Crauser general frontier with pull relaxation",
        device: Processor::Gpu, exact: true, layout: Layout::List, takes_delta: false,
        family: da2cf(Relax::Pull, Frontier::CrauserGeneral, 2),
        matrix_twin: Some(Algorithm::MatrixCrauserGeneralPred),
        model: Some((Relax::Pull, Frontier::CrauserGeneral)),
    }

    CrauserEconomicSucc {
        name: "crauser-economic-succ",
        paper: "GPU Crauser, economic, successors (Ortega-Arranz et al.)",
        description: "Crauser frontier with the threshold min dist(u) + the smallest edge weight; push relaxation",
        device: Processor::Gpu, exact: true, layout: Layout::List, takes_delta: false,
        family: da2cf(Relax::Push, Frontier::CrauserEconomic, 2),
        matrix_twin: Some(Algorithm::MatrixCrauserEconomicSucc),
        model: Some((Relax::Push, Frontier::CrauserEconomic)),
    }

    CrauserEconomicPred {
        name: "crauser-economic-pred",
        paper: "GPU Crauser, economic, predecessors (Ortega-Arranz et al.)",
        description: "Crauser economic frontier with pull relaxation",
        device: Processor::Gpu, exact: true, layout: Layout::List, takes_delta: false,
        family: da2cf(Relax::Pull, Frontier::CrauserEconomic, 2),
        matrix_twin: Some(Algorithm::MatrixCrauserEconomicPred),
        model: Some((Relax::Pull, Frontier::CrauserEconomic)),
    }

    BfBlock {
        name: "bf-block",
        paper: "Algorithm 1 (dijkstra GPU SSSP)",
        description: "Bellman-Ford style, as the paper writes it: one kernel launch, one block of 1024 threads; changed vertices push dist + w into predist with atomicMin, block barrier, predist copied into dist, until a round changes nothing",
        device: Processor::Gpu, exact: true, layout: Layout::List, takes_delta: false,
        family: Family::BellmanFord(Some(BellmanFordForm::Block)),
        matrix_twin: None,
        model: None,
    }

    BfGrid {
        name: "bf-grid",
        paper: "Algorithm 1 (dijkstra GPU SSSP)",
        description: "Algorithm 1 over the whole grid: one cooperative launch of all co-resident blocks, rounds separated by a grid-wide barrier",
        device: Processor::Gpu, exact: true, layout: Layout::List, takes_delta: false,
        family: Family::BellmanFord(Some(BellmanFordForm::Grid)),
        matrix_twin: None,
        model: None,
    }

    Fast {
        name: "fast",
        paper: "beyond the papers",
        description: "compacted, device-resident DA2CF (Martín's frontiers): the frontier and the reached-unsettled vertices as lists, relax walks the frontier's edges only, one pass over the reached list does minimum and update, the loop inside one block or one cooperative grid",
        device: Processor::Gpu, exact: true, layout: Layout::List, takes_delta: false,
        family: Family::Compact(CompactRule::Martin),
        matrix_twin: None,
        model: Some((Relax::Push, Frontier::Martin)),
    }

    FastCrauser {
        name: "fast-crauser",
        paper: "beyond the papers",
        description: "the compacted, device-resident DA2CF with Crauser's general frontier (fewer iterations)",
        device: Processor::Gpu, exact: true, layout: Layout::List, takes_delta: false,
        family: Family::Compact(CompactRule::Crauser),
        matrix_twin: None,
        model: Some((Relax::Push, Frontier::CrauserGeneral)),
    }

    NearFar {
        name: "near-far",
        paper: "beyond the papers: near-far Δ-stepping",
        description: "bucketed solver for high-diameter graphs (near-far form of Δ-stepping): a near worklist below the threshold relaxed until empty (duplicates filtered by stamps), a far pile above it, the threshold raised by Δ (--delta, or 32 · mean weight / the smaller of the mean and median out-degree); device-resident loop like `fast`",
        device: Processor::Gpu, exact: true, layout: Layout::List, takes_delta: true,
        family: Family::NearFar,
        matrix_twin: None,
        model: None,
    }

    Partition {
        name: "partition",
        paper: "beyond the papers: partition-local solver",
        description: "the graph cut into BFS-grown pieces (renumbered contiguously when prepared), one persistent block per piece with its distances in shared memory relaxing in Δ-windowed rounds (--delta, or chosen in a trial around 8 · mean weight), boundary updates by atomicMin and a notification word per piece, a token counter for termination; graphs whose pieces cannot all be resident at once are paged (see partition-paged)",
        device: Processor::Gpu, exact: true, layout: Layout::List, takes_delta: true,
        family: Family::Partition(Paging::WhenNeeded),
        matrix_twin: None,
        model: None,
    }

    PartitionPaged {
        name: "partition-paged",
        paper: "beyond the papers: partition-local solver, paged",
        description: "the partition solver in paged mode on any graph: pieces of 512-2048 vertices with their edges, as many persistent blocks as fit the GPU, each claiming a free piece whose notified distance is near the lowest, relaxing it in shared memory until it has no local work, writing it back",
        device: Processor::Gpu, exact: true, layout: Layout::List, takes_delta: true,
        family: Family::Partition(Paging::Always),
        matrix_twin: None,
        model: None,
    }

    Auto {
        name: "auto",
        paper: "beyond the papers: chosen per graph",
        description: "`fast-crauser` on graphs with few distinct distances, `partition` on high-diameter graphs, chosen from a BFS probe and the weight range",
        device: Processor::Gpu, exact: true, layout: Layout::List, takes_delta: true,
        family: Family::Auto,
        matrix_twin: None,
        model: None,
    }

    MatrixFGpu {
        name: "matrix-f-gpu",
        paper: "F^GPU on adjacency matrices (Martín et al.)",
        description: "DA2CF on the n×n weight matrix, push: frontier rows relax their unsettled columns with atomicMin, chunks of the unsettled flags staged in shared memory; two GPU minimum passes",
        device: Processor::Gpu, exact: true, layout: Layout::Matrix, takes_delta: false,
        family: da2cf(Relax::Push, Frontier::Martin, 2),
        matrix_twin: None,
        model: Some((Relax::Push, Frontier::Martin)),
    }

    MatrixUGpu {
        name: "matrix-u-gpu",
        paper: "U^GPU on adjacency matrices (Martín et al.)",
        description: "DA2CF on the n×n weight matrix, pull: unsettled columns take the minimum over frontier rows (coalesced, no atomics), chunks of the frontier flags and distances staged in shared memory; two GPU minimum passes",
        device: Processor::Gpu, exact: true, layout: Layout::Matrix, takes_delta: false,
        family: da2cf(Relax::Pull, Frontier::Martin, 2),
        matrix_twin: None,
        model: Some((Relax::Pull, Frontier::Martin)),
    }

    MatrixCrauserGeneralSucc {
        name: "matrix-crauser-general-succ",
        paper: "GPU Crauser, general, successors, adjacency matrices (Ortega-Arranz et al.)",
        description: "Crauser general frontier on the weight matrix (Δ_node = row minima on the GPU); push relaxation along rows",
        device: Processor::Gpu, exact: true, layout: Layout::Matrix, takes_delta: false,
        family: da2cf(Relax::Push, Frontier::CrauserGeneral, 2),
        matrix_twin: None,
        model: Some((Relax::Push, Frontier::CrauserGeneral)),
    }

    MatrixCrauserGeneralPred {
        name: "matrix-crauser-general-pred",
        paper: "GPU Crauser, general, predecessors, adjacency matrices (Ortega-Arranz et al.)",
        description: "Crauser general frontier on the weight matrix; pull relaxation down columns",
        device: Processor::Gpu, exact: true, layout: Layout::Matrix, takes_delta: false,
        family: da2cf(Relax::Pull, Frontier::CrauserGeneral, 2),
        matrix_twin: None,
        model: Some((Relax::Pull, Frontier::CrauserGeneral)),
    }

    MatrixCrauserEconomicSucc {
        name: "matrix-crauser-economic-succ",
        paper: "GPU Crauser, economic, successors, adjacency matrices (Ortega-Arranz et al.)",
        description: "Crauser economic frontier on the weight matrix; push relaxation along rows",
        device: Processor::Gpu, exact: true, layout: Layout::Matrix, takes_delta: false,
        family: da2cf(Relax::Push, Frontier::CrauserEconomic, 2),
        matrix_twin: None,
        model: Some((Relax::Push, Frontier::CrauserEconomic)),
    }

    MatrixCrauserEconomicPred {
        name: "matrix-crauser-economic-pred",
        paper: "GPU Crauser, economic, predecessors, adjacency matrices (Ortega-Arranz et al.)",
        description: "Crauser economic frontier on the weight matrix; pull relaxation down columns",
        device: Processor::Gpu, exact: true, layout: Layout::Matrix, takes_delta: false,
        family: da2cf(Relax::Pull, Frontier::CrauserEconomic, 2),
        matrix_twin: None,
        model: Some((Relax::Pull, Frontier::CrauserEconomic)),
    }

    FCpu {
        name: "f-cpu",
        paper: "F^CPU (Martín et al.)",
        description: "sequential DA2CF with push relaxation, running the kernels' per-thread logic",
        device: Processor::Cpu, exact: true, layout: Layout::List, takes_delta: false,
        family: da2cf(Relax::Push, Frontier::Martin, 2),
        matrix_twin: Some(Algorithm::MatrixFCpu),
        model: Some((Relax::Push, Frontier::Martin)),
    }

    UCpu {
        name: "u-cpu",
        paper: "U^CPU (Martín et al.)",
        description: "sequential DA2CF with pull relaxation, running the kernels' per-thread logic",
        device: Processor::Cpu, exact: true, layout: Layout::List, takes_delta: false,
        family: da2cf(Relax::Pull, Frontier::Martin, 2),
        matrix_twin: Some(Algorithm::MatrixUCpu),
        model: Some((Relax::Pull, Frontier::Martin)),
    }

    CrauserGeneralSuccCpu {
        name: "crauser-general-succ-cpu",
        paper: "CPU Crauser, general, successors",
        description: "sequential Crauser general frontier, push",
        device: Processor::Cpu, exact: true, layout: Layout::List, takes_delta: false,
        family: da2cf(Relax::Push, Frontier::CrauserGeneral, 2),
        matrix_twin: None,
        model: Some((Relax::Push, Frontier::CrauserGeneral)),
    }

    CrauserGeneralPredCpu {
        name: "crauser-general-pred-cpu",
        paper: "CPU Crauser, general, predecessors",
        description: "sequential Crauser general frontier, pull",
        device: Processor::Cpu, exact: true, layout: Layout::List, takes_delta: false,
        family: da2cf(Relax::Pull, Frontier::CrauserGeneral, 2),
        matrix_twin: None,
        model: Some((Relax::Pull, Frontier::CrauserGeneral)),
    }

    CrauserEconomicSuccCpu {
        name: "crauser-economic-succ-cpu",
        paper: "CPU Crauser, economic, successors",
        description: "sequential Crauser economic frontier, push",
        device: Processor::Cpu, exact: true, layout: Layout::List, takes_delta: false,
        family: da2cf(Relax::Push, Frontier::CrauserEconomic, 2),
        matrix_twin: None,
        model: Some((Relax::Push, Frontier::CrauserEconomic)),
    }

    CrauserEconomicPredCpu {
        name: "crauser-economic-pred-cpu",
        paper: "CPU Crauser, economic, predecessors",
        description: "sequential Crauser economic frontier, pull",
        device: Processor::Cpu, exact: true, layout: Layout::List, takes_delta: false,
        family: da2cf(Relax::Pull, Frontier::CrauserEconomic, 2),
        matrix_twin: None,
        model: Some((Relax::Pull, Frontier::CrauserEconomic)),
    }

    FastCpu {
        name: "fast-cpu",
        paper: "beyond the papers",
        description: "the compacted DA2CF loop of `fast` run by one CPU thread (the kernels' per-thread logic)",
        device: Processor::Cpu, exact: true, layout: Layout::List, takes_delta: false,
        family: Family::Compact(CompactRule::Martin),
        matrix_twin: None,
        model: Some((Relax::Push, Frontier::Martin)),
    }

    FastCrauserCpu {
        name: "fast-crauser-cpu",
        paper: "beyond the papers",
        description: "the compacted DA2CF loop of `fast-crauser` run by one CPU thread",
        device: Processor::Cpu, exact: true, layout: Layout::List, takes_delta: false,
        family: Family::Compact(CompactRule::Crauser),
        matrix_twin: None,
        model: Some((Relax::Push, Frontier::CrauserGeneral)),
    }

    NearFarCpu {
        name: "near-far-cpu",
        paper: "beyond the papers",
        description: "the near-far loop run by one CPU thread (the kernels' per-thread logic)",
        device: Processor::Cpu, exact: true, layout: Layout::List, takes_delta: true,
        family: Family::NearFar,
        matrix_twin: None,
        model: None,
    }

    BfCpu {
        name: "bf-cpu",
        paper: "Algorithm 1 (dijkstra GPU SSSP)",
        description: "sequential Algorithm 1 (round-by-round Bellman-Ford), running the kernels' per-thread logic",
        device: Processor::Cpu, exact: true, layout: Layout::List, takes_delta: false,
        family: Family::BellmanFord(None),
        matrix_twin: None,
        model: None,
    }

    MatrixFCpu {
        name: "matrix-f-cpu",
        paper: "F^CPU on adjacency matrices (Martín et al.)",
        description: "sequential DA2CF on the weight matrix, push, running the matrix kernels' per-thread logic block by block",
        device: Processor::Cpu, exact: true, layout: Layout::Matrix, takes_delta: false,
        family: da2cf(Relax::Push, Frontier::Martin, 2),
        matrix_twin: None,
        model: Some((Relax::Push, Frontier::Martin)),
    }

    MatrixUCpu {
        name: "matrix-u-cpu",
        paper: "U^CPU on adjacency matrices (Martín et al.)",
        description: "sequential DA2CF on the weight matrix, pull, running the matrix kernels' per-thread logic block by block",
        device: Processor::Cpu, exact: true, layout: Layout::Matrix, takes_delta: false,
        family: da2cf(Relax::Pull, Frontier::Martin, 2),
        matrix_twin: None,
        model: Some((Relax::Pull, Frontier::Martin)),
    }

    DeltaCpu {
        name: "delta-cpu",
        paper: "parallel Δ-stepping (GAPBS's design)",
        description: "Δ-stepping on every CPU core (rayon): buckets of width Δ in order (--delta fixes it, else it adapts between buckets), thread-local bins, bucket fusion; the solver where there is no GPU",
        device: Processor::Cpu, exact: true, layout: Layout::List, takes_delta: true,
        family: Family::DeltaStepping,
        matrix_twin: None,
        model: None,
    }

    Phast {
        name: "phast",
        paper: "PHAST (Delling et al.) on a contraction hierarchy",
        description: "trees from a contraction-hierarchy index (host preprocess, then --index): upward searches on the host, the downward sweep on the GPU for a batch of sources at once",
        device: Processor::Gpu, exact: true, layout: Layout::List, takes_delta: false,
        family: Family::Index,
        matrix_twin: None,
        model: None,
    }

    PhastCpu {
        name: "phast-cpu",
        paper: "PHAST (Delling et al.) on a contraction hierarchy",
        description: "trees from a contraction-hierarchy index on the CPU's cores, several sources per thread; the index's solver where there is no GPU",
        device: Processor::Cpu, exact: true, layout: Layout::List, takes_delta: false,
        family: Family::Index,
        matrix_twin: None,
        model: None,
    }

    Dijkstra {
        name: "dijkstra",
        paper: "Dijkstra (binary heap)",
        description: "the CPU oracle: Dijkstra with a binary heap in 64-bit distances",
        device: Processor::Cpu, exact: true, layout: Layout::List, takes_delta: false,
        family: Family::Dijkstra,
        matrix_twin: None,
        model: None,
    }
}

impl AlgorithmSpec {
    /// Whether the algorithm solves a graph alone: all but the index's
    /// trees ([`Family::Index`]), which need a contraction hierarchy.
    pub fn solves_graphs(&self) -> bool {
        self.family != Family::Index
    }
}

impl Algorithm {
    /// The catalogue entry.
    pub fn spec(self) -> &'static AlgorithmSpec {
        // The macro lists the specs in the order of the variants.
        &CATALOGUE[self as usize]
    }

    /// The `--algo` name.
    pub fn name(self) -> &'static str {
        self.spec().name
    }

    /// The same algorithm on adjacency matrices (`f-gpu` → `matrix-f-gpu`); itself
    /// if it already is one; `None` if it has no matrix form.
    pub fn on_matrix(self) -> Option<Algorithm> {
        let spec = self.spec();
        match spec.layout {
            Layout::Matrix => Some(self),
            Layout::List => spec.matrix_twin,
        }
    }

    /// Whether the algorithm reads [`Tuning::delta`]: near-far on either
    /// device, `delta-cpu`, `auto`, which may choose near-far, and
    /// `partition` (its window width).
    pub fn takes_delta(self) -> bool {
        self.spec().takes_delta
    }

    /// Whether a GPU algorithm also computes on the CPU (Martín's hybrids).
    pub fn is_hybrid(self) -> bool {
        matches!(self.spec().family, Family::Hybrid(_))
    }

    /// Prepares the GPU solver of a GPU algorithm for `graph` (uploads, allocations).
    pub fn prepare_gpu<'a>(self, gpu: &'a Gpu, graph: &Graph) -> Result<Box<dyn GpuSolver + 'a>> {
        self.prepare_gpu_tuned(gpu, graph, Tuning::default())
    }

    /// [`Algorithm::prepare_gpu`] with parameters. `auto` is not an algorithm
    /// of its own here: [`crate::solver::Solver`] resolves it from the source
    /// first ([`crate::auto::choice::choose`]), and asking for it is an error.
    pub fn prepare_gpu_tuned<'a>(
        self,
        gpu: &'a Gpu,
        graph: &Graph,
        tuning: Tuning,
    ) -> Result<Box<dyn GpuSolver + 'a>> {
        let spec = self.spec();
        let cpu_algorithm = || Error::InvalidArgument(format!("`{self}` is a CPU algorithm"));
        if spec.device == Processor::Cpu {
            return Err(cpu_algorithm());
        }
        Ok(match spec.family {
            Family::Da2cf(config) => match spec.layout {
                Layout::List => Box::new(Da2cf::new(gpu, graph, config)?),
                // The matrix solver always reduces the minimum in two passes.
                Layout::Matrix => Box::new(crate::gpu::matrix::MatrixDa2cf::from_graph(
                    gpu,
                    graph,
                    config.relax,
                    config.frontier,
                )?),
            },
            Family::Hybrid(kind) => Box::new(Hybrid::new(gpu, graph, kind)?),
            Family::Compact(rule) => Box::new(CompactDa2cf::new(gpu, graph, rule)?),
            Family::BellmanFord(Some(form)) => Box::new(BellmanFord::new(gpu, graph, form)?),
            Family::NearFar => Box::new(crate::gpu::near_far::NearFar::new(
                gpu,
                graph,
                tuning.delta,
            )?),
            Family::Partition(paging) => Box::new(Partition::new(
                gpu,
                graph,
                &PartitionOptions {
                    delta: tuning.delta,
                    paging,
                    tuning: tuning.partition,
                    ..Default::default()
                },
            )?),
            // `auto` depends on the catalogue, not the other way round.
            Family::Auto => {
                return Err(Error::InvalidArgument(
                    "`auto` is resolved before preparing: sssp::solver::Solver::resolve, or \
                     sssp::auto::choice::choose"
                        .into(),
                ));
            }
            Family::Index => return Err(needs_index(self)),
            Family::BellmanFord(None) | Family::DeltaStepping | Family::Dijkstra => {
                return Err(cpu_algorithm());
            }
        })
    }

    /// Runs a CPU algorithm: the distances and, for DA2CF forms, the iterations.
    pub fn solve_cpu(self, graph: &Graph, source: usize) -> Result<(Vec<u32>, Option<u32>)> {
        self.solve_cpu_tuned(graph, source, Tuning::default())
    }

    /// [`Algorithm::solve_cpu`] with parameters.
    pub fn solve_cpu_tuned(
        self,
        graph: &Graph,
        source: usize,
        tuning: Tuning,
    ) -> Result<(Vec<u32>, Option<u32>)> {
        let spec = self.spec();
        let gpu_algorithm = || Error::InvalidArgument(format!("`{self}` is a GPU algorithm"));
        if spec.device == Processor::Gpu {
            return Err(gpu_algorithm());
        }
        let with_iterations = |result: cpu::Da2cfResult| (result.dist, Some(result.iterations));
        Ok(match spec.family {
            Family::Da2cf(config) => with_iterations(match spec.layout {
                Layout::List => cpu::da2cf(graph, source, config.relax, config.frontier)?,
                Layout::Matrix => {
                    let matrix = crate::matrix::WeightMatrix::from_graph(graph)?;
                    cpu::matrix::da2cf_matrix(&matrix, source, config.relax, config.frontier)?
                }
            }),
            Family::Compact(rule) => {
                with_iterations(cpu::compact::compact_da2cf(graph, source, rule)?)
            }
            Family::NearFar => {
                with_iterations(cpu::near_far::near_far(graph, source, tuning.delta)?)
            }
            Family::BellmanFord(_) => {
                let (dist, rounds) = cpu::bellman_ford::bellman_ford(graph, source)?;
                (dist, Some(rounds))
            }
            Family::DeltaStepping => {
                let result = cpu::delta_stepping::delta_stepping(
                    graph,
                    source,
                    tuning.delta,
                    Default::default(),
                )?;
                (result.dist, Some(result.rounds))
            }
            Family::Dijkstra => (oracle::dijkstra(graph, source)?, None),
            Family::Hybrid(_) | Family::Partition(_) | Family::Auto => return Err(gpu_algorithm()),
            Family::Index => return Err(needs_index(self)),
        })
    }
}

/// The error for an index's algorithm asked to solve without an index.
fn needs_index(algorithm: Algorithm) -> Error {
    Error::InvalidArgument(format!(
        "`{algorithm}` answers from a contraction-hierarchy index (host preprocess, then \
         --index; sssp::solver::Solver::index_trees)"
    ))
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Algorithm {
    type Err = String;

    fn from_str(name: &str) -> std::result::Result<Self, String> {
        Algorithm::ALL
            .iter()
            .copied()
            .find(|a| a.name() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = Algorithm::ALL.iter().map(|a| a.name()).collect();
                format!("unknown algorithm `{name}`; one of: {}", names.join(", "))
            })
    }
}
