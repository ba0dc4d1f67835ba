//! The shortest-path tree kernel.

use std::sync::Arc;

use cudarc::driver::{CudaModule, CudaSlice, CudaStream};
use gpu_kernels::args::ParentsJoinRoundArgs;
use gpu_kernels::launch::names;

use super::launch::{Launch, Typed, check_lengths, device, launch, one_thread_per};
use crate::gpu::device_graph::DeviceGraph;
use crate::{Error, Result};

/// The device state of a shortest-path tree. Round 0 initializes `parent` and
/// `level`; [`ParentsKernels::join_round`] zeroes `more` before each launch.
pub struct TreeBuffers {
    /// The solve's distances, `n`.
    pub dist: CudaSlice<u32>,
    /// The parents, `n` (`gpu_kernels::parents::NO_PARENT` for none).
    pub parent: CudaSlice<u32>,
    /// The round in which each vertex joined the tree, `n`.
    pub level: CudaSlice<u32>,
    /// Set to 1 by a round after which another round is needed, 1 element.
    pub more: CudaSlice<u32>,
}

/// The shortest-path tree kernel.
pub struct ParentsKernels {
    join_round: Typed,
}

impl ParentsKernels {
    /// Resolves the tree kernel in `module`.
    pub fn load(module: &Arc<CudaModule>) -> Result<Self> {
        Ok(ParentsKernels {
            join_round: Typed::load(module, names::PARENTS_JOIN_ROUND)?,
        })
    }

    /// Round `round` of the tree from `source`
    /// (`gpu_kernels::parents::join_round`) over the predecessor CSR
    /// `predecessors`; zeroes `buffers.more` first, which the round sets to 1
    /// when another round is needed.
    pub fn join_round(
        &self,
        stream: &Arc<CudaStream>,
        predecessors: &DeviceGraph,
        source: u32,
        round: u32,
        buffers: &mut TreeBuffers,
    ) -> Result<()> {
        let function = self.join_round.of(predecessors.weight_kind());
        let kernel = function.1;
        let (n, m) = (predecessors.num_vertices(), predecessors.num_edges());
        let n_ = n as usize;
        check_lengths(
            kernel,
            &[
                ("dist", buffers.dist.len(), n_),
                ("parent", buffers.parent.len(), n_),
                ("level", buffers.level.len(), n_),
                ("more", buffers.more.len(), 1),
            ],
        )?;
        stream
            .memset_zeros(&mut buffers.more)
            .map_err(Error::cuda("zeroing the tree's round flag"))?;
        let args = ParentsJoinRoundArgs {
            offsets: device(stream, predecessors.offsets()),
            targets: device(stream, predecessors.targets()),
            weights: device(stream, predecessors.weights()),
            n,
            m,
            source,
            round,
            dist: device(stream, &buffers.dist),
            parent: device(stream, &buffers.parent),
            level: device(stream, &buffers.level),
            more: device(stream, &buffers.more),
        };
        // SAFETY: `level` and `more` are u32 buffers that the kernel accesses
        // as AtomicU32, of the same layout; `DeviceGraph` holds a validated CSR of n vertices and m
        // edges, dist/parent/level hold n elements and more one (checked
        // above).
        unsafe { launch(stream, function, one_thread_per(n), &args, Launch::Plain) }
    }
}
