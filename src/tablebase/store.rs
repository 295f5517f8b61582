//! Tables on disk: `<cache dir>/tablebases/<signature>.ktb`.
//!
//! Format, version 1: the bytes `KIBITZTB`, the format version (u32 LE), the
//! signature's length (u8) and text, the number of entries (u64 LE), an
//! FNV-1a 64 checksum of the entries (u64 LE), then one byte per entry (see
//! `retro::encode`). A file that is short, of another version, for another
//! signature or with a wrong checksum is refused, and the caller rebuilds it.

use std::path::{Path, PathBuf};

use thiserror::Error;

use super::material::Material;
use super::retro::{Layout, Table};

const MAGIC: &[u8; 8] = b"KIBITZTB";
pub const VERSION: u32 = 1;

#[derive(Debug, Error)]
pub enum StoreError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: {why}")]
    Corrupt { path: PathBuf, why: String },
}

pub fn path(dir: &Path, material: &Material) -> PathBuf {
    dir.join(format!("{material}.ktb"))
}

fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

pub fn write(dir: &Path, table: &Table) -> Result<PathBuf, StoreError> {
    let path = path(dir, &table.layout.material);
    let name = table.layout.material.to_string();
    let mut bytes = Vec::with_capacity(table.values.len() + 64);
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&VERSION.to_le_bytes());
    bytes.push(name.len() as u8);
    bytes.extend_from_slice(name.as_bytes());
    bytes.extend_from_slice(&(table.values.len() as u64).to_le_bytes());
    bytes.extend_from_slice(&fnv1a(&table.values).to_le_bytes());
    bytes.extend_from_slice(&table.values);
    crate::fsutil::write_atomic(&path, bytes).map_err(|source| StoreError::Io {
        path: path.clone(),
        source,
    })?;
    Ok(path)
}

/// The longest header: magic, version, name length, a name of up to 255
/// bytes, entry count and checksum.
const MAX_HEADER: u64 = 8 + 4 + 1 + 255 + 8 + 8;

/// The header's promises: where the entries start and their checksum.
struct Header {
    entries_at: u64,
    checksum: u64,
    layout: Layout,
}

/// Open `material`'s file and check its header against the signature, the
/// format and the file's length (without reading the entries).
fn open(dir: &Path, material: &Material) -> Result<(std::fs::File, Header), StoreError> {
    use std::io::Read;
    let path = path(dir, material);
    let io = |source| StoreError::Io {
        path: path.clone(),
        source,
    };
    let file = std::fs::File::open(&path).map_err(io)?;
    let mut bytes = Vec::new();
    (&file)
        .take(MAX_HEADER)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    let corrupt = |why: &str| StoreError::Corrupt {
        path: path.clone(),
        why: why.to_string(),
    };
    let take = |from: usize, len: usize| {
        bytes
            .get(from..from + len)
            .ok_or_else(|| corrupt("file too short"))
    };
    if take(0, 8)? != MAGIC {
        return Err(corrupt("not a kibitz table"));
    }
    let version = u32::from_le_bytes(take(8, 4)?.try_into().map_err(|_| corrupt("version"))?);
    if version != VERSION {
        return Err(corrupt(&format!(
            "format version {version}, this kibitz reads {VERSION}"
        )));
    }
    let name_len = usize::from(take(12, 1)?[0]);
    let name = take(13, name_len)?;
    if name != material.to_string().as_bytes() {
        return Err(corrupt("made for another signature"));
    }
    let at = 13 + name_len;
    let count = u64::from_le_bytes(take(at, 8)?.try_into().map_err(|_| corrupt("size"))?);
    let checksum = u64::from_le_bytes(
        take(at + 8, 8)?
            .try_into()
            .map_err(|_| corrupt("checksum"))?,
    );
    let layout = Layout::new(material);
    if count != layout.size as u64 {
        return Err(corrupt("wrong number of entries"));
    }
    let entries_at = (at + 16) as u64;
    let length = file.metadata().map_err(io)?.len();
    if length < entries_at + count {
        return Err(corrupt("file too short"));
    }
    if length > entries_at + count {
        return Err(corrupt("trailing bytes"));
    }
    Ok((
        file,
        Header {
            entries_at,
            checksum,
            layout,
        },
    ))
}

/// Is `material`'s file there and sound as far as its header and length
/// tell? Cheap: the entries are not read (nor their checksum checked).
pub fn check(dir: &Path, material: &Material) -> Result<(), StoreError> {
    open(dir, material).map(|_| ())
}

/// Read `material`'s table, checksum and all.
pub fn read(dir: &Path, material: &Material) -> Result<Table, StoreError> {
    use std::io::{Read, Seek};
    let (mut file, header) = open(dir, material)?;
    let path = path(dir, material);
    let mut values = vec![0u8; header.layout.size];
    file.seek(std::io::SeekFrom::Start(header.entries_at))
        .and_then(|_| file.read_exact(&mut values))
        .map_err(|source| StoreError::Io {
            path: path.clone(),
            source,
        })?;
    if fnv1a(&values) != header.checksum {
        return Err(StoreError::Corrupt {
            path,
            why: "checksum mismatch".into(),
        });
    }
    Ok(Table {
        layout: header.layout,
        values,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tablebase::Builtin;

    #[test]
    fn tables_round_trip_and_damage_is_caught() {
        let dir = std::env::temp_dir().join(format!("kibitz-tb-store-{}", std::process::id()));
        let material: Material = "KRvK".parse().expect("signature");
        let mut builtin = Builtin::new();
        let table = builtin
            .generate(&material, &mut |_| std::ops::ControlFlow::Continue(()))
            .expect("generates")
            .clone();
        let path = write(&dir, &table).expect("writes");
        let back = read(&dir, &material).expect("reads");
        assert_eq!(back.values, table.values);
        // One flipped byte in the entries: the checksum says so.
        let mut bytes = std::fs::read(&path).expect("file");
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        std::fs::write(&path, &bytes).expect("write");
        let err = read(&dir, &material).expect_err("corrupt");
        assert!(err.to_string().contains("checksum"), "{err}");
        // Truncated, another version, another signature.
        std::fs::write(&path, &bytes[..20]).expect("write");
        assert!(read(&dir, &material).is_err());
        let mut old = std::fs::read(write(&dir, &table).expect("writes")).expect("file");
        old[8] = 9;
        std::fs::write(&path, &old).expect("write");
        assert!(
            read(&dir, &material)
                .expect_err("old")
                .to_string()
                .contains("version")
        );
        std::fs::remove_dir_all(&dir).expect("clean up");
    }
}
