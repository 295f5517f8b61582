//! Names the commit kibitz is built from, for `kibitz --version`: the
//! environment variable `KIBITZ_COMMIT` for the compiler, from
//! `git rev-parse --short HEAD`, or from `KIBITZ_COMMIT` itself where a
//! packager sets it. Without git (a source archive) it is `unknown`; the
//! build never fails for it.

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=KIBITZ_COMMIT");
    let commit = match std::env::var("KIBITZ_COMMIT") {
        Ok(given) if !given.trim().is_empty() => given.trim().to_string(),
        _ => {
            watch_head();
            git(&["rev-parse", "--short", "HEAD"]).unwrap_or_else(|| "unknown".into())
        }
    };
    println!("cargo:rustc-env=KIBITZ_COMMIT={commit}");
}

/// What git prints for `args` in the package's folder, or `None` when
/// there is no git, no repository, or it fails.
fn git(args: &[&str]) -> Option<String> {
    let dir = std::env::var_os("CARGO_MANIFEST_DIR")?;
    let output = Command::new("git")
        .args(args)
        .current_dir(dir)
        .output()
        .ok()?;
    if !output.status.success() {
        return None;
    }
    let text = String::from_utf8(output.stdout).ok()?;
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_string())
}

/// Build again when HEAD moves: the HEAD file (a worktree has its own) and
/// the branch it names, loose or packed. Only files that exist are named:
/// cargo reruns the script every build for a missing one.
fn watch_head() {
    let Some(git_dir) = git(&["rev-parse", "--git-dir"]).map(PathBuf::from) else {
        return;
    };
    let common = git(&["rev-parse", "--git-common-dir"]).map_or(git_dir.clone(), PathBuf::from);
    let root = std::env::var_os("CARGO_MANIFEST_DIR").map_or(PathBuf::new(), PathBuf::from);
    let absolute = |p: &Path| {
        if p.is_absolute() {
            p.to_path_buf()
        } else {
            root.join(p)
        }
    };
    let mut watched = vec![
        absolute(&git_dir).join("HEAD"),
        absolute(&common).join("packed-refs"),
    ];
    if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
        watched.push(absolute(&common).join(branch));
    }
    for path in watched.iter().filter(|p| p.exists()) {
        println!("cargo:rerun-if-changed={}", path.display());
    }
}
