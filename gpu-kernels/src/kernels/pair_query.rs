//! Entry points of the batched point-to-point queries
//! ([`crate::pair_query`]): one thread a pair, each thread with a hash table
//! and two heaps of its own.

use core::sync::atomic::{AtomicU32, Ordering};

use crate::args::PairQueryArgs;
use crate::device::memory::{slice, slice_mut};
use crate::device::thread::index_1d;
use crate::pair_query::{Entry, Outcome, Queries, Scratch, UpwardArcs};

crate::args::pair_query_args! {
    /// `pair_query`: the distance word of each pair `(sources[p],
    /// targets[p])` of positions into `dist[p]`, or `overflow[p] = 1` when
    /// the query needed more than the thread's scratch
    /// ([`crate::pair_query::Queries`]).
    ///
    /// # Thread mapping
    /// Thread `i = blockIdx.x * blockDim.x + threadIdx.x` (`i < threads`;
    /// others return) answers pair `i`, then pairs `threads + k` for the
    /// `k`s it takes from `next` (one at a time, as it finishes the last:
    /// threads whose queries are short answer more of them), the `j`-th of
    /// its pairs under epoch `epoch + j`, with table entries `i *
    /// table_len..` and heaps `2 * i * heap_len..`.
    ///
    /// # Safety
    /// - `up_offsets` and `down_offsets` hold `n + 1` words, non-decreasing
    ///   from 0 to `up_m` and `down_m`; the ends and weights hold that many
    ///   words, every end `< n`.
    /// - `sources`, `targets`, `dist` and `overflow` hold `count` words,
    ///   every position `< n`.
    /// - `table` holds `4 * threads * table_len` words, `table_len` a power
    ///   of two of at least 2; every entry's epoch (its first word) is below
    ///   `epoch`; `heaps` holds `2 * threads * heap_len` keys.
    /// - `next` is one zeroed word; `epoch + count` does not exceed
    ///   `u32::MAX`.
    fn pair_query<W> as pair_query_u32, pair_query_f32 (args) {
        let i = index_1d();
        if i >= args.threads {
            return;
        }
        let (n, count) = (args.n as usize, args.count as usize);
        let (threads, table_len, heap_len) =
            (args.threads as usize, args.table_len as usize, args.heap_len as usize);
        // SAFETY: as the caller guarantees; thread `i` alone uses its part
        // of `table` and `heaps`, and the pairs it answers.
        let (arcs, sources, targets, dist, overflow, next, mut scratch) = unsafe {
            let up = UpwardArcs {
                offsets: slice(args.up_offsets, n + 1),
                ends: slice(args.up_ends, args.up_m as usize),
                weights: slice(args.up_weights, args.up_m as usize),
            };
            let down = UpwardArcs {
                offsets: slice(args.down_offsets, n + 1),
                ends: slice(args.down_ends, args.down_m as usize),
                weights: slice(args.down_weights, args.down_m as usize),
            };
            let table = args.table.cast::<Entry>().add(i as usize * table_len);
            let heaps = args.heaps.add(2 * i as usize * heap_len);
            (
                [up, down],
                slice(args.sources, count),
                slice(args.targets, count),
                args.dist,
                args.overflow,
                &*args.next,
                Scratch {
                    table: slice_mut(table, table_len),
                    heaps: [slice_mut(heaps, heap_len), slice_mut(heaps.add(heap_len), heap_len)],
                },
            )
        };
        let (mut p, mut epoch) = (i as usize, args.epoch);
        if p >= count {
            return;
        }
        let stall = args.stall != 0;
        let mut queries = Queries::new(&mut scratch);
        queries.begin((sources[p], targets[p]), epoch);
        // One flat loop: each iteration settles one vertex of this thread's
        // query, or writes its answer and starts the next pair.
        loop {
            let Some(outcome) = queries.advance::<W>(arcs, stall) else {
                continue;
            };
            let (d, full) = match outcome {
                Outcome::Distance(d) => (d, 0),
                Outcome::Overflow => (crate::distance::INFINITY, 1),
            };
            // SAFETY: `p < count`, and pair `p` is this thread's alone.
            unsafe {
                *dist.add(p) = d;
                *overflow.add(p) = full;
            }
            p = threads + next.fetch_add(1, Ordering::Relaxed) as usize;
            epoch += 1;
            if p >= count {
                return;
            }
            queries.begin((sources[p], targets[p]), epoch);
        }
    }
}
