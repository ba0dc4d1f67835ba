//! The catalogue of algorithms, selectable by name (`--algo NAME`): each entry's
//! paper name, description and device, and the dispatch to its solver.

use std::fmt;
use std::str::FromStr;

use crate::cpu;
use crate::gpu::bellman_ford::{BellmanFord, BellmanFordForm};
use crate::gpu::compact::CompactDa2cf;
use crate::gpu::da2cf::{Da2cf, Da2cfConfig};
use crate::gpu::hybrid::{Hybrid, HybridKind};
use crate::gpu::{Gpu, GpuSolver};
use crate::graph::Graph;
use crate::variants::CompactRule;
use crate::variants::{Frontier, Relax};
use crate::{Error, Result, oracle};

/// Where an algorithm runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Device {
    /// On the host's CPU.
    Cpu,
    /// On a CUDA GPU.
    Gpu,
}

/// Parameters some algorithms take (`--delta`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tuning {
    /// Near-far's band width Δ as a weight word of the graph's kind (for `f32`
    /// weights, the bits of the real); `None`: chosen from the graph.
    pub delta: Option<u32>,
}

/// What the catalogue says of an algorithm.
#[derive(Clone, Copy, Debug)]
pub struct AlgorithmInfo {
    /// The `--algo` name.
    pub name: &'static str,
    /// The name its paper gives it.
    pub paper: &'static str,
    /// One line on what it does.
    pub description: &'static str,
    /// Where it runs.
    pub device: Device,
    /// False for the measurement-only variant that can give wrong distances.
    pub exact: bool,
}

macro_rules! catalogue {
    ($( $variant:ident => $name:literal, $paper:literal, $device:ident, $exact:literal, $description:literal; )*) => {
        /// Every algorithm of the project.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Algorithm {
            $(
                #[doc = $description]
                $variant,
            )*
        }

        impl Algorithm {
            /// All algorithms, in catalogue order.
            pub const ALL: &'static [Algorithm] = &[$(Algorithm::$variant),*];

            /// The catalogue entry.
            pub fn info(self) -> AlgorithmInfo {
                match self {
                    $(Algorithm::$variant => AlgorithmInfo {
                        name: $name,
                        paper: $paper,
                        description: $description,
                        device: Device::$device,
                        exact: $exact,
                    },)*
                }
            }
        }
    };
}

catalogue! {
    FGpu => "f-gpu", "F^GPU (Martín et al.)", Gpu, true,
        "DA2CF, push: relax_F with atomicMin, minimum1 on the GPU and the rest on the host, update";
    FGpu2Min => "f-gpu-2min", "F^GPU with minimum2", Gpu, true,
        "DA2CF, push, with the minimum reduced by two GPU passes (minimum1 + minimum2)";
    FGpuNoAtomic => "f-gpu-no-atomic", "F^GPU_no_Atomic (Martín et al.)", Gpu, false,
        "DA2CF, push with a plain (racy) minimum instead of atomicMin: for measurement only, can be wrong";
    UGpu => "u-gpu", "U^GPU (Martín et al.)", Gpu, true,
        "DA2CF, pull: relax_U (unsettled vertices scan their predecessors, no atomics), one GPU minimum pass";
    UGpu2Min => "u-gpu-2min", "U^GPU+2min (Martín et al.)", Gpu, true,
        "DA2CF, pull, with the minimum reduced by two GPU passes";
    UGpuPlus => "u-gpu-plus", "U^GPU_PLUS (Martín et al.)", Gpu, true,
        "DA2CF, pull, row offsets staged in shared memory and frontier flags read through the read-only cache";
    UH1 => "u-h1", "U^H1 (Martín et al.)", Gpu, true,
        "hybrid DA2CF, pull: update on the GPU; relax_U and minimum on the CPU";
    UH2 => "u-h2", "U^H2 (Martín et al.)", Gpu, true,
        "hybrid DA2CF, pull: relax_U on the GPU; minimum and update on the CPU";
    UH3 => "u-h3", "U^H3 (Martín et al.)", Gpu, true,
        "hybrid DA2CF, pull: relax_U and update on the GPU; minimum on the CPU";
    CrauserGeneralSucc => "crauser-general-succ", "GPU Crauser, general, successors (Ortega-Arranz et al.)", Gpu, true,
        "Crauser frontier: settle every unsettled v with dist(v) <= min(dist(u) + min out-weight of u); push relaxation";
    CrauserGeneralPred => "crauser-general-pred", "GPU Crauser, general, predecessors (Ortega-Arranz et al.)", Gpu, true,
        "Crauser general frontier with pull relaxation";
    CrauserEconomicSucc => "crauser-economic-succ", "GPU Crauser, economic, successors (Ortega-Arranz et al.)", Gpu, true,
        "Crauser frontier with the threshold min dist(u) + the smallest edge weight; push relaxation";
    CrauserEconomicPred => "crauser-economic-pred", "GPU Crauser, economic, predecessors (Ortega-Arranz et al.)", Gpu, true,
        "Crauser economic frontier with pull relaxation";
    BfBlock => "bf-block", "Algorithm 1 (dijkstra GPU SSSP)", Gpu, true,
        "Bellman-Ford style, as the paper writes it: one kernel launch, one block of 1024 threads; changed vertices push dist + w into predist with atomicMin, block barrier, predist copied into dist, until a round changes nothing";
    BfGrid => "bf-grid", "Algorithm 1 (dijkstra GPU SSSP)", Gpu, true,
        "Algorithm 1 over the whole grid: one cooperative launch of all co-resident blocks, rounds separated by a grid-wide barrier";
    Fast => "fast", "beyond the papers (issue #7)", Gpu, true,
        "compacted, device-resident DA2CF (Martín's frontiers): the frontier and the reached-unsettled vertices as lists, relax walks the frontier's edges only, one pass over the reached list does minimum and update, the loop inside one block or one cooperative grid";
    FastCrauser => "fast-crauser", "beyond the papers (issue #7)", Gpu, true,
        "the compacted, device-resident DA2CF with Crauser's general frontier (fewer iterations)";
    NearFar => "near-far", "beyond the papers (issue #8): near-far Δ-stepping", Gpu, true,
        "bucketed solver for high-diameter graphs (near-far form of Δ-stepping): a near worklist below the threshold relaxed until empty (duplicates filtered by stamps), a far pile above it, the threshold raised by Δ (--delta, or 32 · mean weight / mean degree); device-resident loop like `fast`";
    Partition => "partition", "beyond the papers (issue #20): partition-local solver", Gpu, true,
        "the graph cut into BFS-grown pieces (renumbered contiguously when prepared), one persistent block per piece with its distances in shared memory relaxing in Δ-windowed rounds (--delta, or 8 · mean weight), boundary updates by atomicMin and a notification word per piece, a token counter for termination; resident mode only (refuses graphs whose pieces cannot all be resident)";
    Auto => "auto", "beyond the papers (issues #7, #8, #20)", Gpu, true,
        "`fast-crauser` on graphs with few distinct distances, `partition` on high-diameter graphs (`near-far` where they do not fit its resident mode), chosen from a BFS probe and the weight range";
    MatrixFGpu => "matrix-f-gpu", "F^GPU on adjacency matrices (Martín et al.)", Gpu, true,
        "DA2CF on the n×n weight matrix, push: frontier rows relax their unsettled columns with atomicMin, chunks of the unsettled flags staged in shared memory; two GPU minimum passes";
    MatrixUGpu => "matrix-u-gpu", "U^GPU on adjacency matrices (Martín et al.)", Gpu, true,
        "DA2CF on the n×n weight matrix, pull: unsettled columns take the minimum over frontier rows (coalesced, no atomics), chunks of the frontier flags and distances staged in shared memory; two GPU minimum passes";
    MatrixCrauserGeneralSucc => "matrix-crauser-general-succ", "GPU Crauser, general, successors, adjacency matrices (Ortega-Arranz et al.)", Gpu, true,
        "Crauser general frontier on the weight matrix (Δ_node = row minima on the GPU); push relaxation along rows";
    MatrixCrauserGeneralPred => "matrix-crauser-general-pred", "GPU Crauser, general, predecessors, adjacency matrices (Ortega-Arranz et al.)", Gpu, true,
        "Crauser general frontier on the weight matrix; pull relaxation down columns";
    MatrixCrauserEconomicSucc => "matrix-crauser-economic-succ", "GPU Crauser, economic, successors, adjacency matrices (Ortega-Arranz et al.)", Gpu, true,
        "Crauser economic frontier on the weight matrix; push relaxation along rows";
    MatrixCrauserEconomicPred => "matrix-crauser-economic-pred", "GPU Crauser, economic, predecessors, adjacency matrices (Ortega-Arranz et al.)", Gpu, true,
        "Crauser economic frontier on the weight matrix; pull relaxation down columns";
    FCpu => "f-cpu", "F^CPU (Martín et al.)", Cpu, true,
        "sequential DA2CF with push relaxation, running the kernels' per-thread logic";
    UCpu => "u-cpu", "U^CPU (Martín et al.)", Cpu, true,
        "sequential DA2CF with pull relaxation, running the kernels' per-thread logic";
    CrauserGeneralSuccCpu => "crauser-general-succ-cpu", "CPU Crauser, general, successors", Cpu, true,
        "sequential Crauser general frontier, push";
    CrauserGeneralPredCpu => "crauser-general-pred-cpu", "CPU Crauser, general, predecessors", Cpu, true,
        "sequential Crauser general frontier, pull";
    CrauserEconomicSuccCpu => "crauser-economic-succ-cpu", "CPU Crauser, economic, successors", Cpu, true,
        "sequential Crauser economic frontier, push";
    CrauserEconomicPredCpu => "crauser-economic-pred-cpu", "CPU Crauser, economic, predecessors", Cpu, true,
        "sequential Crauser economic frontier, pull";
    FastCpu => "fast-cpu", "beyond the papers (issue #7)", Cpu, true,
        "the compacted DA2CF loop of `fast` run by one CPU thread (the kernels' per-thread logic)";
    FastCrauserCpu => "fast-crauser-cpu", "beyond the papers (issue #7)", Cpu, true,
        "the compacted DA2CF loop of `fast-crauser` run by one CPU thread";
    NearFarCpu => "near-far-cpu", "beyond the papers (issue #8)", Cpu, true,
        "the near-far loop run by one CPU thread (the kernels' per-thread logic)";
    BfCpu => "bf-cpu", "Algorithm 1 (dijkstra GPU SSSP)", Cpu, true,
        "sequential Algorithm 1 (round-by-round Bellman-Ford), running the kernels' per-thread logic";
    MatrixFCpu => "matrix-f-cpu", "F^CPU on adjacency matrices (Martín et al.)", Cpu, true,
        "sequential DA2CF on the weight matrix, push, running the matrix kernels' per-thread logic block by block";
    MatrixUCpu => "matrix-u-cpu", "U^CPU on adjacency matrices (Martín et al.)", Cpu, true,
        "sequential DA2CF on the weight matrix, pull, running the matrix kernels' per-thread logic block by block";
    DeltaCpu => "delta-cpu", "parallel Δ-stepping (GAPBS's design)", Cpu, true,
        "Δ-stepping on every CPU core (rayon): buckets of width Δ (--delta, or 32 · mean weight / mean degree) in order, thread-local bins, bucket fusion; the solver where there is no GPU";
    Dijkstra => "dijkstra", "Dijkstra (binary heap)", Cpu, true,
        "the CPU oracle: Dijkstra with a binary heap in 64-bit distances";
}

impl Algorithm {
    /// The `--algo` name.
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// The same algorithm on adjacency matrices (`f-gpu` → `matrix-f-gpu`); itself
    /// if it already is one; `None` if it has no matrix form.
    pub fn on_matrix(self) -> Option<Algorithm> {
        if self.name().starts_with("matrix-") {
            return Some(self);
        }
        format!("matrix-{}", self.name()).parse().ok()
    }

    /// Whether the algorithm reads [`Tuning::delta`]: near-far on either
    /// device, `delta-cpu`, `auto`, which may choose near-far, and
    /// `partition` (its window width).
    pub fn takes_delta(self) -> bool {
        matches!(
            self,
            Algorithm::NearFar
                | Algorithm::NearFarCpu
                | Algorithm::DeltaCpu
                | Algorithm::Auto
                | Algorithm::Partition
        )
    }

    /// Whether a GPU algorithm also computes on the CPU (Martín's hybrids).
    pub fn is_hybrid(self) -> bool {
        matches!(self, Algorithm::UH1 | Algorithm::UH2 | Algorithm::UH3)
    }

    /// The DA2CF configuration of a GPU algorithm that uses the generic DA2CF loop.
    fn da2cf_config(self) -> Option<Da2cfConfig> {
        use Algorithm::*;
        let config = |relax, frontier, minimum_passes| {
            Some(Da2cfConfig {
                relax,
                frontier,
                minimum_passes,
            })
        };
        match self {
            FGpu => config(Relax::Push, Frontier::Martin, 1),
            FGpu2Min => config(Relax::Push, Frontier::Martin, 2),
            FGpuNoAtomic => config(Relax::PushNoAtomic, Frontier::Martin, 1),
            UGpu => config(Relax::Pull, Frontier::Martin, 1),
            UGpu2Min => config(Relax::Pull, Frontier::Martin, 2),
            UGpuPlus => config(Relax::PullPlus, Frontier::Martin, 1),
            CrauserGeneralSucc => config(Relax::Push, Frontier::CrauserGeneral, 2),
            CrauserGeneralPred => config(Relax::Pull, Frontier::CrauserGeneral, 2),
            CrauserEconomicSucc => config(Relax::Push, Frontier::CrauserEconomic, 2),
            CrauserEconomicPred => config(Relax::Pull, Frontier::CrauserEconomic, 2),
            _ => None,
        }
    }

    /// Prepares the GPU solver of a GPU algorithm for `graph` (uploads, allocations).
    pub fn prepare_gpu<'a>(self, gpu: &'a Gpu, graph: &Graph) -> Result<Box<dyn GpuSolver + 'a>> {
        self.prepare_gpu_tuned(gpu, graph, Tuning::default())
    }

    /// [`Algorithm::prepare_gpu`] with parameters. `auto` is not an algorithm
    /// of its own here: [`crate::solver::Solver`] resolves it from the source
    /// first ([`crate::auto::choose`]), and asking for it is an error.
    pub fn prepare_gpu_tuned<'a>(
        self,
        gpu: &'a Gpu,
        graph: &Graph,
        tuning: Tuning,
    ) -> Result<Box<dyn GpuSolver + 'a>> {
        use Algorithm::*;
        if let Some(config) = self.da2cf_config() {
            return Ok(Box::new(Da2cf::new(gpu, graph, config)?));
        }
        let hybrid = |kind| -> Result<Box<dyn GpuSolver + 'a>> {
            Ok(Box::new(Hybrid::new(gpu, graph, kind)?))
        };
        let bellman_ford = |form| -> Result<Box<dyn GpuSolver + 'a>> {
            Ok(Box::new(BellmanFord::new(gpu, graph, form)?))
        };
        let compact = |rule| -> Result<Box<dyn GpuSolver + 'a>> {
            Ok(Box::new(CompactDa2cf::new(gpu, graph, rule)?))
        };
        let matrix = |relax, rule| -> Result<Box<dyn GpuSolver + 'a>> {
            Ok(Box::new(crate::gpu::matrix::MatrixDa2cf::from_graph(
                gpu, graph, relax, rule,
            )?))
        };
        match self {
            UH1 => hybrid(HybridKind::H1),
            UH2 => hybrid(HybridKind::H2),
            UH3 => hybrid(HybridKind::H3),
            // `auto` depends on the catalogue, not the other way round.
            Auto => Err(Error::InvalidArgument(
                "`auto` is resolved before preparing: sssp::solver::Solver::resolve, or \
                 sssp::auto::choose"
                    .into(),
            )),
            Partition => Ok(Box::new(crate::gpu::partition::Partition::new(
                gpu,
                graph,
                tuning.delta,
            )?)),
            NearFar => Ok(Box::new(crate::gpu::near_far::NearFar::new(
                gpu,
                graph,
                tuning.delta,
            )?)),
            Fast => compact(CompactRule::Martin),
            FastCrauser => compact(CompactRule::Crauser),
            BfBlock => bellman_ford(BellmanFordForm::Block),
            BfGrid => bellman_ford(BellmanFordForm::Grid),
            MatrixFGpu => matrix(Relax::Push, Frontier::Martin),
            MatrixUGpu => matrix(Relax::Pull, Frontier::Martin),
            MatrixCrauserGeneralSucc => matrix(Relax::Push, Frontier::CrauserGeneral),
            MatrixCrauserGeneralPred => matrix(Relax::Pull, Frontier::CrauserGeneral),
            MatrixCrauserEconomicSucc => matrix(Relax::Push, Frontier::CrauserEconomic),
            MatrixCrauserEconomicPred => matrix(Relax::Pull, Frontier::CrauserEconomic),
            _ => Err(Error::InvalidArgument(format!(
                "`{self}` is a CPU algorithm"
            ))),
        }
    }

    /// The (relax, settling rule) of a CPU DA2CF form.
    fn cpu_da2cf(self) -> Option<(Relax, Frontier)> {
        use Algorithm::*;
        match self {
            FCpu => Some((Relax::Push, Frontier::Martin)),
            UCpu => Some((Relax::Pull, Frontier::Martin)),
            CrauserGeneralSuccCpu => Some((Relax::Push, Frontier::CrauserGeneral)),
            CrauserGeneralPredCpu => Some((Relax::Pull, Frontier::CrauserGeneral)),
            CrauserEconomicSuccCpu => Some((Relax::Push, Frontier::CrauserEconomic)),
            CrauserEconomicPredCpu => Some((Relax::Pull, Frontier::CrauserEconomic)),
            _ => None,
        }
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
        use Algorithm::*;
        if let Some((relax, rule)) = self.cpu_da2cf() {
            let result = cpu::da2cf(graph, source, relax, rule)?;
            return Ok((result.dist, Some(result.iterations)));
        }
        match self {
            Dijkstra => Ok((oracle::dijkstra(graph, source)?, None)),
            DeltaCpu => {
                let result = cpu::delta_stepping::delta_stepping(
                    graph,
                    source,
                    tuning.delta,
                    Default::default(),
                )?;
                Ok((result.dist, Some(result.rounds)))
            }
            NearFarCpu => {
                let result = cpu::near_far::near_far(graph, source, tuning.delta)?;
                Ok((result.dist, Some(result.iterations)))
            }
            FastCpu | FastCrauserCpu => {
                let rule = if self == FastCpu {
                    CompactRule::Martin
                } else {
                    CompactRule::Crauser
                };
                let result = cpu::compact::compact_da2cf(graph, source, rule)?;
                Ok((result.dist, Some(result.iterations)))
            }
            BfCpu => {
                let (dist, rounds) = cpu::bellman_ford::bellman_ford(graph, source)?;
                Ok((dist, Some(rounds)))
            }
            MatrixFCpu | MatrixUCpu => {
                let relax = if self == MatrixFCpu {
                    Relax::Push
                } else {
                    Relax::Pull
                };
                let matrix = crate::matrix::WeightMatrix::from_graph(graph)?;
                let result = cpu::matrix::da2cf_matrix(&matrix, source, relax, Frontier::Martin)?;
                Ok((result.dist, Some(result.iterations)))
            }
            _ => Err(Error::InvalidArgument(format!(
                "`{self}` is a GPU algorithm"
            ))),
        }
    }
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
