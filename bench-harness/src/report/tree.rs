//! The layout of the terminal table: benchmarks as a tree by group, module
//! path, function, type and argument, as divan prints them, or flat with
//! full names (`--flat`, for grep). Only the layout is here; the terminal
//! reporter prints the figures beside each row.

use super::format::escape;
use crate::results::{BenchResult, ComplexityReport};
use std::collections::HashMap;

/// One line of the table's name column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Line {
    /// A node with rows below it: a group, a module, a function with
    /// arguments or types.
    Node { prefix: String, label: String },
    /// The row of `results[index]`.
    Row {
        prefix: String,
        label: String,
        index: usize,
    },
    /// The complexity fit of `reports[index]`, under its function's rows.
    Complexity { prefix: String, index: usize },
}

impl Line {
    /// The width of the name column this line needs.
    pub(crate) fn width(&self) -> usize {
        match self {
            Line::Node { prefix, label } | Line::Row { prefix, label, .. } => {
                prefix.chars().count() + label.chars().count()
            }
            Line::Complexity { .. } => 0,
        }
    }
}

/// A path in the tree: the group's node (`sort (group)`), if any, then
/// `path`.
fn tree_path(group: Option<&str>, path: &[String]) -> Vec<String> {
    let node = group.map(|group| format!("{} (group)", escape(group)));
    node.into_iter().chain(path.iter().cloned()).collect()
}

/// The lines of the tree, in the results' order (the order benchmarks are
/// defined in): each node where its first benchmark is, its children
/// together below it; a function's complexity fit after its last row.
pub(crate) fn tree(results: &[BenchResult], reports: &[ComplexityReport]) -> Vec<Line> {
    let mut order: Vec<(usize, Vec<String>)> = results
        .iter()
        .enumerate()
        .map(|(index, result)| (index, tree_path(result.group.as_deref(), &result.path)))
        .collect();
    let mut first_seen: HashMap<Vec<String>, usize> = HashMap::new();
    for (index, path) in &order {
        for depth in 1..=path.len() {
            first_seen.entry(path[..depth].to_vec()).or_insert(*index);
        }
    }
    // A path's place: where each of its nodes first appears, level by level.
    order.sort_by_cached_key(|(_, path)| {
        (1..=path.len())
            .map(|depth| first_seen[&path[..depth]])
            .collect::<Vec<usize>>()
    });
    let paths: Vec<&[String]> = order.iter().map(|(_, path)| path.as_slice()).collect();

    let mut lines = Vec::new();
    // Whether the node at each depth on the current path is its parent's
    // last child: it decides `├─` or `╰─`, and `│` or blank below it.
    let mut last_at: Vec<bool> = Vec::new();
    for (i, (index, path)) in order.iter().enumerate() {
        let previous: &[String] = if i > 0 { paths[i - 1] } else { &[] };
        let shared = common_prefix(path, previous).min(path.len() - 1);
        last_at.truncate(shared);
        for depth in shared..path.len() {
            let last = is_last_child(&paths, i, depth);
            last_at.push(last);
            let prefix = prefix(&last_at);
            let label = escape(&path[depth]).into_owned();
            if depth + 1 < path.len() {
                lines.push(Line::Node { prefix, label });
            } else {
                lines.push(Line::Row {
                    prefix,
                    label,
                    index: *index,
                });
            }
        }
        let parent = &path[..path.len() - 1];
        let parent_ends = paths
            .get(i + 1)
            .is_none_or(|next| next.len() < path.len() || next[..path.len() - 1] != *parent);
        if parent_ends {
            for (report_index, report) in reports.iter().enumerate() {
                // The group's node is part of both paths.
                if tree_path(report.group.as_deref(), &report.path) == parent {
                    // Aligned with the function's children, below them.
                    let mut continuation = String::new();
                    for &last in &last_at[1.min(last_at.len())..last_at.len() - 1] {
                        continuation.push_str(if last { "   " } else { "│  " });
                    }
                    continuation.push_str("   ");
                    lines.push(Line::Complexity {
                        prefix: continuation,
                        index: report_index,
                    });
                }
            }
        }
    }
    lines
}

/// The lines of the flat table: each result under its full name, in the
/// results' order, then every complexity fit.
pub(crate) fn flat(results: &[BenchResult], reports: &[ComplexityReport]) -> Vec<Line> {
    let rows = results.iter().enumerate().map(|(index, result)| Line::Row {
        prefix: String::new(),
        label: escape(&result.name).into_owned(),
        index,
    });
    let fits = (0..reports.len()).map(|index| Line::Complexity {
        prefix: String::new(),
        index,
    });
    rows.chain(fits).collect()
}

fn common_prefix(a: &[String], b: &[String]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

/// Whether `paths[i]`'s node at `depth` is the last child of its parent:
/// no later path under the same parent names another node at that depth.
fn is_last_child(paths: &[&[String]], i: usize, depth: usize) -> bool {
    let path = paths[i];
    paths[i + 1..]
        .iter()
        .take_while(|other| other.len() > depth && other[..depth] == path[..depth])
        .all(|other| other[depth] == path[depth])
}

/// The connectors before a node whose ancestors (and itself, last) are
/// last children or not. Top-level nodes have none.
fn prefix(last_at: &[bool]) -> String {
    let mut prefix = String::new();
    if last_at.len() <= 1 {
        return prefix;
    }
    for &last in &last_at[1..last_at.len() - 1] {
        prefix.push_str(if last { "   " } else { "│  " });
    }
    prefix.push_str(if last_at[last_at.len() - 1] {
        "╰─ "
    } else {
        "├─ "
    });
    prefix
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::Outcome;

    fn result(name: &str, path: &[&str], group: Option<&str>) -> BenchResult {
        BenchResult {
            path: path.iter().map(|s| s.to_string()).collect(),
            group: group.map(str::to_string),
            ..BenchResult::new(name, Outcome::Passed)
        }
    }

    fn render(lines: &[Line]) -> Vec<String> {
        lines
            .iter()
            .map(|line| match line {
                Line::Node { prefix, label } => format!("{prefix}{label}"),
                Line::Row { prefix, label, .. } => format!("{prefix}{label} *"),
                Line::Complexity { prefix, index } => format!("{prefix}complexity {index}"),
            })
            .collect()
    }

    #[test]
    fn nodes_keep_the_order_of_their_first_benchmark() {
        // In definition order, as the registry gives them; a module's
        // benchmarks split by another's come together under its node.
        let results = [
            result("kernels::sort/1000", &["kernels", "sort", "1000"], None),
            result("kernels::sort/10", &["kernels", "sort", "10"], None),
            result("fib_20", &["fib_20"], None),
            result("kernels::hash/u64", &["kernels", "hash", "u64"], None),
            result("kernels::hash/u8", &["kernels", "hash", "u8"], None),
            result("kernels::sort/100", &["kernels", "sort", "100"], None),
            result("kernels::sum", &["kernels", "sum"], None),
            result("kernels::deep::x", &["kernels", "deep", "x"], None),
        ];
        assert_eq!(
            render(&tree(&results, &[])),
            [
                "kernels",
                "├─ sort",
                "│  ├─ 1000 *",
                "│  ├─ 10 *",
                "│  ╰─ 100 *",
                "├─ hash",
                "│  ├─ u64 *",
                "│  ╰─ u8 *",
                "├─ sum *",
                "╰─ deep",
                "   ╰─ x *",
                "fib_20 *",
            ]
        );
    }

    #[test]
    fn a_group_is_a_node_of_its_own_where_its_first_member_is() {
        let results = [
            result("kernels::first", &["kernels", "first"], None),
            result("kernels::sort_std", &["kernels", "sort_std"], Some("sort")),
            result(
                "kernels::sort_mine",
                &["kernels", "sort_mine"],
                Some("sort"),
            ),
            result("kernels::other", &["kernels", "other"], None),
        ];
        assert_eq!(
            render(&tree(&results, &[])),
            [
                "kernels",
                "├─ first *",
                "╰─ other *",
                "sort (group)",
                "╰─ kernels",
                "   ├─ sort_std *",
                "   ╰─ sort_mine *",
            ]
        );
    }

    #[test]
    fn a_complexity_fit_follows_its_functions_last_row() {
        let results = [
            result("sort/10", &["sort", "10"], None),
            result("sort/20", &["sort", "20"], None),
            result("zip", &["zip"], None),
            result("m::a/1", &["m", "a", "1"], None),
            result("m::a/2", &["m", "a", "2"], None),
            result("m::b/1", &["m", "b", "1"], None),
            result("m::b/2", &["m", "b", "2"], None),
        ];
        let report = |function: &str, path: &[&str]| ComplexityReport {
            function: function.into(),
            path: path.iter().map(|s| s.to_string()).collect(),
            group: None,
            points: vec![],
            fit: Err("none".into()),
        };
        let reports = [
            report("sort", &["sort"]),
            report("m::a", &["m", "a"]),
            report("m::b", &["m", "b"]),
        ];
        assert_eq!(
            render(&tree(&results, &reports)),
            [
                "sort",
                "├─ 10 *",
                "╰─ 20 *",
                "   complexity 0",
                "zip *",
                "m",
                "├─ a",
                "│  ├─ 1 *",
                "│  ╰─ 2 *",
                "│     complexity 1",
                "╰─ b",
                "   ├─ 1 *",
                "   ╰─ 2 *",
                "      complexity 2",
            ]
        );
    }

    #[test]
    fn flat_lines_are_full_names() {
        let results = [result("a::b/1", &["a", "b", "1"], None)];
        assert_eq!(render(&flat(&results, &[])), ["a::b/1 *"]);
    }
}
