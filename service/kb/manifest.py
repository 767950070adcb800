"""The manifest of a built KB: digests of every input, counts, ontology version, build time."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from service.kb.sources import Sources

MANIFEST = "manifest.json"
FORMAT = 3  # bump when the layout of a built KB changes, so `build --if-stale` rebuilds (2: the dump, dump/*.gz;
#            3: the whole dataset in one file, dump/all.nq.gz and all.trig.gz)


def write_manifest(directory: Path, manifest: dict[str, Any]) -> None:
    path = directory / MANIFEST
    path.write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def read_manifest(directory: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((directory / MANIFEST).read_text(encoding="utf-8"))
    return data


def changes(manifest: dict[str, Any], sources: Sources) -> list[str]:
    """What differs between the inputs the KB was built from and the inputs now, one line each."""
    out: list[str] = []
    if manifest.get("format") != FORMAT:
        out.append(f"the KB was built in format {manifest.get('format')}, this version writes {FORMAT}")
    recorded_dirs: dict[str, str] = manifest.get("sources", {})
    now_dirs = {k: str(v) for k, v in vars(sources).items()}
    for kind, d in now_dirs.items():
        if recorded_dirs.get(kind) not in (None, d):
            out.append(f"{kind}: the KB was built from {recorded_dirs[kind]}, not {d} "
                       "(another portfolio's KB? name yours with --kb)")
    if out:  # another portfolio's KB (or another format): a list of every file would only hide that
        return out
    recorded: dict[str, dict[str, str]] = manifest.get("inputs", {})
    groups = sources.groups()
    for kind, now in sources.digests().items():
        root = groups[kind][0]
        before = recorded.get(kind, {})
        for name in sorted(set(before) | set(now)):
            shown = f"{root.name}/{name}"
            if name not in now:
                out.append(f"{shown}: removed since the build")
            elif name not in before:
                out.append(f"{shown}: added since the build")
            elif before[name] != now[name]:
                out.append(f"{shown}: changed since the build")
    return out


def is_current(kb: Path, sources: Sources) -> bool:
    """Whether the KB at `kb` was built from these very inputs (nothing to rebuild)."""
    try:
        return not changes(read_manifest(kb), sources)
    except (OSError, ValueError):
        return False
