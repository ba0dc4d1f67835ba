//! A block's whole solve, its pieces resident or paged (module docs of
//! [`crate::partition`]).

use core::sync::atomic::Ordering::Relaxed;

use crate::distance::Weight;
use crate::team::BlockTeam;

use super::communication::Hold;
use super::memory::{Global, Local, Pieces};
use super::paged::paged_rounds;
use super::piece::hold_piece;
use super::settings::RoundSettings;

/// Where the pieces are while the blocks solve (module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    /// Resident: block `b` holds piece `b` for the whole solve; the distances
    /// end in `global.dist`.
    Resident,
    /// Paged: the blocks claim the notified pieces in turn; the distances of
    /// the pieces no block holds, and in the end of all, are in
    /// `global.backing`.
    Paged {
        /// The blocks of the grid.
        blocks: usize,
    },
}

/// The whole solve for one thread of block `block` (see the module docs):
/// every thread of the block calls it with the same arguments; `source` is a
/// vertex of the renumbered graph. Returns when the solve is over, with the
/// distances where `placement` puts them.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub fn block_solve<W: Weight>(
    block: usize,
    placement: Placement,
    source: usize,
    settings: RoundSettings,
    pieces: &Pieces<'_>,
    global: &Global<'_>,
    local: &Local<'_>,
    team: &impl BlockTeam,
) {
    let memory = (pieces, global, local);
    let rounds = match placement {
        Placement::Resident => {
            hold_piece::<W>((block, source), settings, Hold::Resident, memory, team)
        }
        Placement::Paged { blocks } => {
            paged_rounds::<W>((block, blocks), source, settings, memory, team)
        }
    };
    if team.thread() == 0 {
        global.rounds.fetch_max(rounds, Relaxed);
    }
}
