//! CCH customization on the GPU ([`crate::cch`]): the supergraph's triangles
//! are uploaded once; each customization uploads the graph's weights on the
//! supergraph's arcs, runs one launch per level of the arcs' lower endpoints
//! ([`gpu_kernels::cch_customize`]: one thread per arc, or one warp per arc
//! where a level's arcs are too few to fill the GPU or have 32 triangles
//! each on average), and downloads the customized weights, word for word
//! the CPU's.

use cudarc::driver::sys::CUdevice_attribute;
use gpu_kernels::cch_customize::NO_MIDDLE;

use super::context::Gpu;
use super::kernels::{DeviceArcWeights, DeviceTriangles};
use super::memory::{bytes_of, upload};
use crate::cch::Cch;
use crate::cch::customize::Customization;
use crate::ch::Hierarchy;
use crate::graph::Graph;
use crate::{Error, Result};

/// Which kernel customizes a level's arcs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ArcTeams {
    /// One warp an arc where a level's arcs are too few to fill the GPU
    /// with threads or have 32 triangles each on average, else one thread.
    #[default]
    Auto,
    /// One thread an arc.
    Threads,
    /// One warp an arc.
    Warps,
}

/// A CCH's metric-independent part on the device, ready to customize.
pub struct GpuCustomizer<'a> {
    gpu: &'a Gpu,
    cch: &'a Cch,
    triangles: DeviceTriangles,
    weights: DeviceArcWeights,
    /// Threads the GPU keeps resident at once.
    resident: u64,
    teams: ArcTeams,
}

impl<'a> GpuCustomizer<'a> {
    /// Uploads the triangles and arc tails of `cch` and allocates its
    /// weights.
    pub fn new(gpu: &'a Gpu, cch: &'a Cch) -> Result<Self> {
        let (s, t) = (cch.supergraph(), cch.triangles());
        let m = s.num_arcs();
        gpu.check_fits(
            "the customizable hierarchy's triangles and weights",
            bytes_of::<u32>(1 + 2 * t.len() + 6 * m),
        )?;
        let stream = gpu.stream();
        let triangles = DeviceTriangles {
            offsets: upload(stream, &t.offsets, "the triangle offsets")?,
            lower: upload(stream, &t.lower, "the triangles' lower arcs")?,
            upper: upload(stream, &t.upper, "the triangles' upper arcs")?,
            tails: upload(stream, &s.tails, "the arcs' tails")?,
            m: m as u32,
            triangles: t.len() as u32,
        };
        let words = vec![NO_MIDDLE; m];
        let weights = DeviceArcWeights {
            forward: upload(stream, &words, "the forward weights")?,
            backward: upload(stream, &words, "the backward weights")?,
            forward_middle: upload(stream, &words, "the forward middles")?,
            backward_middle: upload(stream, &words, "the backward middles")?,
        };
        let attribute = |which, what: &str| {
            stream
                .context()
                .attribute(which)
                .map(|v| v.max(0) as u64)
                .map_err(Error::cuda(format!("querying the {what}")))
        };
        let resident = attribute(
            CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
            "number of multiprocessors",
        )? * attribute(
            CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR,
            "threads per multiprocessor",
        )?;
        Ok(GpuCustomizer {
            gpu,
            cch,
            triangles,
            weights,
            resident,
            teams: ArcTeams::Auto,
        })
    }

    /// Customizations after this one use `teams` (the same words either way).
    pub fn set_teams(&mut self, teams: ArcTeams) {
        self.teams = teams;
    }

    /// The contraction hierarchy of `graph`'s weights, customized on the
    /// GPU (the graphs it takes: [`crate::cch`]).
    pub fn customize(&mut self, graph: &Graph) -> Result<Hierarchy> {
        let (weights, _) = self.customize_weights(graph)?;
        self.cch.hierarchy(&weights)
    }

    /// The customized weights of `graph`, and the GPU's time for the
    /// upload, the customization and the download (CUDA events), ms.
    pub fn customize_weights(&mut self, graph: &Graph) -> Result<(Customization, f32)> {
        let mut weights = self.cch.initial_weights(graph)?;
        let ms = self.customize_in_place(&mut weights)?;
        Ok((weights, ms))
    }

    /// Customizes `weights` (from [`Cch::initial_weights`]) on the GPU, as
    /// [`Cch::customize_weights`] does on the CPU; the GPU's time for the
    /// upload, the customization and the download (CUDA events), ms.
    pub fn customize_in_place(&mut self, weights: &mut Customization) -> Result<f32> {
        if weights.forward.is_empty() {
            return Ok(0.0);
        }
        let ((), ms) = self.gpu.timed(|| self.run(weights))?;
        Ok(ms)
    }

    /// Uploads `weights`, customizes them level by level and downloads them.
    fn run(&mut self, weights: &mut Customization) -> Result<()> {
        let stream = self.gpu.stream().clone();
        let device = &mut self.weights;
        let pairs = [
            (&weights.forward, &mut device.forward),
            (&weights.backward, &mut device.backward),
            (&weights.forward_middle, &mut device.forward_middle),
            (&weights.backward_middle, &mut device.backward_middle),
        ];
        for (host, dev) in pairs {
            stream
                .memcpy_htod(host, dev)
                .map_err(Error::cuda("copying the arc weights to the GPU"))?;
        }
        let (s, offsets) = (self.cch.supergraph(), &self.cch.triangles().offsets);
        let kernels = &self.gpu.kernels().cch;
        for l in 0..s.num_levels() {
            let arcs = s.level_arcs(l);
            let count = arcs.len() as u64;
            let triangles = u64::from(offsets[arcs.end] - offsets[arcs.start]);
            let warps = match self.teams {
                ArcTeams::Auto => count * 32 <= self.resident || triangles >= 32 * count,
                ArcTeams::Threads => false,
                ArcTeams::Warps => true,
            };
            kernels.customize(
                &stream,
                &self.triangles,
                &mut self.weights,
                (arcs.start as u32..arcs.end as u32, warps),
            )?;
        }
        let device = &self.weights;
        let pairs = [
            (&device.forward, &mut weights.forward),
            (&device.backward, &mut weights.backward),
            (&device.forward_middle, &mut weights.forward_middle),
            (&device.backward_middle, &mut weights.backward_middle),
        ];
        for (dev, host) in pairs {
            stream
                .memcpy_dtoh(&dev.slice(..host.len()), host.as_mut_slice())
                .map_err(Error::cuda("copying the customized weights from the GPU"))?;
        }
        Ok(())
    }
}
