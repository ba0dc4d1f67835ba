//! Every kernel's parameters, defined once: one `#[repr(C)]` struct per
//! signature, used by both sides.
//!
//! - The PTX entry of a kernel is generated from its struct's field list
//!   (the struct's entry macro, `entry::entry!`): its parameters are the
//!   fields, in order, and its body receives them as the struct.
//! - The host fills the struct and passes a pointer to each field as the
//!   launch's `kernelParams` (`host/src/gpu/kernels/mod.rs`, `launch`), so
//!   argument order is never written twice.
//!
//! Why not one by-value struct parameter: rustc lowers a struct argument of an
//! `extern "ptx-kernel"` function to integers in a `.param .b8` array, so the
//! pointers read from it lose their `.global` addressing (generic `ld`/`st`
//! instead of `ld.global`/`st.global`). Parameters one field each keep the
//! PTX what it was; a struct whose fields are laid out as the driver lays out
//! these parameters (natural alignment, in order) is byte for byte what a
//! by-value struct parameter would be. A no-GPU test
//! (`tests/tests/kernel_args.rs`) checks each struct against its entries'
//! parameter lists in the built PTX.
//!
//! Lengths and contracts of the fields are documented on the kernels
//! (`# Safety`); field docs here say what each one is.

use core::sync::atomic::{AtomicU8, AtomicU32, AtomicU64};

use crate::bellman_ford::RoundFlags;
use crate::compact::LoopState;
use crate::launch::{GridBarrier, names};
use crate::near_far::NearFarState;

/// One parameter of a kernel: a field of its argument struct.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Param {
    /// The field's name.
    pub name: &'static str,
    /// Its offset in the struct, in bytes.
    pub offset: usize,
    /// Its size in bytes.
    pub size: usize,
}

/// The argument struct of one or more kernels.
///
/// # Safety
/// [`PARAMS`](Self::PARAMS) lists every field of the struct, in declaration
/// order, with its offset and size, and every entry of
/// [`ENTRIES`](Self::ENTRIES) takes exactly these fields as its parameters, in
/// this order. `kernel_args!` generates both from one field list.
pub unsafe trait KernelArgs: Copy {
    /// The PTX entries that take these arguments.
    const ENTRIES: &'static [&'static str];
    /// The fields, one per parameter, in order.
    const PARAMS: &'static [Param];
}

/// Defines argument structs: for each, the `#[repr(C)]` struct, its
/// [`KernelArgs`] implementation, and (in the PTX build) its entry macro,
/// which defines a kernel taking these arguments through `entry::entry!`.
/// The invocation starts with `($)`: the entry macros it defines need a `$`
/// of their own, which stable Rust's `macro_rules!` cannot write otherwise.
macro_rules! kernel_args {
    (($d:tt)) => {};
    (
        ($d:tt)
        $(#[$attr:meta])*
        pub struct $name:ident for [$($entry:expr),+ $(,)?], entry macro $entry_macro:ident {
            graph: $which:literal;
            $($fields:tt)*
        }
        $($more:tt)*
    ) => {
        with_graph_fields! {
            $which,
            kernel_args! {
                ($d)
                $(#[$attr])*
                pub struct $name for [$($entry),+], entry macro $entry_macro
            }
            { $($fields)* }
            { $($more)* }
        }
    };
    (
        ($d:tt)
        $(#[$attr:meta])*
        pub struct $name:ident for [$($entry:expr),+ $(,)?], entry macro $entry_macro:ident {
            $($(#[$field_attr:meta])* pub $field:ident: $ty:ty),+ $(,)?
        }
        $($more:tt)*
    ) => {
        $(#[$attr])*
        #[repr(C)]
        #[derive(Clone, Copy, Debug)]
        pub struct $name {
            $($(#[$field_attr])* pub $field: $ty),+
        }

        // SAFETY: both lists come from the one field list above.
        unsafe impl KernelArgs for $name {
            const ENTRIES: &'static [&'static str] = &[$($entry),+];
            const PARAMS: &'static [Param] = &[$(Param {
                name: stringify!($field),
                offset: core::mem::offset_of!($name, $field),
                size: size_of::<$ty>(),
            }),+];
        }

        #[cfg(target_arch = "nvptx64")]
        macro_rules! $entry_macro {
            ($d($d kernel:tt)*) => {
                crate::entry::entry! { crate::args::$name [$($field: $ty),+] $d($d kernel)* }
            };
        }
        #[cfg(target_arch = "nvptx64")]
        pub(crate) use $entry_macro;

        kernel_args! { ($d) $($more)* }
    };
}

/// A field list that starts with `graph: "Successor";` (or another name of
/// the CSR) starts with a graph's five fields in CSR form instead: `offsets`
/// (`n + 1`), `targets` and `weights` (`m` each), `n` and `m`. Hands
/// `$callback!` the tokens `$before`, the field list with those fields, then
/// `$after`.
macro_rules! with_graph_fields {
    (
        $which:literal,
        $callback:ident ! { $($before:tt)* }
        { $($fields:tt)* }
        { $($after:tt)* }
    ) => {
        $callback! {
            $($before)*
            {
                #[doc = concat!($which, " CSR row offsets, `n + 1`.")]
                pub offsets: *const u32,
                #[doc = concat!($which, " CSR targets, `m`.")]
                pub targets: *const u32,
                #[doc = concat!($which, " CSR weights, `m`.")]
                pub weights: *const u32,
                /// Vertices.
                pub n: u32,
                /// Edges.
                pub m: u32,
                $($fields)*
            }
            $($after)*
        }
    };
}

/// Defines a base argument struct and the structs that extend it, each with
/// the base's fields and its own extra fields last (the PTX parameters stay
/// flat), through [`kernel_args!`], from one field list (given first); and on
/// each extension, `new` from the base's arguments and the extras, and `split`
/// back. A grid loop's arguments extend its block loop's with a grid barrier.
macro_rules! extended_args {
    (
        ($d:tt)
        fields { graph: $which:literal; $($fields:tt)* }
        $($rest:tt)*
    ) => {
        with_graph_fields! {
            $which,
            extended_args! { ($d) fields }
            { $($fields)* }
            { $($rest)* }
        }
    };
    (
        ($d:tt)
        fields $fields:tt
        $(#[$base_attr:meta])*
        pub struct $base:ident for [$($base_entry:expr),+ $(,)?], entry macro $base_macro:ident;
        $(
            $(#[$ext_attr:meta])*
            pub struct $ext:ident for [$($ext_entry:expr),+ $(,)?], entry macro $ext_macro:ident
                $extras:tt
        )+
    ) => {
        kernel_args! {
            ($d)
            $(#[$base_attr])*
            pub struct $base for [$($base_entry),+], entry macro $base_macro $fields
        }
        $(
            extension_args! {
                ($d) $base $fields
                $(#[$ext_attr])*
                pub struct $ext for [$($ext_entry),+], entry macro $ext_macro $extras
            }
        )+
    };
}

/// One extension of [`extended_args!`].
macro_rules! extension_args {
    (
        ($d:tt) $base:ident { $($(#[$field_attr:meta])* pub $field:ident: $ty:ty),+ $(,)? }
        $(#[$attr:meta])*
        pub struct $ext:ident for [$($entry:expr),+], entry macro $entry_macro:ident
        { $($(#[$extra_attr:meta])* pub $extra:ident: $extra_ty:ty),+ $(,)? }
    ) => {
        kernel_args! {
            ($d)
            $(#[$attr])*
            pub struct $ext for [$($entry),+], entry macro $entry_macro {
                $($(#[$field_attr])* pub $field: $ty,)+
                $($(#[$extra_attr])* pub $extra: $extra_ty,)+
            }
        }

        impl $ext {
            #[doc = concat!("These arguments: [`", stringify!($base), "`]'s and the extra ones.")]
            pub fn new(base: $base, $($extra: $extra_ty),+) -> Self {
                let $base { $($field),+ } = base;
                $ext { $($field,)+ $($extra),+ }
            }

            #[doc = concat!("[`", stringify!($base), "`]'s arguments, and the extra ones.")]
            pub fn split(self) -> ($base, $($extra_ty),+) {
                let $ext { $($field,)+ $($extra),+ } = self;
                ($base { $($field),+ }, $($extra),+)
            }
        }
    };
}

kernel_args! {
    ($)
    /// `da2cf_initialize`, `da2cf_update` and `crauser_update`: one thread per
    /// vertex over its distance and flags, with one value.
    pub struct VertexFlagsArgs for [
        names::DA2CF_INITIALIZE,
        names::DA2CF_UPDATE,
        names::CRAUSER_UPDATE,
    ], entry macro vertex_flags_args {
        /// Distances, `n` (written by `da2cf_initialize` only).
        pub dist: *mut u32,
        /// Frontier flags, `n`.
        pub frontier: *mut u8,
        /// Unsettled flags, `n`.
        pub unsettled: *mut u8,
        /// Vertices.
        pub n: u32,
        /// `da2cf_initialize`: the source vertex; `da2cf_update`: the minimum
        /// tentative distance of this iteration; `crauser_update`: the
        /// threshold (unsettled vertices at most this far join the frontier).
        pub value: u32,
    }

    /// The four DA2CF relax kernels (`relax_F`, its racy twin, `relax_U`,
    /// `relax_U` plus), over the successor or the predecessor CSR.
    pub struct Da2cfRelaxArgs for [
        names::DA2CF_RELAX_F.u32,
        names::DA2CF_RELAX_F.f32,
        names::DA2CF_RELAX_F_NO_ATOMIC.u32,
        names::DA2CF_RELAX_F_NO_ATOMIC.f32,
        names::DA2CF_RELAX_U.u32,
        names::DA2CF_RELAX_U.f32,
        names::DA2CF_RELAX_U_PLUS.u32,
        names::DA2CF_RELAX_U_PLUS.f32,
    ], entry macro da2cf_relax_args {
        graph: "The";
        /// Distances, `n`.
        pub dist: *const AtomicU32,
        /// Frontier flags, `n`.
        pub frontier: *const u8,
        /// Unsettled flags, `n`.
        pub unsettled: *const u8,
    }

    /// `da2cf_minimum1`.
    pub struct Da2cfMinimum1Args for [names::DA2CF_MINIMUM1], entry macro da2cf_minimum1_args {
        /// Distances, `n`.
        pub dist: *const u32,
        /// Unsettled flags, `n`.
        pub unsettled: *const u8,
        /// Vertices.
        pub n: u32,
        /// One minimum per block.
        pub block_minima: *mut u32,
    }

    /// `da2cf_minimum2`.
    pub struct Da2cfMinimum2Args for [names::DA2CF_MINIMUM2], entry macro da2cf_minimum2_args {
        /// The values to reduce, `len`.
        pub values: *const u32,
        /// Values.
        pub len: u32,
        /// One minimum per block.
        pub block_minima: *mut u32,
    }

    /// `crauser_delta_node_succ` (over the successor CSR) and
    /// `crauser_delta_node_pred` (over the predecessor CSR).
    pub struct CrauserDeltaNodeArgs for [
        names::CRAUSER_DELTA_NODE_SUCC,
        names::CRAUSER_DELTA_NODE_PRED,
    ], entry macro crauser_delta_node_args {
        graph: "The";
        /// `Δ_node`, `n` (`crauser_delta_node_pred`: infinite on entry, only
        /// accessed atomically).
        pub delta_node: *mut u32,
    }

    /// `crauser_minimum1`.
    pub struct CrauserMinimum1Args for [
        names::CRAUSER_MINIMUM1.u32,
        names::CRAUSER_MINIMUM1.f32,
    ], entry macro crauser_minimum1_args {
        /// Distances, `n`.
        pub dist: *const u32,
        /// `Δ_node`, `n`.
        pub delta_node: *const u32,
        /// Unsettled flags, `n`.
        pub unsettled: *const u8,
        /// Vertices.
        pub n: u32,
        /// One minimum per block.
        pub block_minima: *mut u32,
    }

    /// `stats_count_flags`.
    pub struct StatsCountFlagsArgs for [names::STATS_COUNT_FLAGS],
        entry macro stats_count_flags_args {
        /// The flags, `n`.
        pub flags: *const u8,
        /// Flags.
        pub n: u32,
        /// The counter that set flags are added to.
        pub counter: *const AtomicU64,
    }

    /// `matrix_relax_u` and `matrix_relax_f`.
    pub struct MatrixRelaxArgs for [
        names::MATRIX_RELAX_U.u32,
        names::MATRIX_RELAX_U.f32,
        names::MATRIX_RELAX_F.u32,
        names::MATRIX_RELAX_F.f32,
    ], entry macro matrix_relax_args {
        /// The adjacency matrix, `n * n` weight words, row-major.
        pub weights: *const u32,
        /// Vertices.
        pub n: u32,
        /// Distances, `n`.
        pub dist: *const AtomicU32,
        /// Frontier flags, `n`.
        pub frontier: *const u8,
        /// Unsettled flags, `n`.
        pub unsettled: *const u8,
    }

    /// `matrix_delta_node`.
    pub struct MatrixDeltaNodeArgs for [names::MATRIX_DELTA_NODE],
        entry macro matrix_delta_node_args {
        /// The adjacency matrix, `n * n` weight words, row-major.
        pub weights: *const u32,
        /// Vertices.
        pub n: u32,
        /// `Δ_node`, `n`.
        pub delta_node: *mut u32,
    }

    /// `compact_initialize`.
    pub struct CompactInitializeArgs for [names::COMPACT_INITIALIZE],
        entry macro compact_initialize_args {
        /// Distances, `n`.
        pub dist: *const AtomicU32,
        /// The frontier list, `n`.
        pub frontier: *const AtomicU32,
        /// The loop state.
        pub state: *const LoopState<AtomicU32>,
        /// Vertices.
        pub n: u32,
        /// The source vertex.
        pub source: u32,
    }
}

extended_args! {
    ($)
    fields {
        graph: "Predecessor";
        /// The source vertex.
        pub source: u32,
        /// Distances, `n`.
        pub dist: *const AtomicU32,
        /// Distances of the previous round, `n`.
        pub predist: *const AtomicU32,
        /// Per-vertex change flags, `n`.
        pub changed: *const AtomicU8,
        /// Out: rounds run.
        pub rounds: *mut u32,
    }
    /// `bellman_ford_block`.
    pub struct BellmanFordBlockArgs for [
        names::BELLMAN_FORD_BLOCK.u32,
        names::BELLMAN_FORD_BLOCK.f32,
    ], entry macro bellman_ford_block_args;
    /// `bellman_ford_grid`: the block form's arguments, the round flags and
    /// a grid barrier.
    pub struct BellmanFordGridArgs for [
        names::BELLMAN_FORD_GRID.u32,
        names::BELLMAN_FORD_GRID.f32,
    ], entry macro bellman_ford_grid_args {
        /// The round flags.
        pub flags: *const RoundFlags,
        /// The grid barrier, zeroed.
        pub barrier: *const GridBarrier,
    }
}

extended_args! {
    ($)
    fields {
        graph: "Successor";
        /// `Δ_node` for Crauser's rule.
        pub delta_node: *const u32,
        /// `n` for Crauser's rule, 0 for Martín's.
        pub delta_node_len: u32,
        /// Distances, `n`.
        pub dist: *const AtomicU32,
        /// The frontier list, `n`.
        pub frontier: *const AtomicU32,
        /// The reached-unsettled list of even iterations, `n`.
        pub reached0: *const AtomicU32,
        /// The reached-unsettled list of odd iterations, `n`.
        pub reached1: *const AtomicU32,
        /// The loop state.
        pub state: *const LoopState<AtomicU32>,
        /// Below this much work the loop hands over.
        pub min_work: u32,
        /// Above this much work the loop hands over.
        pub max_work: u32,
    }
    /// `compact_block_loop`.
    pub struct CompactBlockLoopArgs for [
        names::COMPACT_BLOCK_LOOP.u32,
        names::COMPACT_BLOCK_LOOP.f32,
    ], entry macro compact_block_loop_args;
    /// `compact_grid_loop`: the block loop's arguments and a grid barrier.
    pub struct CompactGridLoopArgs for [
        names::COMPACT_GRID_LOOP.u32,
        names::COMPACT_GRID_LOOP.f32,
    ], entry macro compact_grid_loop_args {
        /// The grid barrier, zeroed.
        pub barrier: *const GridBarrier,
    }
}

kernel_args! {
    ($)
    /// `parents_join_round`.
    pub struct ParentsJoinRoundArgs for [
        names::PARENTS_JOIN_ROUND.u32,
        names::PARENTS_JOIN_ROUND.f32,
    ], entry macro parents_join_round_args {
        graph: "Predecessor";
        /// The source vertex.
        pub source: u32,
        /// This round's number.
        pub round: u32,
        /// Final distances, `n`.
        pub dist: *const u32,
        /// Parents, `n`.
        pub parent: *mut u32,
        /// Tree levels, `n`.
        pub level: *const AtomicU32,
        /// Set when a vertex joined the tree this round.
        pub more: *const AtomicU32,
    }

    /// `certificate_check`.
    pub struct CertificateCheckArgs for [
        names::CERTIFICATE_CHECK.u32,
        names::CERTIFICATE_CHECK.f32,
    ], entry macro certificate_check_args {
        graph: "Predecessor";
        /// The source vertex.
        pub source: u32,
        /// The reporting bound (a distance word; `INFINITY` for none).
        pub bound: u32,
        /// The stop's target (`INFINITY` for none): the bound is at most its
        /// distance.
        pub target: u32,
        /// The distances to check, `n`.
        pub dist: *const u32,
        /// The failure word and the rounds flag, 2.
        pub flags: *const AtomicU64,
    }

    /// `certificate_tree`.
    pub struct CertificateTreeArgs for [
        names::CERTIFICATE_TREE.u32,
        names::CERTIFICATE_TREE.f32,
    ], entry macro certificate_tree_args {
        graph: "Predecessor";
        /// The source vertex.
        pub source: u32,
        /// The distances to check, `n`.
        pub dist: *const u32,
        /// The tree's parents, `n`.
        pub parent: *const u32,
        /// The tree's levels, `n`.
        pub level: *const AtomicU32,
        /// The failure word and the rounds flag, 2.
        pub flags: *const AtomicU64,
    }

    /// `certificate_push`.
    pub struct CertificatePushArgs for [
        names::CERTIFICATE_PUSH.u32,
        names::CERTIFICATE_PUSH.f32,
    ], entry macro certificate_push_args {
        /// Successor CSR row offsets, `n + 1`.
        pub offsets: *const u32,
        /// Successor CSR targets, `m`.
        pub targets: *const u32,
        /// Successor CSR weights, `m`.
        pub weights: *const u32,
        /// Vertices.
        pub n: u32,
        /// Edges.
        pub m: u32,
        /// The stop's limit word (`INFINITY` for none).
        pub limit: u32,
        /// The stop's target (`INFINITY` for none).
        pub target: u32,
        /// The solver's distances, `n`.
        pub dist: *const u32,
        /// Marks of a tight in-arc from a closer vertex, `n`, zeroed.
        pub closer: *const AtomicU32,
        /// The failure word and the rounds flag, 2.
        pub flags: *const AtomicU64,
    }

    /// `certificate_verdict`.
    pub struct CertificateVerdictArgs for [names::CERTIFICATE_VERDICT],
        entry macro certificate_verdict_args {
        /// Vertices.
        pub n: u32,
        /// The source vertex.
        pub source: u32,
        /// The stop's limit word (`INFINITY` for none).
        pub limit: u32,
        /// The stop's target (`INFINITY` for none).
        pub target: u32,
        /// The solver's distances, `n`.
        pub dist: *const u32,
        /// The marks `certificate_push` left, `n`.
        pub closer: *const AtomicU32,
        /// The failure word and the rounds flag, 2.
        pub flags: *const AtomicU64,
    }
}

extended_args! {
    ($)
    fields {
        graph: "Successor";
        /// Distances, `n`.
        pub dist: *const AtomicU32,
        /// Near-list stamps, `n`.
        pub stamp: *const AtomicU32,
        /// Far-list stamps, `n`.
        pub far_stamp: *const AtomicU32,
        /// The near list of even rounds.
        pub near0: *const AtomicU32,
        /// The near list of odd rounds.
        pub near1: *const AtomicU32,
        /// The far list being read.
        pub far0: *const AtomicU32,
        /// The far list being written.
        pub far1: *const AtomicU32,
        /// The loop state.
        pub state: *const NearFarState<AtomicU32>,
        /// The hub list of even iterations, `2 * hub_slots` words.
        pub hubs0: *const AtomicU32,
        /// The hub list of odd iterations, `2 * hub_slots` words.
        pub hubs1: *const AtomicU32,
        /// Chunk descriptors each hub list holds.
        pub hub_slots: u32,
        /// Near vertices of more out-edges than this are hubs.
        pub hub_degree: u32,
        /// No vertex farther than this is relaxed (a distance word;
        /// [`INFINITY`](crate::distance::INFINITY): no limit).
        pub limit: u32,
        /// Nor farther than this vertex, or
        /// [`NO_TARGET`](crate::distance::NO_TARGET).
        pub target: u32,
        /// The bucket width, a weight word.
        pub delta: u32,
        /// Below this much work the loop hands over.
        pub min_work: u32,
        /// Above this much work the loop hands over.
        pub max_work: u32,
    }
    /// `near_far_block_loop`, with or without hubs.
    pub struct NearFarBlockLoopArgs for [
        names::NEAR_FAR_BLOCK_LOOP.u32,
        names::NEAR_FAR_BLOCK_LOOP.f32,
        names::NEAR_FAR_BLOCK_LOOP_HUBS.u32,
        names::NEAR_FAR_BLOCK_LOOP_HUBS.f32,
    ], entry macro near_far_block_loop_args;
    /// `near_far_grid_loop`, with or without hubs: the block loop's arguments
    /// and a grid barrier.
    pub struct NearFarGridLoopArgs for [
        names::NEAR_FAR_GRID_LOOP.u32,
        names::NEAR_FAR_GRID_LOOP.f32,
        names::NEAR_FAR_GRID_LOOP_HUBS.u32,
        names::NEAR_FAR_GRID_LOOP_HUBS.f32,
    ], entry macro near_far_grid_loop_args {
        /// The grid barrier, zeroed.
        pub barrier: *const GridBarrier,
    }
    /// `near_far_initialize`: a loop's arguments (the same graph, state and
    /// bucket width; the hub lists and limits unused) and the source.
    pub struct NearFarInitializeArgs for [names::NEAR_FAR_INITIALIZE],
        entry macro near_far_initialize_args {
        /// The source vertex.
        pub source: u32,
    }
}

kernel_args! {
    ($)
    /// `partition_initialize`.
    pub struct PartitionInitializeArgs for [names::PARTITION_INITIALIZE],
        entry macro partition_initialize_args {
        /// Distances, `n`.
        pub dist: *const AtomicU32,
        /// Paged mode's distances of the pieces no block holds, `n`.
        pub backing: *const AtomicU32,
        /// Vertices.
        pub n: u32,
        /// Per-piece notification words, `k`.
        pub notify: *const AtomicU32,
        /// Per-piece owner words (paged mode), `k`.
        pub owner: *const AtomicU32,
        /// Pieces.
        pub k: u32,
        /// The solve's counters.
        pub counters: *const AtomicU32,
        /// The piece of the source.
        pub source_piece: u32,
        /// The solve's first bound: the limit, a distance word
        /// (`partition::initialize_piece`).
        pub bound: u32,
    }

    /// `partition_solve`.
    pub struct PartitionSolveArgs for [
        names::PARTITION_SOLVE.u32,
        names::PARTITION_SOLVE.f32,
        names::PARTITION_PAGED.u32,
        names::PARTITION_PAGED.f32,
    ], entry macro partition_solve_args {
        graph: "Successor";
        /// First vertex of each piece, `k + 1` (the CSR numbers each piece's
        /// vertices contiguously).
        pub starts: *const u32,
        /// End of each piece's boundary vertices, `k`.
        pub boundary_ends: *const u32,
        /// The piece of each vertex, `n`.
        pub piece_of: *const u32,
        /// Pieces.
        pub k: u32,
        /// Distances, `n`.
        pub dist: *const AtomicU32,
        /// Paged mode's distances of the pieces no block holds, `n`.
        pub backing: *const AtomicU32,
        /// Per-piece notification words, `k`.
        pub notify: *const AtomicU32,
        /// Per-piece owner words (paged mode), `k`.
        pub owner: *const AtomicU32,
        /// The solve's counters.
        pub counters: *const AtomicU32,
        /// The source vertex.
        pub source: u32,
        /// The vertex whose distance bounds the solve, or
        /// [`NO_TARGET`](crate::distance::NO_TARGET).
        pub target: u32,
        /// The initial window width, a weight word.
        pub delta: u32,
        /// Compute threads that share a frontier vertex's edges
        /// ([`RoundSettings::edge_lanes`](crate::partition::RoundSettings::edge_lanes)).
        pub edge_lanes: u32,
        /// Hops a warp chains in a round at most
        /// ([`RoundSettings::chain_hops`](crate::partition::RoundSettings::chain_hops)).
        pub chain_hops: u32,
        /// Nonzero: entries first
        /// ([`RoundSettings::entries_first`](crate::partition::RoundSettings::entries_first)).
        pub entries_first: u32,
        /// Vertices of the largest piece.
        pub capacity: u32,
        /// Edges kept in shared memory per piece (0: none).
        pub edge_capacity: u32,
    }

    /// `phast_clear`.
    pub struct PhastClearArgs for [names::PHAST_CLEAR], entry macro phast_clear_args {
        /// The distances to clear, `len`.
        pub dist: *const AtomicU32,
        /// Words.
        pub len: u32,
    }

    /// `phast_scatter`.
    pub struct PhastScatterArgs for [names::PHAST_SCATTER], entry macro phast_scatter_args {
        /// `(index, distance)` pairs, `2 * count` words.
        pub entries: *const u32,
        /// Pairs.
        pub count: u32,
        /// The distances, `len`.
        pub dist: *const AtomicU32,
        /// Words.
        pub len: u32,
    }

    /// `phast_columns`.
    pub struct PhastColumnsArgs for [names::PHAST_COLUMNS], entry macro phast_columns_args {
        /// The lanes' distances, `n * lanes`.
        pub dist: *const AtomicU32,
        /// Vertices.
        pub n: u32,
        /// Sources swept together.
        pub lanes: u32,
        /// The target vertices, `t`.
        pub targets: *const u32,
        /// Targets.
        pub t: u32,
        /// Lanes that hold a source.
        pub count: u32,
        /// The table row of lane 0.
        pub first_row: u32,
        /// The table, `table_len` words.
        pub table: *const AtomicU32,
        /// Words of the table.
        pub table_len: u32,
    }

    /// `phast_sweep`.
    pub struct PhastSweepArgs for [names::PHAST_SWEEP.u32, names::PHAST_SWEEP.f32],
        entry macro phast_sweep_args {
        /// Downward arcs' row offsets by head, `n + 1`.
        pub offsets: *const u32,
        /// The arcs' tails, `m`.
        pub ends: *const u32,
        /// The arcs' weights, `m`.
        pub weights: *const u32,
        /// Vertices.
        pub n: u32,
        /// Arcs.
        pub m: u32,
        /// First vertex of each level, `levels + 1`.
        pub level_starts: *const u32,
        /// Levels.
        pub levels: u32,
        /// Levels that block 0 runs alone.
        pub block_levels: u32,
        /// Sources swept together.
        pub lanes: u32,
        /// The lanes' distances, `n * lanes`.
        pub dist: *const AtomicU32,
        /// The grid barrier, zeroed.
        pub barrier: *const GridBarrier,
    }

    /// `rows_gather`.
    pub struct RowsGatherArgs for [names::ROWS_GATHER], entry macro rows_gather_args {
        /// The solver's distances by new id, `n` or more.
        pub dist: *const u32,
        /// Entries of `dist`.
        pub dist_len: u32,
        /// Each vertex's new id, `n`.
        pub new_of_old: *const u32,
        /// Vertices.
        pub n: u32,
        /// The stop's limit word (`INFINITY`: none).
        pub limit: u32,
        /// The stop's target by new id (`INFINITY`: none).
        pub target_new: u32,
        /// The row by original id, `n`.
        pub out: *mut u32,
        /// The overflow flags, `ROW_FLAGS`, zeroed.
        pub flags: *const AtomicU32,
    }
}

kernel_args! {
    ($)
    /// `phast_rows`.
    pub struct PhastRowsArgs for [names::PHAST_ROWS], entry macro phast_rows_args {
        /// The lanes' distances, `n * lanes`.
        pub dist: *const AtomicU32,
        /// Vertices.
        pub n: u32,
        /// Sources swept together.
        pub lanes: u32,
        /// Each vertex's position, `n`.
        pub position: *const u32,
        /// The lane of the slot's first row.
        pub first_lane: u32,
        /// Rows of the slot.
        pub rows: u32,
        /// The stop's limit word (`INFINITY`: none).
        pub limit: u32,
        /// The stop's target's position (`INFINITY`: none).
        pub target: u32,
        /// The slot, `rows * (n + ROW_FLAGS)`, flags zeroed.
        pub out: *const AtomicU32,
    }

    /// `reductions_within_part`.
    pub struct ReductionsWithinPartArgs for [names::REDUCTIONS_WITHIN_PART],
        entry macro reductions_within_part_args {
        /// The lanes' distances, `n * lanes`.
        pub dist: *const u32,
        /// Vertices.
        pub n: u32,
        /// Sources swept together.
        pub lanes: u32,
        /// Parts per lane (threads: `lanes * strides`).
        pub strides: u32,
        /// The limit word.
        pub limit: u32,
        /// Values by position, `values_len` (`n`, or 0: none).
        pub values: *const f64,
        /// Values.
        pub values_len: u32,
        /// Each thread's (count, saturated), `2 * lanes * strides`.
        pub counts: *mut u32,
        /// Each thread's sum, `lanes * strides`.
        pub sums: *mut f64,
    }

    /// `reductions_within_total`.
    pub struct ReductionsWithinTotalArgs for [names::REDUCTIONS_WITHIN_TOTAL],
        entry macro reductions_within_total_args {
        /// Each part's (count, saturated), `2 * lanes * strides`.
        pub counts: *const u32,
        /// Each part's sum, `lanes * strides`.
        pub sums: *const f64,
        /// Sources swept together.
        pub lanes: u32,
        /// Parts per lane.
        pub strides: u32,
        /// Lanes that hold a source.
        pub count: u32,
        /// The result row of lane 0.
        pub first_row: u32,
        /// The results' (count, saturated), `2 * rows_len`.
        pub out_counts: *mut u32,
        /// The results' sums, `rows_len`.
        pub out_sums: *mut f64,
        /// Result rows.
        pub rows_len: u32,
    }

    /// `cch_customize` and `cch_customize_warps`.
    pub struct CchCustomizeArgs for [names::CCH_CUSTOMIZE, names::CCH_CUSTOMIZE_WARPS],
        entry macro cch_customize_args {
        /// Row offsets of the arcs' triangles, `m + 1`.
        pub triangle_offsets: *const u32,
        /// The arc `(x, u)` of each triangle, `triangles`.
        pub lower: *const u32,
        /// The arc `(x, v)` of each triangle, `triangles`.
        pub upper: *const u32,
        /// The lower endpoint of each arc, `m`.
        pub tails: *const u32,
        /// Arcs.
        pub m: u32,
        /// Triangles.
        pub triangles: u32,
        /// Forward weights, `m`.
        pub forward: *const AtomicU32,
        /// Backward weights, `m`.
        pub backward: *const AtomicU32,
        /// Middles of the forward weights, `m`.
        pub forward_middle: *const AtomicU32,
        /// Middles of the backward weights, `m`.
        pub backward_middle: *const AtomicU32,
        /// The first arc of the level.
        pub first: u32,
        /// Arcs of the level.
        pub count: u32,
    }

    /// `pair_query_u32` and `pair_query_f32`.
    pub struct PairQueryArgs for [names::PAIR_QUERY.u32, names::PAIR_QUERY.f32],
        entry macro pair_query_args {
        /// Up arcs' row offsets by lower position, `n + 1`.
        pub up_offsets: *const u32,
        /// Up arcs' higher ends, `up_m`.
        pub up_ends: *const u32,
        /// Up arcs' weights, `up_m`.
        pub up_weights: *const u32,
        /// Up arcs.
        pub up_m: u32,
        /// Down arcs' row offsets by lower position, `n + 1`.
        pub down_offsets: *const u32,
        /// Down arcs' higher ends, `down_m`.
        pub down_ends: *const u32,
        /// Down arcs' weights, `down_m`.
        pub down_weights: *const u32,
        /// Down arcs.
        pub down_m: u32,
        /// Vertices.
        pub n: u32,
        /// The pairs' source positions, `count`.
        pub sources: *const u32,
        /// The pairs' target positions, `count`.
        pub targets: *const u32,
        /// Pairs.
        pub count: u32,
        /// Each pair's distance word, `count`.
        pub dist: *mut u32,
        /// Each pair's overflow flag (1: answered elsewhere), `count`.
        pub overflow: *mut u32,
        /// The threads' hash tables, `threads * table_len` entries of 4 words.
        pub table: *mut u32,
        /// Entries of one thread's table (a power of two, 2 or more).
        pub table_len: u32,
        /// The threads' heaps, `threads * 2 * heap_len` keys.
        pub heaps: *mut u64,
        /// Keys of one heap.
        pub heap_len: u32,
        /// Threads with a scratch of their own.
        pub threads: u32,
        /// The pairs taken after each thread's first, zeroed.
        pub next: *const AtomicU32,
        /// The epoch of each thread's first query (then one more a query).
        pub epoch: u32,
        /// Stall on demand (1) or not (0).
        pub stall: u32,
    }

    /// `reductions_nearest`.
    pub struct ReductionsNearestArgs for [names::REDUCTIONS_NEAREST],
        entry macro reductions_nearest_args {
        /// The lanes' distances, `n * lanes`.
        pub dist: *const u32,
        /// Vertices.
        pub n: u32,
        /// Sources swept together.
        pub lanes: u32,
        /// Lanes that hold a source.
        pub count: u32,
        /// The source index of lane 0.
        pub first_source: u32,
        /// Each position's best distance so far, `n`.
        pub best: *mut u32,
        /// Each position's nearest source index so far, `n`.
        pub from: *mut u32,
    }
}
