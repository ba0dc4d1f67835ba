//! Every kernel of the PTX module, resolved once when the GPU is opened, grouped
//! by algorithm family, with one method per kernel. Each method checks the
//! lengths of its buffers, fills the kernel's argument struct
//! ([`gpu_kernels::args`], the one definition of its parameters) and holds the
//! only `unsafe` launch of that kernel, through [`launch`].

mod bellman_ford;
mod cch;
mod certificate;
mod compact;
mod crauser;
mod da2cf;
pub mod launch;
mod matrix;
mod near_far;
mod pair_query;
mod parents;
mod partition;
mod phast;
mod reductions;
mod rows;
mod stats;

use std::sync::Arc;

use cudarc::driver::{CudaContext, CudaModule};
use cudarc::nvrtc::Ptx;

pub use bellman_ford::{BellmanFordBuffers, BellmanFordKernels};
pub use cch::{CchKernels, DeviceArcWeights, DeviceTriangles};
pub use certificate::CertificateKernels;
pub use compact::{CompactBuffers, CompactKernels};
pub use crauser::CrauserKernels;
pub use da2cf::{Da2cfKernels, VertexFlagsKernel};
pub use launch::LoopForm;
pub use matrix::MatrixKernels;
pub use near_far::{NearFarBuffers, NearFarKernels};
pub use pair_query::{DevicePairs, DeviceUpwardArcs, PairQueryKernels, PairScratch};
pub use parents::{ParentsKernels, TreeBuffers};
pub use partition::{
    PAGED_FEWEST_VERTICES, PAGED_MOST_VERTICES, PAGED_PIECES_PER_BLOCK, PartitionBuffers,
    PartitionKernels,
};
pub use phast::{DeviceDownArcs, PhastKernels};
pub use reductions::{ReductionsKernels, WithinBuffers};
pub use rows::RowsKernels;
pub use stats::StatsKernels;

use super::ptx::{CUBIN, PTX};
use crate::{Error, Result};

/// The kernels of [`gpu_kernels`], ready to launch.
pub struct Kernels {
    /// DA2CF (Martín et al.).
    pub da2cf: Da2cfKernels,
    /// Crauser's frontier (Ortega-Arranz et al.).
    pub crauser: CrauserKernels,
    /// DA2CF on adjacency matrices (Martín et al. §5).
    pub matrix: MatrixKernels,
    /// Measuring-mode counters.
    pub stats: StatsKernels,
    /// "Algorithm 1", Bellman-Ford style (one launch per solve).
    pub bellman_ford: BellmanFordKernels,
    /// The compacted, device-resident DA2CF.
    pub compact: CompactKernels,
    /// The shortest-path tree after a solve (`--parents`).
    pub parents: ParentsKernels,
    /// The certificate checked after every solve.
    pub certificate: CertificateKernels,
    /// The near-far (bucketed) solver for high-diameter graphs.
    pub near_far: NearFarKernels,
    /// The partition-local solver for high-diameter graphs.
    pub partition: PartitionKernels,
    /// PHAST's sweep over a contraction hierarchy (`--index`).
    pub phast: PhastKernels,
    /// Solved rows delivered in the caller's vertex order.
    pub rows: RowsKernels,
    /// Reductions over PHAST's trees that need no tree copied.
    pub reductions: ReductionsKernels,
    /// The customization of customizable contraction hierarchies.
    pub cch: CchKernels,
    /// Point-to-point queries of a contraction hierarchy, one thread a pair.
    pub pair_query: PairQueryKernels,
}

impl Kernels {
    /// Loads the kernels into `ctx` and resolves every kernel by its name
    /// from [`gpu_kernels::launch::names`]: the machine code ([`CUBIN`])
    /// where there is one for this device, else the PTX, which the driver
    /// compiles (seconds with an empty compile cache). Also says which was
    /// loaded.
    pub fn load(ctx: &Arc<CudaContext>) -> Result<(Kernels, ModuleForm)> {
        let cubin = (!CUBIN.is_empty())
            .then(|| ctx.load_module(Ptx::from_binary(CUBIN.to_vec())).ok())
            .flatten();
        let (module, form) = match cubin {
            Some(module) => (module, ModuleForm::Cubin),
            None => {
                let module = ctx
                    .load_module(Ptx::from_src(PTX))
                    .map_err(Error::cuda("loading the PTX module of the kernels"))?;
                (module, ModuleForm::Ptx)
            }
        };
        let kernels = Self::resolve(&module)?;
        Ok((kernels, form))
    }

    fn resolve(module: &Arc<CudaModule>) -> Result<Kernels> {
        Ok(Kernels {
            da2cf: Da2cfKernels::load(module)?,
            crauser: CrauserKernels::load(module)?,
            matrix: MatrixKernels::load(module)?,
            stats: StatsKernels::load(module)?,
            bellman_ford: BellmanFordKernels::load(module)?,
            compact: CompactKernels::load(module)?,
            parents: ParentsKernels::load(module)?,
            certificate: CertificateKernels::load(module)?,
            near_far: NearFarKernels::load(module)?,
            partition: PartitionKernels::load(module)?,
            phast: PhastKernels::load(module)?,
            rows: RowsKernels::load(module)?,
            reductions: ReductionsKernels::load(module)?,
            cch: CchKernels::load(module)?,
            pair_query: PairQueryKernels::load(module)?,
        })
    }
}

/// What [`Kernels::load`] loaded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModuleForm {
    /// The machine code assembled at build time.
    Cubin,
    /// The PTX, compiled by the driver.
    Ptx,
}
