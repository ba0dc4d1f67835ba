//! Writing a file so that it is either the old file or the whole new one:
//! the bytes go to a temporary file in the target's folder, which is flushed,
//! synced and then renamed over the target. A failed or interrupted write
//! leaves the target as it was.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::{Error, Result};

/// The buffer between a writer and its temporary file.
const BUFFER_BYTES: usize = 1 << 20;

/// Numbers the temporary files of one process.
static NEXT: AtomicUsize = AtomicUsize::new(0);

/// A file being written in place of `target`: created in the target's folder
/// as `.<name>.tmp-<pid>-<n>`, renamed over the target by [`commit`](Self::commit),
/// removed if dropped before.
///
/// A target that exists and is not a regular file (`/dev/null`, a pipe), or
/// that is named under `/dev` or `/proc` (`/dev/stdout`), is written
/// directly: it cannot be replaced.
#[derive(Debug)]
pub struct AtomicFile {
    /// The file the bytes are for (a symbolic link's file, not the link).
    target: PathBuf,
    /// Where the bytes go until the commit (the target itself if direct).
    temp: PathBuf,
    /// Whether the bytes go to the target directly.
    direct: bool,
    /// Whether the temporary file was renamed (or never needs removing).
    done: bool,
}

impl AtomicFile {
    /// Creates the temporary file for `target`. Fails with [`Error::Write`]
    /// naming `target` if its folder does not exist, is not a folder, or
    /// does not allow creating files, or if `target` is a folder.
    pub fn create(target: &Path) -> Result<AtomicFile> {
        let write_error = |source| Error::Write {
            path: target.to_path_buf(),
            source,
        };
        // Replace a symbolic link's file, not the link.
        let resolved = match fs::symlink_metadata(target) {
            Ok(meta) if meta.file_type().is_symlink() => {
                fs::canonicalize(target).unwrap_or_else(|_| target.to_path_buf())
            }
            _ => target.to_path_buf(),
        };
        let existing = fs::metadata(&resolved).ok();
        if let Some(meta) = &existing {
            if meta.is_dir() {
                return Err(write_error(io::Error::new(
                    io::ErrorKind::IsADirectory,
                    "is a directory",
                )));
            }
            // A special file (`/dev/null`, a pipe), or a name of one
            // (`/dev/stdout` redirected to a file), is written in place.
            let special = target.starts_with("/dev") || target.starts_with("/proc");
            if !meta.is_file() || special {
                return Ok(AtomicFile {
                    target: resolved.clone(),
                    temp: resolved,
                    direct: true,
                    done: true,
                });
            }
        }
        let name = resolved
            .file_name()
            .ok_or_else(|| write_error(io::Error::other("not a file name")))?;
        let folder = match resolved.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let temp = folder.join(format!(
            ".{}.tmp-{}-{}",
            name.to_string_lossy(),
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temp)
            .map_err(write_error)?;
        let atomic = AtomicFile {
            target: resolved,
            temp,
            direct: false,
            done: false,
        };
        if let Some(meta) = existing {
            // The new file keeps the old one's permissions.
            file.set_permissions(meta.permissions())
                .map_err(write_error)?;
        }
        Ok(atomic)
    }

    /// Where a writer that takes a path writes the bytes, before [`commit`](Self::commit).
    pub fn temp_path(&self) -> &Path {
        &self.temp
    }

    /// The error of a writer that wrote to [`temp_path`](Self::temp_path), about
    /// the target: an [`Error::Io`] of the temporary file becomes an
    /// [`Error::Write`] of the target; other errors are unchanged.
    pub fn error(&self, error: Error) -> Error {
        match error {
            Error::Io { path, source } if path == self.temp => Error::Write {
                path: self.target.clone(),
                source,
            },
            other => other,
        }
    }

    /// Writes the whole file with `write` (through a buffer), then commits it.
    pub fn write_with(
        self,
        write: impl FnOnce(&mut BufWriter<File>) -> io::Result<()>,
    ) -> Result<()> {
        let mut out = self.open()?;
        write(&mut out).map_err(|source| self.write_error(source))?;
        self.finish(out)
    }

    /// The temporary file, opened for writing through a buffer, for writes
    /// that come piece by piece; [`finish`](Self::finish) ends them.
    pub fn open(&self) -> Result<BufWriter<File>> {
        let file = OpenOptions::new()
            .write(true)
            .truncate(true)
            .open(&self.temp)
            .map_err(|source| self.write_error(source))?;
        Ok(BufWriter::with_capacity(BUFFER_BYTES, file))
    }

    /// Flushes `out` (from [`open`](Self::open)) and commits the file.
    pub fn finish(self, mut out: BufWriter<File>) -> Result<()> {
        out.flush().map_err(|source| self.write_error(source))?;
        drop(out);
        self.commit()
    }

    /// Syncs the temporary file (written through [`temp_path`](Self::temp_path))
    /// and renames it over the target.
    pub fn commit(mut self) -> Result<()> {
        if !self.direct {
            File::open(&self.temp)
                .and_then(|f| f.sync_all())
                .map_err(|source| self.write_error(source))?;
            fs::rename(&self.temp, &self.target).map_err(|source| self.write_error(source))?;
            if let Some(folder) = self.target.parent().filter(|p| !p.as_os_str().is_empty()) {
                // The rename itself reaches the disk with the folder's sync;
                // a folder that cannot be synced is no error.
                let _ = File::open(folder).and_then(|f| f.sync_all());
            }
        }
        self.done = true;
        Ok(())
    }

    /// The [`Error::Write`] of the target for an I/O failure `source`.
    pub fn write_error(&self, source: io::Error) -> Error {
        Error::Write {
            path: self.target.clone(),
            source,
        }
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if !self.done {
            // Best effort: the file may already be gone.
            let _ = fs::remove_file(&self.temp);
        }
    }
}

/// Writes `path` whole or not at all ([`AtomicFile`]) with `write`.
pub fn write_atomically(
    path: &Path,
    write: impl FnOnce(&mut BufWriter<File>) -> io::Result<()>,
) -> Result<()> {
    AtomicFile::create(path)?.write_with(write)
}

/// Writes `path` whole or not at all with a writer that takes a path (such as
/// [`crate::formats::csr::write`]): `write` is given the temporary file's path.
pub fn write_via_path(path: &Path, write: impl FnOnce(&Path) -> Result<()>) -> Result<()> {
    let file = AtomicFile::create(path)?;
    write(file.temp_path()).map_err(|e| file.error(e))?;
    file.commit()
}

/// Checks that `path` can be written (its folder exists and takes new files),
/// leaving nothing behind: an [`Error::Write`] otherwise.
pub fn check_writable(path: &Path) -> Result<()> {
    AtomicFile::create(path).map(drop)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("sssp-atomic-{name}-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn entries(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_failed_write_keeps_the_old_file_and_leaves_no_temporary() {
        let dir = scratch("failed");
        let target = dir.join("out.txt");
        fs::write(&target, "old").unwrap();
        let result = write_atomically(&target, |out| {
            out.write_all(b"partial")?;
            Err(io::Error::other("disk full"))
        });
        assert!(matches!(result, Err(Error::Write { ref path, .. }) if *path == target));
        assert_eq!(fs::read_to_string(&target).unwrap(), "old");
        assert_eq!(entries(&dir), ["out.txt"]);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_complete_write_replaces_the_file_and_an_uncommitted_one_is_removed() {
        let dir = scratch("complete");
        let target = dir.join("out.txt");
        fs::write(&target, "old").unwrap();
        write_atomically(&target, |out| out.write_all(b"new")).unwrap();
        assert_eq!(fs::read_to_string(&target).unwrap(), "new");
        let file = AtomicFile::create(&target).unwrap();
        assert!(file.temp_path().exists());
        assert_eq!(entries(&dir).len(), 2);
        drop(file);
        assert_eq!(entries(&dir), ["out.txt"]);
        assert!(check_writable(&target.join("below-a-file")).is_err());
        fs::remove_dir_all(&dir).unwrap();
    }
}
