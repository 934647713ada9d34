#!/usr/bin/env python3
"""Checks the browser client's module graph: no import circle, and the data layer never imports
the view layer.

The data layer (the socket, the API, the state, the rules) keeps what the page shows; the views
read it and listen to its events. A data module that imports a view module (`dom.js`, a panel)
ties the two together, and a circle makes the order modules run in depend on who is loaded
first. Run by scripts/test; exits 1 and names what it found.

    python3 tools/check_js_imports.py [Sources/ParlorServer/Web/js]
"""

import pathlib
import re
import sys

# Modules that hold, move or word data and never touch the page: they may import each other only.
DATA_LAYER = {"api.js", "client.js", "ids.js", "language.js", "mentions.js", "offline.js", "protocol.js", "rules.js", "socket.js", "state.js", "times.js"}
IMPORT = re.compile(r"""^\s*import\s[^'"]*['"]\./([\w.-]+\.js)['"]""", re.MULTILINE)


def imports(folder: pathlib.Path) -> dict[str, set[str]]:
    return {path.name: set(IMPORT.findall(path.read_text(encoding="utf-8"))) for path in sorted(folder.glob("*.js"))}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Each import circle once, as the path that closes it."""
    found, done = [], set()

    def walk(module, path):
        if module in path:
            circle = path[path.index(module):] + [module]
            if frozenset(circle) not in done:
                done.add(frozenset(circle))
                found.append(circle)
            return
        for target in sorted(graph.get(module, ())):
            walk(target, path + [module])

    for module in sorted(graph):
        walk(module, [])
    return found


def main() -> int:
    folder = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parent.parent / "Sources/ParlorServer/Web/js")
    graph = imports(folder)
    problems = [f"import circle: {' → '.join(circle)}" for circle in circles(graph)]
    for module in sorted(DATA_LAYER & graph.keys()):
        for target in sorted(graph[module] - DATA_LAYER):
            problems.append(f"{module} (data) imports {target} (view): emit an event the page listens to instead")
    missing = {target for targets in graph.values() for target in targets} - graph.keys()
    problems += [f"imported but not there: {name}" for name in sorted(missing)]
    for problem in problems:
        print(problem)
    if not problems:
        print(f"{len(graph)} modules, no import circle, the data layer imports no view")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
