#!/usr/bin/env python3
"""Checks that a crate's imports point down: no cycle among its top-level modules.

A top-level module (a file `src/x.rs` or a directory `src/x/`) imports another when its code —
`use crate::…`/`super::…` trees or `crate::…`/`super::…` paths, tests left out — names an item
of it (an item the crate root re-exports counts as its module's). The crate root is the crate's
wiring (`mod` declarations, re-exports; in a pallet, `Config` and storage) and is left out, as
are glob imports (`use crate::*`), which name nothing to follow.
Without cycles the modules stack in floors, each importing only from those below; a cycle is
printed with the imports that make it, and the script exits 1.

    scripts/module-layers.py CRATE_DIR...
"""
import os
import re
import sys

# Modules compiled only for tests: they sit above everything by nature.
TEST_ONLY = {"tests", "mock"}


def crate_files(src):
    """The crate root and each other file's module path (`src/a/b.rs` and `src/a/b/mod.rs` are
    `a::b`). Binaries under `src/bin` are crates of their own; with a `lib.rs`, `main.rs` is one
    too. Modules are found by file path: a `#[path]` attribute is not followed."""
    root = next(
        (os.path.join(src, n) for n in ("lib.rs", "main.rs") if os.path.exists(os.path.join(src, n))),
        None,
    )
    modules = {}
    for directory, subdirectories, files in os.walk(src):
        if os.path.relpath(directory, src) == ".":
            subdirectories[:] = [d for d in subdirectories if d != "bin"]
        for name in files:
            path = os.path.join(directory, name)
            if not name.endswith(".rs") or os.path.dirname(path) == src and name in ("lib.rs", "main.rs"):
                continue
            parts = os.path.relpath(path, src)[: -len(".rs")].split(os.sep)
            if parts[-1] == "mod":
                parts = parts[:-1]
            modules[path] = tuple(parts)
    return root, modules


def code_only(text):
    """The text without comments, string literals and an inline `mod tests { … }`."""
    text = re.sub(r'b?r(#*)".*?"\1', '""', text, flags=re.S)  # raw strings
    text = re.sub(r'b?"(?:\\.|[^"\\])*"', '""', text, flags=re.S)
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    return re.split(r"#\[cfg\(test\)\]\s*mod tests\s*\{", text)[0]


def use_tree_paths(tree, prefix=()):
    """The paths a use tree names: `a::{b, c::{d as e}}` gives a::b and a::c::d."""
    tree = re.sub(r"\s+as\s+\w+\s*$", "", tree.strip())
    brace = tree.find("{")
    if brace < 0:
        return [prefix + tuple(p.strip() for p in tree.split("::") if p.strip() not in ("", "self"))]
    head = tuple(p.strip() for p in tree[:brace].split("::") if p.strip())
    body = tree[brace + 1 : tree.rfind("}")]
    paths, depth, item = [], 0, ""
    for char in body + ",":
        depth += char == "{"
        depth -= char == "}"
        if char == "," and depth == 0:
            if item.strip():
                paths += use_tree_paths(item, prefix + head)
            item = ""
        else:
            item += char
    return paths


def root_reexports(root_text):
    """Items the crate root re-exports from a module: `pub use m::{A, B}` gives A, B → m."""
    reexports = {}
    for match in re.finditer(r"pub(?:\([\w ]+\))? use (\w+)::([^;]*);", root_text):
        for path in use_tree_paths(match.group(2)):
            if path:
                reexports[path[-1]] = match.group(1)
    return reexports


def referenced_paths(text, module):
    """Absolute paths (from the crate root) that a file's `use` trees and `crate::`/`super::`
    paths name. Glob imports (`use crate::*`) name nothing that can be followed."""
    found = []
    for use in re.finditer(r"\buse\s+((?:(?:crate|super|self)::)+)([^;]*);", text, re.S):
        found += [(use.group(1), path) for path in use_tree_paths(use.group(2))]
    for use in re.finditer(r"(?<![\w:])((?:(?:\$?crate|super)::)+)((?:\w+::)*\w+)", text):
        found.append((use.group(1), tuple(use.group(2).split("::"))))
    for bases, rest in found:
        steps = [b for b in bases.split("::") if b]
        current = list(module)
        for step in steps:
            if step.endswith("crate"):
                current = []
            elif step == "super":
                current = current[:-1]
        yield tuple(current) + tuple(p for p in rest if p != "*")


def imports(crate):
    """Top-level module → {top-level module it imports: the paths}."""
    root, modules = crate_files(os.path.join(crate, "src"))
    if root is None:
        print(f"{crate}: no src/lib.rs or src/main.rs; nothing checked", file=sys.stderr)
        return {}
    names = {path[0] for path in modules.values()}
    reexports = root_reexports(open(root, encoding="utf-8").read())
    edges = {}
    for path, module in modules.items():
        top = module[0]
        if top in TEST_ONLY:
            continue
        text = code_only(open(path, encoding="utf-8").read())
        for target in referenced_paths(text, module):
            if not target:
                continue
            other = target[0] if target[0] in names else reexports.get(target[0])
            if other and other != top and other not in TEST_ONLY:
                edges.setdefault(top, {}).setdefault(other, set()).add("::".join(target))
    return edges


def cycles(edges):
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in edges.get(node, {}):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = set()
            while True:
                other = stack.pop()
                on_stack.discard(other)
                component.add(other)
                if other == node:
                    break
            if len(component) > 1:
                found.append(component)

    for node in list(edges):
        if node not in index:
            visit(node)
    return found


def main(crates):
    if not crates:
        print("usage: scripts/module-layers.py CRATE_DIR...", file=sys.stderr)
        return 1
    failed = False
    for crate in crates:
        edges = imports(crate)
        for component in cycles(edges):
            failed = True
            print(f"{crate}: modules that import each other: {', '.join(sorted(component))}")
            for module in sorted(component):
                for other, items in sorted(edges.get(module, {}).items()):
                    if other in component:
                        print(f"  {module} -> {other}: {', '.join(sorted(items))}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
