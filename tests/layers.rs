//! The library's modules form no import circle: no module uses one that uses it
//! back, directly or through others. References are read from the source text
//! (`crate::NAME` outside comments), so the test needs no build tooling.

use std::collections::{BTreeMap, BTreeSet};

/// Each library module (`src/NAME.rs`) and the modules it references.
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = format!("{}/src", env!("CARGO_MANIFEST_DIR"));
    let mut modules = BTreeMap::new();
    for entry in std::fs::read_dir(&src).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        if path.extension().is_some_and(|e| e == "rs") && name != "lib" && name != "main" {
            modules.insert(name, std::fs::read_to_string(&path).unwrap());
        }
    }
    let names: BTreeSet<String> = modules.keys().cloned().collect();
    modules
        .iter()
        .map(|(name, text)| {
            let mut uses = BTreeSet::new();
            for line in text.lines() {
                let code = line.split("//").next().unwrap_or("");
                // `crate::a::b` and `use crate::{a, b}` forms
                for part in code.split("crate::").skip(1) {
                    let head: String = part
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    if names.contains(&head) && head != *name {
                        uses.insert(head);
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

#[test]
fn library_modules_form_no_import_circle() {
    let g = graph();
    assert!(g.len() >= 15, "modules found: {:?}", g.keys());
    let mut state = BTreeMap::new();
    for node in g.keys() {
        if let Some(c) = find_circle(&g, node, &mut state, &mut vec![]) {
            panic!("import circle: {}", c.join(" -> "));
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
    assert!(uses("wdl", "query") && uses("opening", "wdl") && uses("answer", "opening"));
    assert!(!uses("query", "answer") && !uses("opening", "answer"));
    for m in ["generate", "verify", "query"] {
        assert!(uses(m, "db"), "{m} reads tables through db");
    }
}
