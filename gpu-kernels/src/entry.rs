//! The macro that defines a PTX entry from an argument struct's field list,
//! which each argument struct's entry macro ([`crate::args`]) calls.

/// Defines a PTX entry from an argument struct's field list (given by the
/// struct's entry macro, `crate::args`), in one of two forms:
/// - `fn name(args) { … }`: the entry `name`, whose body sees its
///   parameters as `args`, the struct;
/// - `fn body<W> as name_u32, name_f32 (args) { … }`: an `unsafe fn body<W>`
///   generic over the weight type, and its entries for `u32` and `f32`
///   weights, which only forward their arguments.
///
/// The docs given (`# Safety` and `# Thread mapping` included) go to `name`
/// or to `body`. The names are those of [`crate::launch::names`].
macro_rules! entry {
    (
        $args_type:path [$($field:ident: $ty:ty),+]
        $(#[$attr:meta])*
        fn $name:ident($args:ident) $block:block
    ) => {
        $(#[$attr])*
        #[unsafe(no_mangle)]
        pub unsafe extern "ptx-kernel" fn $name($($field: $ty),+) {
            // A path is no struct literal's name; an alias of it is.
            type Args = $args_type;
            let $args = Args { $($field),+ };
            $block
        }
    };
    (
        $args_type:path [$($field:ident: $ty:ty),+]
        $(#[$attr:meta])*
        fn $body:ident<W> as $u32_name:ident, $f32_name:ident ($args:ident) $block:block
    ) => {
        $(#[$attr])*
        #[inline(always)]
        unsafe fn $body<W: crate::distance::Weight>($args: $args_type) $block

        #[doc = concat!("[`", stringify!($body), "`] for `u32` weights.")]
        ///
        /// # Safety
        #[doc = concat!("As [`", stringify!($body), "`].")]
        #[unsafe(no_mangle)]
        pub unsafe extern "ptx-kernel" fn $u32_name($($field: $ty),+) {
            type Args = $args_type;
            // SAFETY: the caller upholds the body's contract.
            unsafe { $body::<u32>(Args { $($field),+ }) }
        }

        #[doc = concat!("[`", stringify!($body), "`] for `f32` weights.")]
        ///
        /// # Safety
        #[doc = concat!("As [`", stringify!($body), "`].")]
        #[unsafe(no_mangle)]
        pub unsafe extern "ptx-kernel" fn $f32_name($($field: $ty),+) {
            type Args = $args_type;
            // SAFETY: the caller upholds the body's contract.
            unsafe { $body::<f32>(Args { $($field),+ }) }
        }
    };
}
pub(crate) use entry;
