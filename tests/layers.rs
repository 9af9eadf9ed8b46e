//! The library's modules form no import circle: no module uses one that uses it
//! back, directly or through others; neither do the folders that group them,
//! nor the command line's modules, whose commands import no other command.
//! The folders keep the layer order docs/HOW-IT-WORKS.md gives, and the
//! bear-off code stands beside Mill's, sharing only the storage helpers.
//! References are read from the source text (`crate::PATH` and `super::PATH`
//! outside comments), so the test needs no build tooling.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Every `.rs` file under `dir`, by its module path relative to `dir`
/// (`rules::moves`; a folder's `mod.rs` is the folder), with its text.
fn modules_under(dir: &Path, prefix: &str, out: &mut BTreeMap<String, String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let stem = path.file_stem().unwrap().to_string_lossy().to_string();
        let name = if prefix.is_empty() {
            stem.clone()
        } else {
            format!("{prefix}::{stem}")
        };
        if path.is_dir() {
            modules_under(&path, &name, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let key = if stem == "mod" {
                prefix.to_string()
            } else {
                name
            };
            out.insert(key, std::fs::read_to_string(&path).unwrap());
        }
    }
}

/// The code of a line: what precedes a `//` comment.
fn code(line: &str) -> &str {
    line.split("//").next().unwrap_or("")
}

/// The longest module of `names` that `path` (`a::b::Item`) lies in.
fn module_of<'a>(path: &str, names: &'a BTreeSet<String>) -> Option<&'a String> {
    let parts: Vec<&str> = path.split("::").collect();
    (1..=parts.len())
        .rev()
        .find_map(|n| names.get(&parts[..n].join("::")))
}

/// Each library module (by path: `storage::dir`) and the modules it
/// references, leaving out the folders it lies in.
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut modules = BTreeMap::new();
    modules_under(&src, "", &mut modules);
    modules.retain(|name, _| name != "lib" && name != "main" && !name.starts_with("cli"));
    let names: BTreeSet<String> = modules.keys().cloned().collect();
    modules
        .iter()
        .map(|(name, text)| {
            let mut uses = BTreeSet::new();
            // what `super::` names from here: the folder holding this module
            // (for a folder's own mod.rs, named by the folder, the one above)
            let up = name.rsplit_once("::").map_or("", |(p, _)| p);
            for line in text.lines() {
                let code = code(line);
                for part in code.split("super::").skip(1) {
                    // `super::a::Item`, or `super::{a, Item}`
                    let heads: Vec<String> = match part.strip_prefix('{') {
                        Some(list) => (list.split('}').next().unwrap_or("").split(','))
                            .map(|h| h.trim().split("::").next().unwrap_or("").to_string())
                            .collect(),
                        None => vec![
                            part.chars()
                                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                                .collect(),
                        ],
                    };
                    for head in heads {
                        let path = if up.is_empty() {
                            head
                        } else {
                            format!("{up}::{head}")
                        };
                        if let Some(m) = module_of(path.trim_end_matches(':'), &names)
                            && m != name
                            && !name.starts_with(&format!("{m}::"))
                        {
                            uses.insert(m.clone());
                        }
                    }
                }
                for part in code.split("crate::").skip(1) {
                    let path: String = part
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                        .collect();
                    if let Some(m) = module_of(path.trim_end_matches(':'), &names)
                        && m != name
                        && !name.starts_with(&format!("{m}::"))
                    {
                        uses.insert(m.clone());
                    }
                }
                assert!(
                    !code.contains("crate::{"),
                    "{name}: write one `use crate::module` line per module"
                );
            }
            (name.clone(), uses)
        })
        .collect()
}

/// The folders' graph: folder `a` uses folder `b` where a module of `a` uses
/// one of `b`.
fn folders(g: &BTreeMap<String, BTreeSet<String>>) -> BTreeMap<String, BTreeSet<String>> {
    let top = |m: &str| m.split("::").next().unwrap().to_string();
    let mut f: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (m, uses) in g {
        let entry = f.entry(top(m)).or_default();
        for u in uses {
            if top(u) != top(m) {
                entry.insert(top(u));
            }
        }
    }
    f
}

/// The command line's modules (`src/cli/NAME.rs`) and the sibling modules
/// each references (`super::NAME`, `crate::cli::NAME`).
fn cli_graph() -> BTreeMap<String, BTreeSet<String>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/cli");
    let mut modules = BTreeMap::new();
    modules_under(&dir, "", &mut modules);
    if let Some(text) = modules.remove("") {
        modules.insert("mod".to_string(), text);
    }
    let names: BTreeSet<String> = modules.keys().cloned().collect();
    modules
        .iter()
        .map(|(name, text)| {
            let mut uses = BTreeSet::new();
            for line in text.lines() {
                let code = code(line);
                // `super::{A, B}` and `super::item` name cli/mod.rs
                if code.contains("super::") && name != "mod" {
                    uses.insert("mod".to_string());
                }
                for marker in ["super::", "crate::cli::"] {
                    for part in code.split(marker).skip(1) {
                        let head: String = part
                            .chars()
                            .take_while(|c| c.is_alphanumeric() || *c == '_')
                            .collect();
                        if names.contains(&head) && head != *name {
                            uses.insert(head);
                        }
                    }
                }
            }
            (name.clone(), uses)
        })
        .collect()
}

/// The command line's shared helpers; every other module there is a command.
const CLI_HELPERS: [&str; 3] = ["mod", "progress", "text"];

/// A circle through `node`, if any (depth-first search with colours).
fn find_circle(
    g: &BTreeMap<String, BTreeSet<String>>,
    node: &str,
    state: &mut BTreeMap<String, u8>,
    stack: &mut Vec<String>,
) -> Option<Vec<String>> {
    match state.get(node) {
        Some(2) => return None,
        Some(1) => {
            let start = stack.iter().position(|n| n == node).unwrap();
            let mut circle = stack[start..].to_vec();
            circle.push(node.to_string());
            return Some(circle);
        }
        _ => {}
    }
    state.insert(node.to_string(), 1);
    stack.push(node.to_string());
    for next in &g[node] {
        if let Some(c) = find_circle(g, next, state, stack) {
            return Some(c);
        }
    }
    stack.pop();
    state.insert(node.to_string(), 2);
    None
}

/// Panics naming a circle of `g`, if it has one.
fn assert_no_circle(g: &BTreeMap<String, BTreeSet<String>>, what: &str) {
    let mut state = BTreeMap::new();
    for node in g.keys() {
        if let Some(c) = find_circle(g, node, &mut state, &mut vec![]) {
            panic!("import circle among {what}: {}", c.join(" -> "));
        }
    }
}

#[test]
fn library_modules_form_no_import_circle() {
    let g = graph();
    assert!(g.len() >= 30, "modules found: {:?}", g.keys());
    assert_no_circle(&g, "the library's modules");
}

#[test]
fn the_folders_form_no_import_circle() {
    let f = folders(&graph());
    assert!(f.len() >= 8, "folders found: {:?}", f.keys());
    assert_no_circle(&f, "the library's folders");
}

#[test]
fn commands_import_no_other_command() {
    let g = cli_graph();
    assert!(g.len() >= 15, "command line modules found: {:?}", g.keys());
    assert_no_circle(&g, "the command line's modules");
    for (name, uses) in &g {
        for u in uses {
            assert!(
                CLI_HELPERS.contains(&u.as_str()),
                "command `{name}` imports command `{u}`: move what they share into cli/mod.rs \
                 or a helper ({CLI_HELPERS:?})"
            );
        }
    }
}

#[test]
fn the_circle_finder_finds_a_circle() {
    let mut g = BTreeMap::new();
    for (a, b) in [("a", "b"), ("b", "c"), ("c", "a"), ("d", "a")] {
        g.entry(a.to_string())
            .or_insert_with(BTreeSet::new)
            .insert(b.to_string());
        g.entry(b.to_string()).or_insert_with(BTreeSet::new);
    }
    let c = find_circle(&g, "d", &mut BTreeMap::new(), &mut vec![]).unwrap();
    assert_eq!(c, ["a", "b", "c", "a"]);
}

#[test]
fn the_layers_read_probe_maps_search_answer() {
    let g = graph();
    let uses = |a: &str, b: &str| g[a].contains(b);
    assert!(uses("answer::wdl", "answer::query") && uses("answer::opening", "answer::wdl"));
    assert!(uses("answer::policy", "answer::opening"));
    assert!(!uses("answer::query", "answer::policy") && !uses("answer::opening", "answer::policy"));
    // answers <- policy <- line
    assert!(uses("answer::policy", "answer::answers") && uses("answer::line", "answer::policy"));
    assert!(!uses("answer::answers", "answer::policy") && !uses("answer::policy", "answer::line"));
    for m in ["build::generate", "build::verify", "answer::query"] {
        assert!(
            uses(m, "storage::dir"),
            "{m} reads tables through storage::dir"
        );
    }
}

/// The layers of docs/HOW-IT-WORKS.md, lowest first: a folder uses only
/// folders below it (`build` and `answer` both read tables; `build` never
/// asks `answer`).
const LAYERS: [&str; 8] = [
    "rules", "index", "solve", "storage", "build", "answer", "play", "server",
];

#[test]
fn the_folders_keep_the_layer_order() {
    let f = folders(&graph());
    let rank = |m: &str| LAYERS.iter().position(|l| *l == m);
    for (folder, uses) in &f {
        if folder == "bearoff" {
            continue;
        }
        let r = rank(folder).unwrap_or_else(|| panic!("folder {folder} is in no layer"));
        for u in uses {
            let below = rank(u).is_some_and(|x| x < r);
            assert!(
                below,
                "{folder} uses {u}, which is not below it ({LAYERS:?})"
            );
        }
    }
    assert!(!f["build"].contains("answer"), "build imports answer");
}

#[test]
fn bearoff_shares_only_the_storage_helpers() {
    let f = folders(&graph());
    let uses: Vec<&String> = f["bearoff"].iter().collect();
    assert!(
        uses.iter().all(|u| *u == "storage"),
        "bearoff uses {uses:?}: only storage's helpers are shared with Mill"
    );
    for (folder, uses) in &f {
        assert!(
            !uses.contains("bearoff") || folder == "bearoff",
            "{folder} uses bearoff"
        );
    }
}

#[test]
fn super_references_count() {
    // play::players::series reaches play::players::arena through super::
    let g = graph();
    assert!(
        g["play::players::series"].contains("play::players::arena"),
        "{:?}",
        g["play::players::series"]
    );
    assert!(
        g["storage::codec::wdl"]
            .iter()
            .all(|m| m != "storage::codec"),
        "a folder's own items"
    );
}
