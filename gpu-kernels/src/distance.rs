//! Distance values and the saturating addition used by every relaxation.
//!
//! Distances are `u32`. The two largest values are reserved:
//! - [`INFINITY`]: not reached (yet);
//! - [`SATURATED`]: reached, but the shortest distance is larger than
//!   [`MAX_DISTANCE`] and does not fit. Relaxations never wrap: a sum that does not
//!   fit becomes `SATURATED`, which still compares below `INFINITY`, so the
//!   algorithms settle such vertices like any other and the host reports them as an
//!   overflow error instead of a wrong distance.

/// Distance of a vertex that has not been reached.
pub const INFINITY: u32 = u32::MAX;
/// Distance of a vertex that is reached but whose shortest distance does not fit.
pub const SATURATED: u32 = u32::MAX - 1;
/// The largest distance that is represented exactly.
pub const MAX_DISTANCE: u32 = u32::MAX - 2;

/// The candidate distance `d + w` of a path through an edge of weight `w` leaving a
/// vertex at distance `d`: exact when it fits, [`SATURATED`] when it does not, and
/// [`INFINITY`] when `d` is.
#[inline(always)]
pub fn extend(d: u32, w: u32) -> u32 {
    if d == INFINITY {
        return INFINITY;
    }
    let sum = d as u64 + w as u64;
    if sum >= SATURATED as u64 {
        SATURATED
    } else {
        sum as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extend_is_exact_below_the_limit_and_saturates_above() {
        assert_eq!(extend(0, 0), 0);
        assert_eq!(extend(5, 7), 12);
        assert_eq!(extend(MAX_DISTANCE - 3, 3), MAX_DISTANCE);
        assert_eq!(extend(MAX_DISTANCE - 3, 4), SATURATED);
        assert_eq!(extend(MAX_DISTANCE, u32::MAX), SATURATED);
        assert_eq!(extend(SATURATED, 0), SATURATED);
        assert_eq!(extend(INFINITY, 0), INFINITY);
        assert_eq!(extend(INFINITY, 1), INFINITY);
    }
}
