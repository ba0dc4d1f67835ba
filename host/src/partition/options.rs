//! The partition solver's options: its knobs ([`PartitionTuning`], what a
//! caller and `auto`'s trial may set) and the whole of what it is prepared
//! with ([`PartitionOptions`]).

use super::growth::Growth;
use super::shortcuts::Shortcuts;

/// The partition solver's knobs; `None` fields are chosen from the graph
/// and the device (and by its calibration, [`crate::gpu::solver::GpuSolver::calibrate`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PartitionTuning {
    /// Where to add shortcuts to the pieces ([`super::shortcuts`]).
    pub shortcuts: Shortcuts,
    /// Compute threads that share a frontier vertex's edges (1 to 32;
    /// [`gpu_kernels::partition::RoundSettings::edge_lanes`]); `None`:
    /// [`super::search::DEFAULT_EDGE_LANES`], then the trial's choice.
    pub edge_lanes: Option<u32>,
    /// Hops a warp chains in a round at most (0 to 32;
    /// [`gpu_kernels::partition::RoundSettings::chain_hops`]); `None`:
    /// [`gpu_kernels::partition::DEFAULT_CHAIN_HOPS`], then the trial's
    /// choice.
    pub chain_hops: Option<u32>,
    /// Whether a round takes the pieces' entries first
    /// ([`gpu_kernels::partition::RoundSettings::entries_first`]); `None`:
    /// where the pieces have shortcuts, then the trial's choice.
    pub entries_first: Option<bool>,
    /// How the pieces grow ([`Growth`]).
    pub growth: Growth,
    /// Threads a block, one of
    /// [`gpu_kernels::launch::PARTITION_BLOCK_SIZES`]; `None`:
    /// [`gpu_kernels::launch::PARTITION_BLOCK_SIZE`] (`auto`'s trial tries
    /// the others).
    pub block_threads: Option<u32>,
}

impl PartitionTuning {
    /// How these knobs differ from the `asked` ones in a form that `auto`'s
    /// trial added ([`crate::gpu::solver::GpuSolver::trial_variants`]), as
    /// words to append to the algorithm's name; empty for the asked form.
    pub fn trial_form(&self, asked: &PartitionTuning) -> String {
        let mut name = String::new();
        if self.growth == Growth::Compact && asked.growth == Growth::Breadth {
            name.push_str(" with compact pieces");
        }
        if self.shortcuts == Shortcuts::Never && asked.shortcuts == Shortcuts::Auto {
            name.push_str(" without shortcuts");
        }
        if let Some(threads) = self.block_threads.filter(|_| asked.block_threads.is_none()) {
            name.push_str(&format!(" in blocks of {threads} threads"));
        }
        name
    }

    /// Whether the pieces of these knobs and `other`'s are cut alike (the
    /// same growth and shortcuts).
    pub fn same_pieces(&self, other: &PartitionTuning) -> bool {
        self.growth == other.growth && self.shortcuts == other.shortcuts
    }
}

/// When the partition solver pages its pieces.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Paging {
    /// Only for graphs whose pieces cannot all be resident at once with
    /// their edges.
    #[default]
    WhenNeeded,
    /// Always (`partition-paged`).
    Always,
}

/// How the partition solver cuts and launches; `None` fields are chosen from
/// the graph and the device.
#[derive(Clone, Copy, Debug, Default)]
pub struct PartitionOptions {
    /// The window width Δ, a weight word.
    pub delta: Option<u32>,
    /// When to page.
    pub paging: Paging,
    /// Paged mode: the largest piece, in vertices.
    pub capacity: Option<u32>,
    /// Paged mode: the most blocks to launch.
    pub blocks: Option<u32>,
    /// The knobs.
    pub tuning: PartitionTuning,
}
