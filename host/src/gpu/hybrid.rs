//! The hybrid DA2CF_U variants of Martín et al. (§4.1): the minimum always runs
//! on the CPU, and
//! - U^H1: `update` on the GPU; `relax_U` on the CPU;
//! - U^H2: `relax_U` on the GPU; `update` on the CPU;
//! - U^H3: `relax_U` and `update` on the GPU.
//!
//! Each iteration moves what the next step on the other side needs: H1 sends
//! the distances and unsettled flags up for `update` and brings both flag arrays
//! back; H2 sends distances and flags up for `relax_U` and brings the distances
//! back; H3 keeps the state on the GPU and brings distances and unsettled flags
//! back for the minimum. The CUDA events around a solve include the CPU work.

use cudarc::driver::{CudaSlice, DeviceRepr};
use gpu_kernels::da2cf;
use gpu_kernels::distance::INFINITY;

use super::context::Gpu;
use super::memory::{DeviceGraph, alloc_zeroed, download_distances};
use super::solver::{GpuSolver, RunStats};
use crate::distances::as_atomic;
use crate::distances::{check_overflow, check_source_of};
use crate::graph::{Graph, with_weight_type};
use crate::variants::Relax;
use crate::{Error, Result};

/// Which steps run on the GPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HybridKind {
    /// `update` on the GPU.
    H1,
    /// `relax_U` on the GPU.
    H2,
    /// `relax_U` and `update` on the GPU.
    H3,
}

/// A hybrid solver for one graph.
pub struct Hybrid<'a> {
    gpu: &'a Gpu,
    kind: HybridKind,
    /// The predecessor CSR on the host (H1 relaxes there).
    predecessors: Graph<'static>,
    /// The predecessor CSR on the device (H2 and H3 relax there).
    device_graph: Option<DeviceGraph>,
    dist: Vec<u32>,
    frontier: Vec<u8>,
    unsettled: Vec<u8>,
    device_dist: CudaSlice<u32>,
    device_frontier: CudaSlice<u8>,
    device_unsettled: CudaSlice<u8>,
    iterations: u32,
}

impl<'a> Hybrid<'a> {
    /// Prepares `kind` for `graph`: its predecessor CSR on both sides as needed.
    pub fn new(gpu: &'a Gpu, graph: &Graph, kind: HybridKind) -> Result<Self> {
        let n = graph.num_vertices();
        let predecessors = graph.transpose();
        let device_graph = match kind {
            HybridKind::H1 => None,
            HybridKind::H2 | HybridKind::H3 => {
                Some(DeviceGraph::upload(gpu.stream(), &predecessors)?)
            }
        };
        Ok(Hybrid {
            gpu,
            kind,
            predecessors,
            device_graph,
            dist: vec![0; n],
            frontier: vec![0; n],
            unsettled: vec![0; n],
            device_dist: alloc_zeroed(gpu, n, "distances")?,
            device_frontier: alloc_zeroed(gpu, n, "frontier flags")?,
            device_unsettled: alloc_zeroed(gpu, n, "unsettled flags")?,
            iterations: 0,
        })
    }

    fn n(&self) -> u32 {
        self.predecessors.num_vertices() as u32
    }

    /// The minimum on the CPU: a plain scan of the unsettled distances.
    fn cpu_minimum(&self) -> u32 {
        self.dist
            .iter()
            .zip(&self.unsettled)
            .filter(|&(_, &u)| u != da2cf::FALSE)
            .map(|(&d, _)| d)
            .min()
            .unwrap_or(INFINITY)
    }

    fn cpu_relax(&mut self) {
        let (lists, frontier, unsettled) =
            (self.predecessors.csr(), &self.frontier, &self.unsettled);
        let dist = as_atomic(&mut self.dist);
        with_weight_type!(self.predecessors.weight_kind(), W => {
            for i in 0..lists.num_vertices() {
                da2cf::relax_unsettled::<W>(i, lists, dist, frontier, unsettled);
            }
        })
    }

    fn cpu_update(&mut self, mssp: u32) {
        for i in 0..self.dist.len() {
            da2cf::update(
                self.dist[i],
                &mut self.frontier[i],
                &mut self.unsettled[i],
                mssp,
            );
        }
    }

    fn gpu_relax(&mut self) -> Result<()> {
        let graph = self
            .device_graph
            .as_ref()
            .expect("H2 and H3 upload the predecessor CSR");
        let (dist, frontier, unsettled) = (
            &mut self.device_dist,
            &self.device_frontier,
            &self.device_unsettled,
        );
        self.gpu.kernels().da2cf.relax(
            Relax::Pull,
            self.gpu.stream(),
            graph,
            dist,
            (frontier, unsettled),
        )
    }

    fn solve(&mut self, source: u32) -> Result<()> {
        let n = self.n();
        check_source_of(source as u64, n as usize)?;
        let (kernels, stream) = (&self.gpu.kernels().da2cf, self.gpu.stream());
        self.iterations = 0;
        match self.kind {
            HybridKind::H1 | HybridKind::H2 => {
                for i in 0..n as usize {
                    da2cf::initialize(
                        i,
                        source as usize,
                        &mut self.dist[i],
                        &mut self.frontier[i],
                        &mut self.unsettled[i],
                    );
                }
            }
            HybridKind::H3 => kernels.initialize.launch(
                stream,
                &self.device_dist,
                &mut self.device_frontier,
                &mut self.device_unsettled,
                n,
                source,
            )?,
        }
        loop {
            self.iterations += 1;
            match self.kind {
                HybridKind::H1 => self.cpu_relax(),
                HybridKind::H2 => {
                    upload(self.gpu, &self.dist, &mut self.device_dist)?;
                    upload(self.gpu, &self.frontier, &mut self.device_frontier)?;
                    upload(self.gpu, &self.unsettled, &mut self.device_unsettled)?;
                    self.gpu_relax()?;
                    download(self.gpu, &self.device_dist, &mut self.dist)?;
                }
                HybridKind::H3 => {
                    self.gpu_relax()?;
                    download(self.gpu, &self.device_dist, &mut self.dist)?;
                    download(self.gpu, &self.device_unsettled, &mut self.unsettled)?;
                }
            }
            let mssp = self.cpu_minimum();
            if mssp == INFINITY {
                return Ok(());
            }
            if self.kind == HybridKind::H2 {
                self.cpu_update(mssp);
                continue;
            }
            // H1 updates on the GPU between uploads and downloads; H3 keeps
            // everything there.
            if self.kind == HybridKind::H1 {
                upload(self.gpu, &self.dist, &mut self.device_dist)?;
                upload(self.gpu, &self.unsettled, &mut self.device_unsettled)?;
            }
            let (dist, frontier, unsettled) = (
                &self.device_dist,
                &mut self.device_frontier,
                &mut self.device_unsettled,
            );
            kernels
                .update
                .launch(stream, dist, frontier, unsettled, n, mssp)?;
            if self.kind == HybridKind::H1 {
                download(self.gpu, &self.device_frontier, &mut self.frontier)?;
                download(self.gpu, &self.device_unsettled, &mut self.unsettled)?;
            }
        }
    }
}

fn upload<T: DeviceRepr>(gpu: &Gpu, host: &[T], device: &mut CudaSlice<T>) -> Result<()> {
    gpu.stream()
        .memcpy_htod(host, device)
        .map_err(Error::cuda("copying hybrid state to the GPU"))
}

fn download<T: DeviceRepr>(gpu: &Gpu, device: &CudaSlice<T>, host: &mut [T]) -> Result<()> {
    let len = host.len();
    gpu.stream()
        .memcpy_dtoh(&device.slice(..len), host)
        .map_err(Error::cuda("copying hybrid state to the host"))
}

impl GpuSolver for Hybrid<'_> {
    fn run(&mut self, source: u32) -> Result<RunStats> {
        let gpu = self.gpu;
        let ((), solve_ms) = gpu.timed(|| self.solve(source))?;
        Ok(RunStats {
            iterations: self.iterations,
            solve_ms,
        })
    }

    fn distances(&self) -> Result<Vec<u32>> {
        let dist = match self.kind {
            HybridKind::H3 => {
                let kind = self.predecessors.weight_kind();
                download_distances(self.gpu, &self.device_dist, self.n(), kind)?
            }
            _ => {
                check_overflow(self.predecessors.weight_kind(), &self.dist)?;
                self.dist.clone()
            }
        };
        Ok(dist)
    }
}
