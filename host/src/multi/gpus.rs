//! Which devices a spread runs on: [`Gpus`] as `--gpus` and Python's `gpus=`
//! name them, and the [`Worker`]s (one host thread each) they give.

use std::fmt;
use std::str::FromStr;

use crate::gpu::context::device_count;
use crate::options::Device;
use crate::{Error, Result};

/// A selection of CUDA devices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Gpus {
    /// Every device the driver sees.
    All,
    /// These ordinals, in this order. An ordinal given twice is two workers
    /// on one device, each with its own context state and copy of the graph
    /// (for testing the split on one GPU, or to overlap one worker's copies
    /// with another's kernels).
    List(Vec<usize>),
}

impl FromStr for Gpus {
    type Err = Error;

    /// `all`, or ordinals separated by commas (`0,1,3`).
    fn from_str(text: &str) -> Result<Gpus> {
        let text = text.trim();
        if text.eq_ignore_ascii_case("all") {
            return Ok(Gpus::All);
        }
        let ordinals = text
            .split(',')
            .map(|word| {
                word.trim().parse::<usize>().map_err(|_| {
                    Error::InvalidArgument(format!(
                        "GPUs `{text}`: `{}` is not a device ordinal (examples: all, 0, 0,1,3)",
                        word.trim()
                    ))
                })
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(Gpus::List(ordinals))
    }
}

impl Gpus {
    /// One worker per selected device, each ordinal checked against the
    /// devices the driver sees ([`Error::NoGpu`] without any).
    pub fn workers(&self) -> Result<Vec<Worker>> {
        let count = device_count()?;
        if count == 0 {
            return Err(Error::NoGpu("the driver sees no CUDA device".into()));
        }
        match self {
            Gpus::All => Ok((0..count).map(Worker::Gpu).collect()),
            Gpus::List(ordinals) => ordinals
                .iter()
                .map(|&i| match i < count {
                    true => Ok(Worker::Gpu(i)),
                    false => Err(Error::NoGpu(format!(
                        "there is no CUDA device {i}: the driver sees {count} (0 to {})",
                        count - 1
                    ))),
                })
                .collect(),
        }
    }
}

/// What one host thread of a spread drives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Worker {
    /// The CUDA device of this ordinal.
    Gpu(usize),
    /// The CPU (its algorithms use every core through rayon; several CPU
    /// workers share them).
    Cpu,
}

impl Worker {
    /// `count` CPU workers: the spread without a GPU.
    pub fn cpus(count: usize) -> Vec<Worker> {
        vec![Worker::Cpu; count]
    }

    /// The device a [`crate::Solver`] for this worker opens.
    pub fn device(self) -> Device {
        match self {
            Worker::Gpu(i) => Device::Gpu(i),
            Worker::Cpu => Device::Cpu,
        }
    }
}

impl fmt::Display for Worker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Worker::Gpu(i) => write!(f, "GPU {i}"),
            Worker::Cpu => write!(f, "the CPU"),
        }
    }
}
