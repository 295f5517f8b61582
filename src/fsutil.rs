//! Reading and writing the user's files safely.
//!
//! Reads are bounded: only a regular file is opened (after following
//! symlinks), never a directory, a FIFO or a device such as `/dev/zero`
//! that would block or never end, and whole-file reads stop at a size cap.
//! Writes go to a temporary file beside the target, are flushed to the disk
//! and renamed over it, so a crash, an interrupt or a full disk mid-write
//! never leaves half a file; the target is the file a symlink points to,
//! keeps its permissions, and is never a FIFO or device replaced by a plain
//! file. Every file kibitz writes goes through here: [`write_atomic`]
//! (kibitz's own files), [`write_user_file`] (a file the user named, checked
//! first by [`check_output`] / [`check_user_target`] before long work: not an
//! input, and writable), [`write_new`] (never replaces). A [`Fingerprint`]
//! tells whether another program changed a file since kibitz read or wrote
//! it; [`try_lock_file`] says whether a board still runs.

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

use thiserror::Error;

const MIB: u64 = 1024 * 1024;

/// The largest Polyglot book read (32 million entries).
pub const MAX_BOOK_BYTES: u64 = 512 * MIB;
/// The largest `config.toml` read.
pub const MAX_CONFIG_BYTES: u64 = MIB;
/// The largest `autosave.json` read (a game of a million moves fits).
pub const MAX_AUTOSAVE_BYTES: u64 = 16 * MIB;
/// The largest small state file (the recent-files list) read.
pub const MAX_STATE_BYTES: u64 = MIB;
/// The largest PGN file read whole (to write one of its games back); PGN
/// files read game by game have no cap.
pub const MAX_PGN_BYTES: u64 = 2048 * MIB;

/// Why a file could not be read.
#[derive(Debug, Error)]
pub enum Unreadable {
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error("it is {0}, not a regular file")]
    NotRegular(&'static str),
    #[error(
        "it holds more than the {0} bytes its size says (a pseudo-file, or a file being written)"
    )]
    MoreThanItsSize(u64),
    #[error("it is {size} bytes, more than the {} MiB kibitz reads for {what}", limit / MIB)]
    TooLarge {
        size: u64,
        limit: u64,
        what: &'static str,
    },
}

/// A file that could not be read, and why.
#[derive(Debug, Error)]
#[error("cannot read {}: {why}", path.display())]
pub struct ReadError {
    pub path: PathBuf,
    pub why: Unreadable,
}

impl ReadError {
    /// The file is not there (a missing config or autosave is no error).
    pub fn is_not_found(&self) -> bool {
        matches!(&self.why, Unreadable::Io(e) if e.kind() == std::io::ErrorKind::NotFound)
    }
}

/// What a file that is not a regular one is, for messages.
fn kind_of(file_type: std::fs::FileType) -> Option<&'static str> {
    if file_type.is_file() {
        return None;
    }
    if file_type.is_dir() {
        return Some("a directory");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return Some("a FIFO (named pipe)");
        }
        if file_type.is_char_device() {
            return Some("a character device");
        }
        if file_type.is_block_device() {
            return Some("a block device");
        }
        if file_type.is_socket() {
            return Some("a socket");
        }
    }
    Some("not a file")
}

/// Open `path` for reading if it is a regular file (symlinks followed).
/// The type is checked before opening, so a FIFO is never opened (which
/// would block until a writer came), and again on the open file.
pub fn open_regular(path: &Path) -> Result<File, ReadError> {
    let fail = |why: Unreadable| ReadError {
        path: path.to_path_buf(),
        why,
    };
    let check = |metadata: std::fs::Metadata| match kind_of(metadata.file_type()) {
        Some(kind) => Err(fail(Unreadable::NotRegular(kind))),
        None => Ok(()),
    };
    check(std::fs::metadata(path).map_err(|e| fail(e.into()))?)?;
    let file = File::open(path).map_err(|e| fail(e.into()))?;
    check(file.metadata().map_err(|e| fail(e.into()))?)?;
    Ok(file)
}

/// Read all of a regular file of at most `limit` bytes; `what` names the
/// kind of file in the message when it is larger ("a book").
pub fn read_capped(path: &Path, limit: u64, what: &'static str) -> Result<Vec<u8>, ReadError> {
    let fail = |why: Unreadable| ReadError {
        path: path.to_path_buf(),
        why,
    };
    let file = open_regular(path)?;
    let size = file.metadata().map_err(|e| fail(e.into()))?.len();
    let too_large = |size| fail(Unreadable::TooLarge { size, limit, what });
    if size > limit {
        return Err(too_large(size));
    }
    // Never more than the file says it holds: a pseudo-file such as
    // `/proc/self/pagemap` says 0 bytes and never ends, and a file that grows
    // while it is read would be read half old, half new.
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    file.take(size.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| fail(e.into()))?;
    if bytes.len() as u64 > size {
        return Err(fail(Unreadable::MoreThanItsSize(size)));
    }
    Ok(bytes)
}

/// [`read_capped`] for UTF-8 text.
pub fn read_text_capped(path: &Path, limit: u64, what: &'static str) -> Result<String, ReadError> {
    let bytes = read_capped(path, limit, what)?;
    String::from_utf8(bytes).map_err(|_| ReadError {
        path: path.to_path_buf(),
        why: Unreadable::Io(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "it is not UTF-8 text",
        )),
    })
}

/// Write `contents` to `path` safely: to a temporary file beside it, then
/// rename over the old one, so a crash mid-write never leaves half a file.
/// Missing parent folders are created (for kibitz's own folders). A symlink
/// is followed and the file it points to replaced (the link stays); an
/// existing file keeps its permissions. Anything but a regular file (a
/// FIFO, a device, a socket, a folder) is refused, never replaced.
pub fn write_atomic(path: &Path, contents: impl AsRef<[u8]>) -> std::io::Result<()> {
    if let Some(parent) = path.parent()
        && !parent.as_os_str().is_empty()
    {
        std::fs::create_dir_all(parent)?;
    }
    match target_of(path)? {
        Target::Regular(real, old) => write_beside(&real, contents.as_ref(), Some(&old)),
        Target::Missing(real) => write_beside(&real, contents.as_ref(), None),
        Target::Stream(kind) | Target::Other(kind) => Err(std::io::Error::other(format!(
            "it is {kind}, not a regular file"
        ))),
    }
}

/// Write a file the user named (`--out FILE`): as [`write_atomic`], but a
/// missing folder is refused rather than created, and a FIFO or a character
/// device (`/dev/stdout`, `/dev/null`, a named pipe) is written through, as
/// the user means by naming it. The message names the path and the reason.
pub fn write_user_file(path: &Path, contents: impl AsRef<[u8]>) -> Result<(), String> {
    check_user_target(path)?;
    let fail = |e: std::io::Error| format!("cannot write {}: {e}", path.display());
    match target_of(path).map_err(fail)? {
        Target::Regular(real, old) => {
            write_beside(&real, contents.as_ref(), Some(&old)).map_err(fail)
        }
        Target::Missing(real) => write_beside(&real, contents.as_ref(), None).map_err(fail),
        Target::Stream(_) => {
            use std::io::Write;
            // Opened without create or truncate: the node stays what it is.
            let mut file = std::fs::OpenOptions::new()
                .write(true)
                .open(path)
                .map_err(fail)?;
            file.write_all(contents.as_ref()).map_err(fail)?;
            file.flush().map_err(fail)
        }
        Target::Other(kind) => Err(format!(
            "cannot write {}: it is {kind}, not a regular file",
            path.display()
        )),
    }
}

/// Whether [`write_user_file`] may write `path`, checked before long work
/// whose result goes there: its folder exists, it is not a directory, a
/// socket or a block device, a file can be made beside it (so a read-only
/// folder, `/proc` or a dangling symlink into a missing folder fail now, not
/// after the work), and a character device takes a write (`/dev/full` does
/// not; `/dev/null` and a terminal do). A FIFO is not opened: that would
/// wait for a reader.
pub fn check_user_target(path: &Path) -> Result<(), String> {
    let fail = |why: String| format!("cannot write {}: {why}", path.display());
    let parent = folder_of(path);
    if !parent.is_dir() {
        let why = if parent.exists() {
            "it is not a folder"
        } else {
            "no such folder"
        };
        return Err(fail(format!("{}: {why}", parent.display())));
    }
    if path.is_dir() {
        return Err(fail("it is a directory".into()));
    }
    match target_of(path) {
        Ok(Target::Other(kind)) => Err(fail(format!("it is {kind}, not a regular file"))),
        Ok(Target::Regular(real, old)) => {
            may_replace(&old).map_err(|e| fail(e.to_string()))?;
            probe_beside(&real).map_err(fail)
        }
        Ok(Target::Missing(real)) => probe_beside(&real).map_err(fail),
        Ok(Target::Stream(_)) if is_fifo(path) => Ok(()),
        Ok(Target::Stream(_)) => {
            use std::io::Write;
            // An empty write: a device that refuses every write (`/dev/full`)
            // says so now.
            let mut device = std::fs::OpenOptions::new()
                .write(true)
                .open(path)
                .map_err(|e| fail(e.to_string()))?;
            // Nothing to count: only whether the device refuses.
            #[allow(clippy::unused_io_amount)]
            match device.write(&[]) {
                Ok(_) => Ok(()),
                Err(e) => Err(fail(e.to_string())),
            }
        }
        Err(e) => Err(fail(e.to_string())),
    }
}

/// [`check_user_target`] for a command that reads `inputs` and writes
/// `path`: the output may not be one of the inputs (the same file through
/// another name, a symlink or a hard link), which the write would replace
/// while it is read, or after a stop with only part of it.
pub fn check_output(path: &Path, inputs: &[&Path]) -> Result<(), String> {
    if let Some(input) = inputs.iter().find(|input| same_file(path, input)) {
        let also = if path == *input {
            String::new()
        } else {
            format!(" {}", input.display())
        };
        return Err(format!(
            "cannot write {}: it is the input file{also}, which writing would replace; name another file",
            path.display()
        ));
    }
    check_user_target(path)
}

/// [`check_user_target`] for a file named on the board (`:save PATH`,
/// `:export PATH`): a FIFO is refused too, since the board would wait for
/// a reader.
pub fn check_board_target(path: &Path) -> Result<(), String> {
    if is_fifo(path) {
        return Err(format!(
            "cannot write {}: it is a FIFO (named pipe), which the board would wait on",
            path.display()
        ));
    }
    check_user_target(path)
}

/// Whether a write to `path` would replace a file that is there (a regular
/// file, symlinks followed), rather than make a new one or write into a
/// device.
pub fn replaces_a_file(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_file())
}

/// Whether `a` and `b` are the same file: the same device and inode, after
/// following symlinks (so also two hard links). False when either is
/// missing.
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        #[cfg(unix)]
        (Ok(a), Ok(b)) => {
            use std::os::unix::fs::MetadataExt;
            a.dev() == b.dev() && a.ino() == b.ino()
        }
        #[cfg(not(unix))]
        (Ok(_), Ok(_)) => match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
            (Ok(a), Ok(b)) => a == b,
            _ => false,
        },
        _ => false,
    }
}

/// The folder `path` is in ("." for a bare name).
fn folder_of(path: &Path) -> &Path {
    path.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

fn is_fifo(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        std::fs::metadata(path).is_ok_and(|m| m.file_type().is_fifo())
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        false
    }
}

/// Make and remove a file beside `real`, as [`write_beside`] will: the
/// reason when that cannot be done.
fn probe_beside(real: &Path) -> Result<(), String> {
    let folder = folder_of(real);
    if !folder.is_dir() {
        return Err(format!("{}: no such folder", folder.display()));
    }
    let probe = temp_beside(real);
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
    {
        Ok(file) => {
            drop(file);
            let _ = std::fs::remove_file(&probe);
            Ok(())
        }
        Err(e) => Err(format!("cannot make a file in {}: {e}", folder.display())),
    }
}

/// What a write to a path would land on.
enum Target {
    /// A regular file: its real path (symlinks followed) and what it is
    /// (permissions, owner, links) as the write will find it.
    Regular(PathBuf, std::fs::Metadata),
    /// Nothing yet: the path to create (a dangling symlink's target).
    Missing(PathBuf),
    /// A FIFO or a character device: written through, never replaced.
    Stream(&'static str),
    /// A folder, a socket, a block device.
    Other(&'static str),
}

/// Symlinks followed at most this deep when the file is missing (as the
/// kernel's own limit).
const MAX_SYMLINKS: usize = 40;

fn target_of(path: &Path) -> std::io::Result<Target> {
    match std::fs::metadata(path) {
        Ok(metadata) => {
            let file_type = metadata.file_type();
            match kind_of(file_type) {
                None => Ok(Target::Regular(std::fs::canonicalize(path)?, metadata)),
                Some(kind) if is_stream(file_type) => Ok(Target::Stream(kind)),
                Some(kind) => Ok(Target::Other(kind)),
            }
        }
        // Missing, or below a file that is no folder.
        Err(e)
            if matches!(
                e.kind(),
                std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
            ) =>
        {
            // A dangling symlink names the file to create, as a shell's
            // `>` would.
            let mut at = path.to_path_buf();
            for _ in 0..MAX_SYMLINKS {
                match std::fs::symlink_metadata(&at) {
                    Ok(m) if m.file_type().is_symlink() => {
                        let link = std::fs::read_link(&at)?;
                        at = match at.parent() {
                            Some(parent) => parent.join(link),
                            None => link,
                        };
                    }
                    _ => return Ok(Target::Missing(at)),
                }
            }
            Err(std::io::Error::other("too many levels of symbolic links"))
        }
        Err(e) => Err(e),
    }
}

/// A FIFO or a character device: a stream to write into, not a file to
/// replace.
fn is_stream(file_type: std::fs::FileType) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        file_type.is_fifo() || file_type.is_char_device()
    }
    #[cfg(not(unix))]
    {
        let _ = file_type;
        false
    }
}

/// A name of its own beside `path` for one write, so two writers of one
/// file never share a temporary file.
fn temp_beside(path: &Path) -> PathBuf {
    static WRITES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = WRITES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let mut temp = path.as_os_str().to_owned();
    temp.push(format!(".{}.{n}.tmp", std::process::id()));
    PathBuf::from(temp)
}

/// The one way kibitz replaces or makes a regular file: the whole content
/// goes to a new temporary file beside it, is flushed to the disk, and only
/// then is renamed over the target (atomic), so an interrupt, a full disk or
/// a crash leaves the old file whole, never a partial or empty one. `old`:
/// the file replaced, whose permissions and owner the new one keeps.
fn write_beside(
    path: &Path,
    contents: &[u8],
    old: Option<&std::fs::Metadata>,
) -> std::io::Result<()> {
    use std::io::Write;
    if let Some(old) = old {
        may_replace(old)?;
    }
    let temp = temp_beside(path);
    let written = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&temp)
        .and_then(|mut file| {
            file.write_all(contents)?;
            if let Some(old) = old {
                file.set_permissions(old.permissions())?;
            }
            #[cfg(unix)]
            if let Some(old) = old {
                // The file stays its owner's (a write by root would
                // otherwise hand it to root). Only root may give a file
                // away, and anyone else writes their own files: a refusal
                // leaves the new file theirs, as a shell's redirect would.
                use std::os::unix::fs::MetadataExt;
                let _ = std::os::unix::fs::fchown(&file, Some(old.uid()), Some(old.gid()));
            }
            file.sync_all()
        });
    if let Err(e) = written {
        let _ = std::fs::remove_file(&temp);
        return Err(e);
    }
    std::fs::rename(&temp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&temp);
    })
}

/// Whether a file may be replaced by a new one under its name: not when
/// its owner made it read-only (a rename would get round that, since only
/// the folder's permissions count), nor when it has other names (hard
/// links), which would keep the old content while this name got the new.
fn may_replace(metadata: &std::fs::Metadata) -> std::io::Result<()> {
    if metadata.permissions().readonly() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::PermissionDenied,
            "it is read-only",
        ));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if metadata.nlink() > 1 {
            return Err(std::io::Error::other(format!(
                "it has {} other names (hard links), which would keep the old content",
                metadata.nlink() - 1
            )));
        }
    }
    Ok(())
}

/// Write `contents` to a new file at `path`, never replacing one that is
/// there: written whole beside it first, then linked in under its name
/// only if that name is still free (two saves in one second never meet).
/// Missing folders are made (kibitz's own folders). `Ok(false)`: the name
/// was taken.
pub fn write_new(path: &Path, contents: impl AsRef<[u8]>) -> std::io::Result<bool> {
    if let Some(parent) = path.parent()
        && !parent.as_os_str().is_empty()
    {
        std::fs::create_dir_all(parent)?;
    }
    if std::fs::symlink_metadata(path).is_ok() {
        return Ok(false);
    }
    let temp = temp_beside(path);
    write_beside(&temp, contents.as_ref(), None)?;
    // A hard link fails when the name is taken, where a rename would
    // replace it.
    let linked = match std::fs::hard_link(&temp, path) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(false),
        // A file system without hard links: a rename, the name checked
        // just before.
        Err(_) if std::fs::symlink_metadata(path).is_err() => {
            return std::fs::rename(&temp, path)
                .map(|()| true)
                .inspect_err(|_| {
                    let _ = std::fs::remove_file(&temp);
                });
        }
        Err(_) => Ok(false),
    };
    let _ = std::fs::remove_file(&temp);
    linked
}

/// What a file was when kibitz last read or wrote it, to tell whether
/// another program has changed it since: its size, its modification time
/// and, when kibitz wrote it, a hash of its content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fingerprint {
    len: u64,
    modified: Option<std::time::SystemTime>,
    hash: Option<u64>,
}

impl Fingerprint {
    /// The file as it is now (size and time; `None` when it is not there).
    pub fn of_file(path: &Path) -> Option<Fingerprint> {
        let metadata = std::fs::metadata(path).ok()?;
        Some(Fingerprint {
            len: metadata.len(),
            modified: metadata.modified().ok(),
            hash: None,
        })
    }

    /// The file just written with `contents`.
    pub fn of_written(path: &Path, contents: &[u8]) -> Option<Fingerprint> {
        Some(Fingerprint {
            hash: Some(hash_of(contents)),
            ..Fingerprint::of_file(path)?
        })
    }

    /// Whether `path`, whose content is now `contents`, is not the file
    /// this was taken of. The content decides where its hash is known (a
    /// file touched but not changed is the same); else size and time do.
    pub fn changed(&self, path: &Path, contents: &[u8]) -> bool {
        if contents.len() as u64 != self.len {
            return true;
        }
        match self.hash {
            Some(hash) => hash_of(contents) != hash,
            None => Fingerprint::of_file(path).is_none_or(|now| now.modified != self.modified),
        }
    }
}

fn hash_of(contents: &[u8]) -> u64 {
    use std::hash::Hasher;
    // The same keys for the whole process: fingerprints are never kept
    // longer than that.
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    hasher.write(contents);
    hasher.finish()
}

/// An exclusive lock on the file at `path` (made empty if missing, never
/// written): `Ok(Some(file))` while this process holds it (until the file
/// is dropped or the process ends, however it ends), `Ok(None)` when
/// another holder has it, or when the file at `path` was removed or
/// replaced while it was being locked.
pub fn try_lock_file(path: &Path) -> std::io::Result<Option<File>> {
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)?;
    match file.try_lock() {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => return Ok(None),
        Err(std::fs::TryLockError::Error(e)) => return Err(e),
    }
    // Still the file of that name: another process may have removed a
    // stale one between the open and the lock.
    #[cfg(unix)]
    let same = {
        use std::os::unix::fs::MetadataExt;
        match (file.metadata(), std::fs::metadata(path)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    };
    #[cfg(not(unix))]
    let same = path.exists();
    Ok(same.then_some(file))
}

/// Check that files can be written in `dir` (created if missing): by
/// writing and removing a small file there.
pub fn check_writable_dir(dir: &Path) -> Result<(), String> {
    let fail = |e: std::io::Error| format!("cannot write to {}: {e}", dir.display());
    std::fs::create_dir_all(dir).map_err(fail)?;
    let probe = dir.join(format!(".kibitz-write-test.{}", std::process::id()));
    std::fs::write(&probe, b"").map_err(fail)?;
    std::fs::remove_file(&probe).map_err(fail)
}

/// Keep a state file that cannot be read: move it beside itself as
/// `STEM.damaged-SECONDS.json` (`-N` added where that name is taken), never
/// over an earlier kept one, and say where it went.
pub fn keep_damaged(file: &Path, stem: &str) -> std::io::Result<std::path::PathBuf> {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let dir = file.parent().unwrap_or(Path::new("."));
    for n in 0..100 {
        let name = match n {
            0 => format!("{stem}.damaged-{seconds}.json"),
            n => format!("{stem}.damaged-{seconds}-{n}.json"),
        };
        let target = dir.join(name);
        if std::fs::symlink_metadata(&target).is_err() {
            std::fs::rename(file, &target)?;
            return Ok(target);
        }
    }
    Err(std::io::Error::other(
        "too many damaged copies kept already",
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("kibitz-fsutil-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn atomic_write_replaces_the_file() {
        let dir = temp_dir("atomic");
        let path = dir.join("a").join("file.txt");
        write_atomic(&path, "one").unwrap();
        write_atomic(&path, "two").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "two");
        let names: Vec<_> = std::fs::read_dir(dir.join("a"))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["file.txt"], "no temporary file left behind");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn only_regular_files_within_the_cap_are_read() {
        let dir = temp_dir("read");
        let file = dir.join("small.txt");
        std::fs::write(&file, "hello").unwrap();
        assert_eq!(read_capped(&file, 5, "a test").unwrap(), b"hello");
        let big = read_capped(&file, 4, "a test").unwrap_err();
        assert!(
            matches!(big.why, Unreadable::TooLarge { size: 5, .. }),
            "{big}"
        );
        let folder = read_capped(&dir, 100, "a test").unwrap_err();
        assert_eq!(
            folder.to_string(),
            format!(
                "cannot read {}: it is a directory, not a regular file",
                dir.display()
            )
        );
        let device = open_regular(Path::new("/dev/zero")).unwrap_err();
        assert!(
            device.to_string().contains("a character device"),
            "{device}"
        );
        assert!(
            open_regular(&dir.join("missing"))
                .unwrap_err()
                .is_not_found()
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_write_follows_symlinks_keeps_permissions_and_spares_other_nodes() {
        use std::os::unix::fs::{FileTypeExt, PermissionsExt};
        let dir = temp_dir("targets");
        let real = dir.join("real.pgn");
        std::fs::write(&real, "old").unwrap();
        std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o600)).unwrap();
        let link = dir.join("link.pgn");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        write_atomic(&link, "new").unwrap();
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(std::fs::read_to_string(&real).unwrap(), "new");
        let mode = std::fs::metadata(&real).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        // A dangling symlink: the file it names is made.
        let dangling = dir.join("dangling.pgn");
        std::os::unix::fs::symlink("made.pgn", &dangling).unwrap();
        write_atomic(&dangling, "made").unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.join("made.pgn")).unwrap(),
            "made"
        );
        // A FIFO is refused (the board would wait for a reader), not replaced.
        let fifo = dir.join("fifo");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let why = write_atomic(&fifo, "x").unwrap_err();
        assert!(why.to_string().contains("FIFO"), "{why}");
        assert!(
            std::fs::symlink_metadata(&fifo)
                .unwrap()
                .file_type()
                .is_fifo()
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_read_only_or_hard_linked_file_is_not_replaced() {
        use std::os::unix::fs::PermissionsExt;
        let dir = temp_dir("readonly");
        let file = dir.join("kept.pgn");
        std::fs::write(&file, "old").unwrap();
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o444)).unwrap();
        let why = write_user_file(&file, "new").unwrap_err();
        assert!(why.contains("read-only"), "{why}");
        assert!(write_atomic(&file, "new").is_err());
        assert!(check_user_target(&file).unwrap_err().contains("read-only"));
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "old");
        let linked = dir.join("linked.pgn");
        std::fs::write(&linked, "old").unwrap();
        std::fs::hard_link(&linked, dir.join("other-name.pgn")).unwrap();
        let why = write_user_file(&linked, "new").unwrap_err();
        assert!(why.contains("hard links"), "{why}");
        assert_eq!(
            std::fs::read_to_string(dir.join("other-name.pgn")).unwrap(),
            "old"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_user_file_needs_its_folder() {
        let dir = temp_dir("user");
        let missing = dir.join("no/such/book.bin");
        let why = write_user_file(&missing, "x").unwrap_err();
        assert!(why.contains("no such folder"), "{why}");
        assert!(!dir.join("no").exists(), "no folder was created");
        write_user_file(&dir.join("book.bin"), "x").unwrap();
        assert!(
            write_user_file(&dir, "x")
                .unwrap_err()
                .contains("is a directory")
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
