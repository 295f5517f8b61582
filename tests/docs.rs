//! README.md and docs/ checked against the code, so that they cannot drift:
//! every key of the `?` help is in its mode's page, every setting in the
//! configuration page, every command in the command-line page, every link
//! leads somewhere, and the README stays a way in.

#![allow(clippy::unwrap_used)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The words of every code span of a Markdown text (`a b`, `:map links`):
/// each span whole and each of its words, split at spaces and commas.
fn code_words(text: &str) -> BTreeSet<String> {
    let mut words = BTreeSet::new();
    let mut in_block = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_block = !in_block;
            continue;
        }
        if in_block {
            continue;
        }
        let mut parts = line.split('`');
        parts.next();
        while let (Some(span), Some(_)) = (parts.next(), parts.next()) {
            words.insert(span.to_string());
            for word in span.split([' ', ',']).filter(|w| !w.is_empty()) {
                words.insert(word.to_string());
            }
        }
    }
    words
}

/// The keys and commands a help entry names: "m M #, :map" gives `m`, `M`,
/// `#`, `:map`. Placeholders (PATH, FEN, MS) and the words of a typed
/// command after its first are left out: the page names the command.
fn help_keys(entry: &str) -> Vec<String> {
    let mut keys = Vec::new();
    for part in entry.split([',', ';']) {
        let mut words = part.split(' ').filter(|w| !w.is_empty());
        let Some(first) = words.next() else { continue };
        keys.push(first.to_string());
        if !first.starts_with(':') {
            keys.extend(words.map(str::to_string));
        }
    }
    keys.retain(|k| !(k.len() > 1 && k.chars().all(|c| c.is_ascii_uppercase())));
    // A range of keys, `1-5`, is written `1`-`5` on the pages.
    keys.into_iter()
        .flat_map(|k| match k.split_once('-') {
            Some((a, b)) if a.len() == 1 && b.len() == 1 => vec![a.to_string(), b.to_string()],
            _ => vec![k],
        })
        .collect()
}

#[test]
fn every_key_of_the_help_is_in_its_page() {
    let modes: [(&str, &[(&str, &str)]); 4] = [
        ("docs/playing.md", kibitz::tui::modes::play::HELP),
        ("docs/analysis.md", kibitz::tui::modes::analyse::HELP),
        ("docs/teach.md", kibitz::tui::modes::teach::keys::HELP),
        ("docs/training.md", kibitz::tui::modes::train::HELP),
    ];
    let mut missing = Vec::new();
    for (page, help) in modes {
        let words = code_words(&read(page));
        for (keys, what) in help {
            for key in help_keys(keys) {
                if !words.contains(&key) {
                    missing.push(format!("{page}: `{key}` ({keys}: {what})"));
                }
            }
        }
    }
    assert!(
        missing.is_empty(),
        "keys of the ? help that the docs do not name:\n{}",
        missing.join("\n")
    );
}

#[test]
fn every_setting_is_in_the_configuration_page() {
    let page = read("docs/configuration.md");
    let settings: Vec<&str> = kibitz::config::EXAMPLE
        .lines()
        .map(|l| l.trim_start_matches(['#', ' ']))
        .filter_map(|l| l.split_once(" = ").map(|(key, _)| key.trim()))
        .filter(|key| key.chars().all(|c| c.is_ascii_lowercase() || c == '_'))
        .collect();
    assert!(settings.len() > 10, "settings read: {settings:?}");
    let missing: Vec<_> = settings
        .iter()
        .filter(|key| {
            !page.lines().any(|l| {
                l.trim_start_matches(['#', ' '])
                    .starts_with(&format!("{key} ="))
            })
        })
        .collect();
    assert!(
        missing.is_empty(),
        "settings of config.toml that docs/configuration.md does not list: {missing:?}"
    );
}

#[test]
fn every_command_is_in_the_command_line_page() {
    let out = Command::new(env!("CARGO_BIN_EXE_kibitz"))
        .arg("--help")
        .output()
        .unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    let commands: Vec<&str> = help
        .split("Commands:")
        .nth(1)
        .expect("kibitz --help lists its commands")
        .lines()
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .collect();
    assert!(commands.len() > 10, "commands read: {commands:?}");
    let page = read("docs/cli.md");
    let missing: Vec<_> = commands
        .iter()
        .filter(|c| !page.contains(&format!("kibitz {c}")))
        .collect();
    assert!(
        missing.is_empty(),
        "commands of `kibitz --help` that docs/cli.md does not show: {missing:?}"
    );
}

/// GitHub's anchor for a heading: lower case, spaces to hyphens, other
/// punctuation dropped.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

fn anchors(text: &str) -> BTreeSet<String> {
    text.lines()
        .filter(|l| l.starts_with('#') && l.contains("# "))
        .map(|l| anchor(l.trim_start_matches('#')))
        .collect()
}

/// Every relative link `[text](path#anchor)` of `file`.
fn links(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("](") {
        rest = &rest[at + 2..];
        if let Some(end) = rest.find(')') {
            let target = &rest[..end];
            if !target.starts_with("http") && !target.contains(' ') {
                found.push(target.to_string());
            }
        }
    }
    found
}

fn pages() -> Vec<PathBuf> {
    let mut pages: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    pages.sort();
    pages
}

#[test]
fn every_link_leads_to_a_file_and_a_heading() {
    let mut files: Vec<PathBuf> = vec![root().join("README.md"), root().join("CHANGELOG.md")];
    files.extend(pages());
    let mut broken = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let dir = file.parent().unwrap_or(Path::new("."));
        for link in links(&text) {
            let (path, heading) = link.split_once('#').unwrap_or((&link, ""));
            let target = if path.is_empty() {
                file.clone()
            } else {
                dir.join(path)
            };
            let ok = match std::fs::read_to_string(&target) {
                Ok(target_text) => heading.is_empty() || anchors(&target_text).contains(heading),
                Err(_) => target.is_dir(),
            };
            if !ok {
                broken.push(format!("{}: {link}", file.display()));
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn the_readme_is_a_way_in_that_links_every_page() {
    let readme = read("README.md");
    let lines = readme.lines().count();
    assert!(
        lines <= 350,
        "README.md has {lines} lines; the rest belongs in docs/"
    );
    let head: String = readme.lines().take(30).collect::<Vec<_>>().join("\n");
    for command in ["cargo run --release", "cargo test --release"] {
        assert!(
            head.contains(command),
            "README's first 30 lines lack `{command}`"
        );
    }
    let linked = links(&readme);
    for page in pages() {
        let name = format!("docs/{}", page.file_name().unwrap().to_string_lossy());
        assert!(
            linked
                .iter()
                .any(|l| l.split('#').next() == Some(name.as_str())),
            "README.md does not link {name}"
        );
    }
}

#[test]
fn the_changelog_has_the_version_cargo_builds() {
    let changelog = read("CHANGELOG.md");
    let version = env!("CARGO_PKG_VERSION");
    let versions: Vec<&str> = changelog
        .lines()
        .filter_map(|l| l.strip_prefix("## ["))
        .filter_map(|l| l.split(']').next())
        .collect();
    assert_eq!(versions.first(), Some(&"Unreleased"), "{versions:?}");
    assert_eq!(
        versions.get(1),
        Some(&version),
        "the newest release in CHANGELOG.md is not Cargo.toml's {version}: {versions:?}"
    );
}
