"""pyproject.toml names every package, so an installed `attila` (pip install .,
not only the editable install `make install` makes) has the whole core."""

import os

import pytest

tomllib = pytest.importorskip("tomllib", reason="tomllib is Python 3.11's: nothing to read the file with")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def packages_on_disk():
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        folders = tomllib.load(f)["tool"]["setuptools"]["package-dir"]
    found = set()
    for top, folder in folders.items():
        base = os.path.join(ROOT, folder)
        for here, dirs, names in os.walk(base):
            dirs[:] = [d for d in dirs if d != "__pycache__"]
            if "__init__.py" in names:
                rel = os.path.relpath(here, base)
                found.add(top if rel == "." else top + "." + rel.replace(os.sep, "."))
    return found


def test_every_package_is_listed_for_setuptools():
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        listed = set(tomllib.load(f)["tool"]["setuptools"]["packages"])
    on_disk = packages_on_disk()
    assert "attila.opponent" in on_disk and "attila_tools.solve" in on_disk
    assert sorted(on_disk - listed) == [], "missing from pyproject.toml's packages"
    assert sorted(listed - on_disk) == [], "listed in pyproject.toml but not a package"
