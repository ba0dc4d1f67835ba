//! Distance values, weight types and the saturating addition used by every
//! relaxation.
//!
//! Distances and weights travel as `u32` words whatever the weight type, so that
//! every kernel keeps one layout and one atomic minimum:
//! - `u32` weights ([`WeightKind::U32`]): the word is the integer;
//! - `f32` weights ([`WeightKind::F32`]): the word is the bit pattern of a
//!   non-negative, finite `f32` (sign bit clear, never `-0.0`). For such floats
//!   the order of the bit patterns as unsigned integers is the order of the
//!   values, so minima, comparisons and the atomic minimum work on the words
//!   unchanged; only the addition ([`Weight::extend`]) differs.
//!
//! The two largest words are reserved for both types:
//! - [`INFINITY`]: not reached (yet);
//! - [`SATURATED`]: reached, but the shortest distance is larger than the
//!   type's largest distance ([`Weight::MAX_DISTANCE`]) and does not fit.
//!   Relaxations never wrap: a sum that does not fit becomes `SATURATED`, which
//!   still compares below `INFINITY`, so the algorithms settle such vertices like
//!   any other and the host reports them as an overflow error instead of a wrong
//!   distance.
//!
//! (As `f32` bit patterns both are NaNs, above every finite value and `+inf`.)

/// Distance of a vertex that has not been reached.
pub const INFINITY: u32 = u32::MAX;

/// The target vertex of a solve without one (a solver that stops early at a
/// target takes this for none).
pub const NO_TARGET: u32 = u32::MAX;
/// Distance of a vertex that is reached but whose shortest distance does not fit.
pub const SATURATED: u32 = u32::MAX - 1;
/// The largest `u32` distance that is represented exactly.
pub const MAX_DISTANCE: u32 = u32::MAX - 2;

/// Which type a graph's weight words hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WeightKind {
    /// Non-negative integers.
    U32,
    /// Non-negative, finite `f32`s, as their bit patterns.
    F32,
}

impl WeightKind {
    /// The type's name, as the CLI and the kernel names spell it.
    pub const fn name(self) -> &'static str {
        match self {
            WeightKind::U32 => "u32",
            WeightKind::F32 => "f32",
        }
    }
}

/// A weight type: how its distance words are extended by an edge. Implemented
/// by `u32` and `f32`; every kernel that adds a weight is generic over it and
/// instantiated for both.
pub trait Weight: Copy + 'static {
    /// The largest distance word that is an exact distance.
    const MAX_DISTANCE: u32;

    /// The candidate distance `d + w` of a path through an edge of weight word
    /// `w` leaving a vertex at distance word `d`: the sum when it fits,
    /// [`SATURATED`] when it does not or `d` is `SATURATED`, and [`INFINITY`]
    /// when `d` is.
    fn extend(d: u32, w: u32) -> u32;

    /// The value of a distance or weight word (`word` at most
    /// [`Self::MAX_DISTANCE`]).
    fn to_f64(word: u32) -> f64;

    /// The word of the value nearest to `x` (`x` finite and non-negative; clamped
    /// to the largest exact distance).
    fn from_f64(x: f64) -> u32;
}

impl Weight for u32 {
    const MAX_DISTANCE: u32 = MAX_DISTANCE;

    #[inline(always)]
    fn extend(d: u32, w: u32) -> u32 {
        if d == INFINITY {
            return INFINITY;
        }
        // 32-bit: the relax loops' hot path.
        match d.overflowing_add(w) {
            (sum, false) if sum < SATURATED => sum,
            _ => SATURATED,
        }
    }

    fn to_f64(word: u32) -> f64 {
        word as f64
    }

    fn from_f64(x: f64) -> u32 {
        // Rounds half up (`no_std` has no `round`); `as` saturates, and maps NaN
        // and negative values to 0.
        ((x + 0.5) as u32).min(MAX_DISTANCE)
    }
}

impl Weight for f32 {
    const MAX_DISTANCE: u32 = f32::MAX.to_bits();

    /// The `f32` sum, rounded to nearest like every IEEE addition (the GPU's
    /// `add.rn.f32` and the host's), so the GPU and an `f32` CPU Dijkstra agree
    /// bit for bit. A sum of non-negative values is never `-0.0`; one that
    /// overflows to `+inf` is [`SATURATED`].
    #[inline(always)]
    fn extend(d: u32, w: u32) -> u32 {
        if d >= SATURATED {
            return d;
        }
        let sum = f32::from_bits(d) + f32::from_bits(w);
        if sum <= f32::MAX {
            sum.to_bits()
        } else {
            SATURATED
        }
    }

    fn to_f64(word: u32) -> f64 {
        f32::from_bits(word) as f64
    }

    fn from_f64(x: f64) -> u32 {
        // `as` rounds to nearest and saturates to ±inf; +0.0 for NaN or below 0.
        let value = if x > 0.0 { x as f32 } else { 0.0 };
        value.min(f32::MAX).to_bits()
    }
}

/// Whether `word` is a valid `f32` weight word: the bit pattern of a finite,
/// non-negative float other than `-0.0`.
#[inline(always)]
pub fn is_f32_weight(word: u32) -> bool {
    word <= f32::MAX.to_bits()
}

/// `factor` times the mean of the weight words `weights` (of type `W`) over
/// `divisor`, as a word of `W`: at least the smallest positive word, at most
/// half the largest distance; 1 without weights. The automatic widths of
/// the bucketed solvers (`near_far::auto_delta`, `partition::auto_delta`)
/// are this with their own factor and divisor.
pub fn scaled_mean_weight<W: Weight>(weights: &[u32], factor: f64, divisor: f64) -> u32 {
    let m = weights.len();
    if m == 0 {
        return 1;
    }
    let total: f64 = weights.iter().map(|&w| W::to_f64(w)).sum();
    let delta = factor * total / (m as f64 * divisor);
    W::from_f64(delta.min(W::to_f64(W::MAX_DISTANCE) / 2.0)).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extend_is_exact_below_the_limit_and_saturates_above() {
        let extend = <u32 as Weight>::extend;
        assert_eq!(extend(0, 0), 0);
        assert_eq!(extend(5, 7), 12);
        assert_eq!(extend(MAX_DISTANCE - 3, 3), MAX_DISTANCE);
        assert_eq!(extend(MAX_DISTANCE - 3, 4), SATURATED);
        assert_eq!(extend(MAX_DISTANCE, u32::MAX), SATURATED);
        assert_eq!(extend(SATURATED, 0), SATURATED);
        assert_eq!(extend(INFINITY, 0), INFINITY);
        assert_eq!(extend(INFINITY, 1), INFINITY);
    }

    #[test]
    fn f32_extend_adds_the_floats_and_saturates_on_overflow() {
        let word = |x: f32| x.to_bits();
        let f = <f32 as Weight>::extend;
        assert_eq!(f(word(0.0), word(0.0)), word(0.0));
        assert_eq!(f(word(1.5), word(0.25)), word(1.75));
        assert_eq!(f(word(0.1), word(0.2)), word(0.1f32 + 0.2f32));
        assert_eq!(f(word(f32::MAX), word(0.0)), word(f32::MAX));
        assert_eq!(f(word(f32::MAX), word(f32::MAX)), SATURATED);
        assert_eq!(f(SATURATED, word(0.0)), SATURATED);
        assert_eq!(f(INFINITY, word(1.0)), INFINITY);
    }

    #[test]
    fn f32_words_order_like_their_values() {
        let values = [0.0f32, 1e-45, 1e-38, 0.5, 1.0, 1.0000001, 3.0e38, f32::MAX];
        for pair in values.windows(2) {
            assert!(pair[0].to_bits() < pair[1].to_bits());
        }
        assert!(f32::MAX.to_bits() < SATURATED);
        assert!(is_f32_weight(0.0f32.to_bits()) && is_f32_weight(f32::MAX.to_bits()));
        assert!(!is_f32_weight((-0.0f32).to_bits()));
        assert!(!is_f32_weight(f32::INFINITY.to_bits()) && !is_f32_weight(f32::NAN.to_bits()));
    }

    #[test]
    fn conversions_round_trip() {
        assert_eq!(<u32 as Weight>::from_f64(12.4), 12);
        assert_eq!(<u32 as Weight>::from_f64(1e20), MAX_DISTANCE);
        assert_eq!(<f32 as Weight>::from_f64(0.5), 0.5f32.to_bits());
        assert_eq!(<f32 as Weight>::from_f64(-1.0), 0);
        assert_eq!(<f32 as Weight>::from_f64(1e300), f32::MAX.to_bits());
        assert_eq!(<f32 as Weight>::to_f64(2.5f32.to_bits()), 2.5);
    }
}
