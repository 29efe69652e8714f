//! Imports point one way: each crate's top-level modules are listed in
//! layers, bottom first, and a module may use only modules of the layers
//! below its own (not of its own, nor above). The crate root (`lib.rs`)
//! is above every module. docs/ARCHITECTURE.md shows the same lists.
//!
//! The check reads the sources: every `crate::NAME`, `crate::{A, B}` and
//! `super::` path that reaches the crate root, outside comments, string
//! literals and `#[cfg(test)]` items (a module declared under
//! `#[cfg(test)]` and a file named `tests.rs` are test code: skipped).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

const MACROS: &[&[&str]] = &[
    // `settings_table` is no module but the settings' table, which
    // `settings` includes (and bench-harness reads through a proc macro).
    &["errors", "settings_table", "settings"],
    &["options"],
    &["parse"],
    &["validate", "expand"],
];

const RUNTIME: &[&[&str]] = &[
    &["sys", "units", "build"],
    &[
        "clock",
        "counter",
        "affinity",
        "heap",
        "signal",
        "stdio",
        "early_exit",
    ],
    &["bencher", "sampler"],
    &["hidden"],
];

const HARNESS: &[&[&str]] = &[
    &["text", "failure", "settings", "select"],
    &["json", "analysis"],
    &["instruments"],
    &["results"],
    &["console"],
    &["fs", "supervisor", "registry"],
    &["environment", "profile", "cli", "run"],
    &["audit", "document"],
    &["baseline"],
    &["history"],
    &["report"],
    &["session"],
];

#[test]
fn imports_point_down_the_declared_layers() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let mut wrong = Vec::new();
    for (name, layers) in [
        ("bench-macros", MACROS),
        ("bench-runtime", RUNTIME),
        ("bench-harness", HARNESS),
    ] {
        check_crate(&workspace.join(name).join("src"), name, layers, &mut wrong);
    }
    assert!(
        wrong.is_empty(),
        "imports against the layers (bottom first in tests/layers.rs and \
         docs/ARCHITECTURE.md; a module uses only those of lower layers):\n{}",
        wrong.join("\n")
    );
}

fn check_crate(src: &Path, name: &str, layers: &[&[&str]], wrong: &mut Vec<String>) {
    let layer_of = |module: &str| layers.iter().position(|layer| layer.contains(&module));
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.sort();
    // Code only, and the modules compiled only for tests.
    let mut test_only = BTreeSet::new();
    let mut code = Vec::new();
    for file in &files {
        let (text, test_modules) =
            without_tests(&code_only(&std::fs::read_to_string(file).unwrap()));
        let dir = module_dir(file);
        test_only.extend(test_modules.iter().map(|m| dir.join(m)));
        code.push(text);
    }
    let mut modules = BTreeSet::new();
    for (file, text) in files.iter().zip(&code) {
        let path = module_path(src, file);
        let is_test = file.file_name().unwrap() == "tests.rs"
            || test_only
                .iter()
                .any(|t| file.starts_with(t) || file.with_extension("") == *t);
        let Some(top) = path.first().cloned() else {
            continue; // the crate root may use anything
        };
        modules.insert(top.clone());
        if is_test {
            continue;
        }
        let Some(own) = layer_of(&top) else {
            wrong.push(format!("{name}: module `{top}` is in no layer of the list"));
            continue;
        };
        for (line, used) in uses(text, path.len()) {
            if used == top {
                continue;
            }
            let shown = file
                .strip_prefix(src.parent().unwrap().parent().unwrap())
                .unwrap();
            match layer_of(&used) {
                Some(layer) if layer < own => {}
                Some(layer) => wrong.push(format!(
                    "{}:{line}: `crate::{used}`: {top} (layer {own}) may not use {used} \
                     (layer {layer}): only modules of lower layers",
                    shown.display()
                )),
                None => wrong.push(format!(
                    "{}:{line}: `crate::{used}`: {top} may not use the crate root, \
                     above every module (name the module that defines it)",
                    shown.display()
                )),
            }
        }
    }
    for module in layers.iter().flat_map(|layer| layer.iter()) {
        if !modules.contains(*module) {
            wrong.push(format!("{name}: the list's `{module}` is no module"));
        }
    }
}

fn rust_files(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

/// The module path of `file` (`report/format.rs`: `report`, `format`).
fn module_path(src: &Path, file: &Path) -> Vec<String> {
    let mut path: Vec<String> = file
        .strip_prefix(src)
        .unwrap()
        .with_extension("")
        .iter()
        .map(|part| part.to_string_lossy().into_owned())
        .collect();
    if matches!(path.last().map(String::as_str), Some("mod" | "lib")) {
        path.pop();
    }
    path
}

/// Where the modules `file` declares live.
fn module_dir(file: &Path) -> PathBuf {
    let stem = file.file_stem().unwrap();
    if stem == "mod" || stem == "lib" {
        file.parent().unwrap().to_path_buf()
    } else {
        file.with_extension("")
    }
}

/// `text` with comments and the insides of string and character literals
/// blanked (line breaks kept, for line numbers).
fn code_only(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let blank = |out: &mut String, c: char| out.push(if c == '\n' { '\n' } else { ' ' });
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        // An identifier's end, but for the `b` of `br"..."`.
        let ident_at = |j: usize| chars.get(j).is_some_and(|&c| is_ident(c));
        let ident_before =
            i > 0 && ident_at(i - 1) && !(chars[i - 1] == 'b' && (i < 2 || !ident_at(i - 2)));
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            while i < chars.len() && !(chars[i] == '*' && chars.get(i + 1) == Some(&'/')) {
                blank(&mut out, chars[i]);
                i += 1;
            }
            i += 2;
        } else if c == 'r' && !ident_before && matches!(next, Some('"' | '#')) {
            let hashes = chars[i + 1..].iter().take_while(|&&h| h == '#').count();
            if chars.get(i + 1 + hashes) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            i += hashes + 2;
            let close: Vec<char> = std::iter::once('"')
                .chain(std::iter::repeat_n('#', hashes))
                .collect();
            while i < chars.len() && !chars[i..].starts_with(&close) {
                blank(&mut out, chars[i]);
                i += 1;
            }
            i += close.len();
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    i += 1;
                }
                blank(&mut out, chars[i]);
                i += 1;
            }
            i += 1;
        } else if c == '\'' && (next == Some('\\') || chars.get(i + 2) == Some(&'\'')) {
            i += 1;
            while i < chars.len() && chars[i] != '\'' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// `code` without its `#[cfg(test)]` items, and the modules declared by
/// them (`#[cfg(test)] mod tests;`).
fn without_tests(code: &str) -> (String, Vec<String>) {
    let mut out = code.to_string();
    let mut modules = Vec::new();
    for attribute in ["#[cfg(test)]", "#[cfg(all(test,"] {
        while let Some(start) = out.find(attribute) {
            let bytes = out.as_bytes();
            let mut end = start;
            let mut depth = 0;
            while end < bytes.len() {
                match bytes[end] {
                    b'{' => depth += 1,
                    b'}' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    b';' if depth == 0 => break,
                    _ => {}
                }
                end += 1;
            }
            let item = &out[start..=end.min(bytes.len() - 1)];
            if let Some(declared) = item.trim_end_matches(';').split_whitespace().last() {
                if item.ends_with(';') && item.contains("mod ") {
                    modules.push(declared.to_string());
                }
            }
            let blanked: String = item
                .chars()
                .map(|c| if c == '\n' { '\n' } else { ' ' })
                .collect();
            out.replace_range(start..=end.min(bytes.len() - 1), &blanked);
        }
    }
    (out, modules)
}

/// The top-level modules `code` names, with their lines, in a file whose
/// module is `depth` deep (a `super::` chain that long reaches the root).
fn uses(code: &str, depth: usize) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    let mut at = 0;
    while at < code.len() {
        let rest = &code[at..];
        let before = code[..at].chars().next_back();
        let boundary = !before.is_some_and(|c| is_ident(c) || c == '$');
        let supers = rest.len() - rest.trim_start_matches("super::").len();
        let reach = if boundary && rest.starts_with("crate::") {
            Some("crate::".len())
        } else if boundary && supers > 0 && depth > 0 && supers / "super::".len() >= depth {
            Some(supers)
        } else {
            None
        };
        let Some(skip) = reach else {
            at += rest.chars().next().unwrap().len_utf8();
            continue;
        };
        let line = code[..at].matches('\n').count() + 1;
        let tail = &rest[skip..];
        let names: Vec<&str> = if let Some(group) = tail.strip_prefix('{') {
            let mut depth = 0;
            let end = group
                .find(|c| {
                    depth += i32::from(c == '{') - i32::from(c == '}');
                    depth < 0
                })
                .unwrap_or(group.len());
            let mut level = 0;
            group[..end]
                .split(|c| {
                    level += i32::from(c == '{') - i32::from(c == '}');
                    c == ',' && level == 0
                })
                .map(|part| part.trim().split(|c: char| !is_ident(c)).next().unwrap())
                .collect()
        } else {
            vec![tail.split(|c: char| !is_ident(c)).next().unwrap()]
        };
        for name in names {
            if !name.is_empty() && name != "self" {
                found.push((line, name.to_string()));
            }
        }
        at += skip;
    }
    found
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}
