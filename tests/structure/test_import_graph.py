"""The package's import graph has no cycles.

Every ``import`` and ``from ... import`` is an edge, at module level or inside a function
or class alike; imports under ``if TYPE_CHECKING:`` are left out (they never run) by the
first test and counted by the second, so that even annotations do not lead back to the
composition root (lower layers annotate the service they receive with
:class:`fakeservice.host.Host`). ``from package import name`` is an edge to
``package.name`` when that is a module, else to ``package``. The area modules that
:data:`fakeservice.areas.AREAS` names (imported by name) are edges of
``fakeservice.areas``. A failure names each cycle, module by module.
"""

from __future__ import annotations

import ast
from collections import deque
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "fakeservice"
Graph = dict[str, set[str]]


def modules(root: Path) -> dict[str, tuple[Path, bool]]:
    """Module name -> (file, is a package) for every ``.py`` file under ``root``."""
    found: dict[str, tuple[Path, bool]] = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        package = parts[-1] == "__init__"
        if package:
            parts.pop()
        found[".".join(parts)] = (path, package)
    return found


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST, typing: bool) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement, at any depth; under ``if TYPE_CHECKING:`` only if
    ``typing``."""
    pending: list[ast.AST] = [tree]
    while pending:
        node = pending.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
            continue
        if not typing and isinstance(node, ast.If) and _type_checking(node):
            pending.extend(node.orelse)
            continue
        pending.extend(ast.iter_child_nodes(node))


def _area_names(tree: ast.Module) -> list[str]:
    """The module names listed in an ``AREAS = (...)`` assignment, if any."""
    for node in tree.body:
        target = node.target if isinstance(node, ast.AnnAssign) else None
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
        if isinstance(target, ast.Name) and target.id == "AREAS" and node.value is not None:
            return [str(name) for name in ast.literal_eval(node.value)]
    return []


def import_graph(root: Path, *, typing: bool = False) -> Graph:
    """Module -> the modules of the package it imports (with ``typing``: also for type
    checking only)."""
    found = modules(root)

    def known(name: str) -> str | None:
        while name and name not in found:
            name = name.rpartition(".")[0]
        return name or None

    graph: Graph = {name: set() for name in found}
    for name, (path, package) in found.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        here = name if package else name.rpartition(".")[0]
        targets: list[str | None] = [known(area) for area in _area_names(tree)]
        for node in _imports(tree, typing):
            if isinstance(node, ast.Import):
                targets.extend(known(alias.name) for alias in node.names)
                continue
            base = node.module or ""
            if node.level:
                parent = here.split(".")[: len(here.split(".")) - node.level + 1]
                base = ".".join([*parent, *([node.module] if node.module else [])])
            for alias in node.names:
                full = f"{base}.{alias.name}"
                targets.append(full if full in found else known(base))
        graph[name] = {target for target in targets if target and target != name}
    return graph


def cycles(graph: Graph) -> list[list[str]]:
    """One cycle per strongly connected component of more than one module, as the
    modules along it (the first one repeated at the end)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[set[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    components.append(component)
    return [_cycle_through(graph, component) for component in components]


def _cycle_through(graph: Graph, component: set[str]) -> list[str]:
    """The shortest cycle from the component's first module back to itself."""
    start = min(component)
    came_from: dict[str, str] = {}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for child in sorted(graph[node] & component):
            if child == start:
                path = [node]
                while path[-1] != start:
                    path.append(came_from[path[-1]])
                return [*reversed(path), start]
            if child not in came_from:
                came_from[child] = node
                queue.append(child)
    raise AssertionError(f"no cycle through {start}")  # pragma: no cover


def test_the_package_has_no_import_cycle() -> None:
    found = cycles(import_graph(PACKAGE))
    assert not found, "import cycles:\n" + "\n".join(" -> ".join(cycle) for cycle in found)


def test_not_even_through_imports_for_type_checking() -> None:
    found = cycles(import_graph(PACKAGE, typing=True))
    assert not found, (
        "import cycles through `if TYPE_CHECKING:` imports (annotate the service a lower "
        "layer receives with `from fakeservice.host import Host`, not "
        "`fakeservice.service.FakeService`):\n" + "\n".join(" -> ".join(cycle) for cycle in found)
    )


def test_the_graph_sees_every_area_and_the_composition_root() -> None:
    graph = import_graph(PACKAGE)
    assert "fakeservice.ci.area" in graph["fakeservice.areas"]
    assert "fakeservice.areas" in graph["fakeservice.service"]
    # a function-level import
    assert "fakeservice.ci.jobs.operations" in graph["fakeservice.ci.area"]


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root / "pkg"


def test_function_level_imports_make_cycles_and_type_checking_ones_do_not(
    tmp_path: Path,
) -> None:
    package = write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/a.py": "from pkg import b\n",
            "pkg/b.py": "def late():\n    from pkg.c import thing\n",
            "pkg/c.py": "from . import a\n",
            "pkg/d.py": (
                "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import e\n"
                "else:\n    import pkg.a\n"
            ),
            "pkg/e.py": "import pkg.d\n",
        },
    )
    graph = import_graph(package)
    assert graph["pkg.c"] == {"pkg.a"}
    assert graph["pkg.d"] == {"pkg.a"}
    assert cycles(graph) == [["pkg.a", "pkg.b", "pkg.c", "pkg.a"]]
    with_typing = import_graph(package, typing=True)
    assert with_typing["pkg.d"] == {"pkg.a", "pkg.e"}
    assert cycles(with_typing) == [
        ["pkg.a", "pkg.b", "pkg.c", "pkg.a"],
        ["pkg.d", "pkg.e", "pkg.d"],
    ]


def test_an_area_list_counts_as_imports(tmp_path: Path) -> None:
    package = write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/areas.py": 'AREAS: tuple[str, ...] = ("pkg.widgets",)\n',
            "pkg/widgets.py": "def register():\n    from pkg.areas import AREAS\n",
        },
    )
    assert cycles(import_graph(package)) == [["pkg.areas", "pkg.widgets", "pkg.areas"]]
