#!/usr/bin/python3
"""The rooms of each folder of src/ and engine/ and the arrows between them, checked: a room is a
header with its .cpp (study/stats.hpp and study/stats.cpp are the room "stats"), and room X
points at room Y of the same folder when any file of X includes Y's header. No folder may hold a
cycle of rooms (X includes Y and Y, directly or through others, includes X): each room then has
a place in its folder's order, as the layers have theirs (cmake/layers.cmake).

And no function in the folders named with --short may be longer than 150 lines: measured as the
lines from the line its body's opening brace is on to the line of the brace that closes it
(braces in strings, characters and comments not counted), for a definition at namespace or class
scope whose head holds a parameter list (a lambda counts within its function).

usage: room_check.py SOURCE_DIR [--short FOLDER ...]
"""

import os
import re
import sys

MOST_LINES = 150
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')


def folders(root):
    """src/<layer>/ and engine/, as (name, path)."""
    found = []
    src = os.path.join(root, "src")
    for name in sorted(os.listdir(src)):
        path = os.path.join(src, name)
        if os.path.isdir(path):
            found.append((f"src/{name}", path))
    found.append(("engine", os.path.join(root, "engine")))
    return found


def rooms_of(path):
    """Room name → its files (a header and its .cpp, or either alone)."""
    rooms = {}
    for name in sorted(os.listdir(path)):
        stem, ext = os.path.splitext(name)
        if ext in (".hpp", ".cpp", ".h"):
            rooms.setdefault(stem, []).append(os.path.join(path, name))
    return rooms


def arrows(folder, path, rooms):
    """(X, Y) → the include lines that make X point at Y."""
    prefix = folder.split("/")[-1] + "/"
    edges = {}
    for room, files in rooms.items():
        for file in files:
            with open(file, encoding="utf-8") as f:
                for number, line in enumerate(f, 1):
                    m = INCLUDE.match(line)
                    if not m:
                        continue
                    target = m.group(1)
                    if target.startswith(prefix):
                        target = target[len(prefix):]
                    elif "/" in target:
                        continue  # another folder: the layer graph's business
                    stem = os.path.splitext(target)[0]
                    if stem in rooms and stem != room:
                        edges.setdefault((room, stem), []).append(
                            f"{os.path.relpath(file, os.path.dirname(path))}:{number}")
    return edges


def cycles(nodes, edges):
    """The strongly connected components of more than one room (Tarjan)."""
    graph = {n: [] for n in nodes}
    for (a, b) in edges:
        graph[a].append(b)
    index, low, stack, on, found = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(10000)
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return found


def code_only(text):
    """The text with strings, characters and comments blanked, line breaks kept."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            while i < n and text[i] != "\n":
                i += 1
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append("\n" * text.count("\n", i, end))
            i = end
        elif c == 'R' and text.startswith('R"', i):
            m = re.match(r'R"([^(]*)\(', text[i:])
            if m:
                close = ")" + m.group(1) + '"'
                end = text.find(close, i + len(m.group(0)))
                end = n if end < 0 else end + len(close)
                out.append('""' + "\n" * text.count("\n", i, end))
                i = end
            else:
                out.append(c)
                i += 1
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def long_functions(file):
    """(name, first line, lines) of each function body longer than MOST_LINES."""
    with open(file, encoding="utf-8") as f:
        code = code_only(f.read())
    found = []
    depth_kinds = []  # per open brace: "scope" (namespace, class …) or "body"/"other"
    head_start = 0
    line = 1
    open_at = []  # (line, kind, name)
    for i, c in enumerate(code):
        if c == "\n":
            line += 1
        elif c in ";":
            if not depth_kinds or depth_kinds[-1] == "scope":
                head_start = i + 1
        elif c == "{":
            head = code[head_start:i]
            at_scope = not depth_kinds or depth_kinds[-1] == "scope"
            kind = "other"
            name = ""
            if at_scope:
                if re.search(r"\b(namespace|struct|class|union|enum)\b[^()]*$", head) or \
                        re.search(r"\bextern\s*$", head):
                    kind = "scope"
                elif re.search(r"\)\s*(const|noexcept|override|final|->\s*[\w:<>,\s*&]+|\s)*$",
                               head.replace("\n", " ")) and not re.search(r"=\s*$", head):
                    kind = "body"
                    m = re.search(r"([\w:~]+)\s*\(", head)
                    name = m.group(1) if m else "?"
            depth_kinds.append(kind)
            open_at.append((line, kind, name))
            head_start = i + 1
        elif c == "}":
            if depth_kinds:
                kind = depth_kinds.pop()
                start, _, name = open_at.pop()
                if kind == "body" and line - start + 1 > MOST_LINES:
                    found.append((name, start, line - start + 1))
            if not depth_kinds or depth_kinds[-1] == "scope":
                head_start = i + 1
    return found


def main():
    args = sys.argv[1:]
    if not args:
        print(__doc__)
        return 2
    root = args[0]
    short = args[args.index("--short") + 1:] if "--short" in args else []
    problems = []
    checked_rooms = 0
    for folder, path in folders(root):
        rooms = rooms_of(path)
        checked_rooms += len(rooms)
        edges = arrows(folder, path, rooms)
        for component in cycles(rooms.keys(), edges):
            lines = [f"    {a} → {b}: {', '.join(edges[(a, b)])}"
                     for (a, b) in sorted(edges) if a in component and b in component]
            problems.append(f"{folder}: the rooms {', '.join(component)} include each other:\n" +
                            "\n".join(lines))
        if folder in short:
            for files in rooms.values():
                for file in files:
                    for name, start, count in long_functions(file):
                        problems.append(f"{os.path.relpath(file, root)}:{start}: {name} is "
                                        f"{count} lines long (at most {MOST_LINES})")
    for problem in problems:
        print("FAIL:", problem)
    if not problems:
        print(f"ok: {checked_rooms} rooms in {len(folders(root))} folders, no cycle; no function "
              f"in {', '.join(short) or 'no folder'} over {MOST_LINES} lines")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
