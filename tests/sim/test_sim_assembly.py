"""The simulator builds no controller of its own: attila.assembly builds it,
as it does on every port, so the simulator's board is a flashed board's."""

import ast
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SIM = os.path.join(ROOT, "sim", "attila_sim")


def _sources():
    for name in sorted(os.listdir(SIM)):
        if name.endswith(".py"):
            with open(os.path.join(SIM, name)) as f:
                yield name, ast.parse(f.read(), name)


def test_the_simulator_never_constructs_a_controller():
    made = []
    for name, tree in _sources():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                f = node.func
                called = f.id if isinstance(f, ast.Name) else f.attr if isinstance(
                    f, ast.Attribute) else ""
                if called in ("Controller", "Coach"):
                    made.append("%s:%d: %s()" % (name, node.lineno, called))
    assert not made, "the simulator builds its own: " + ", ".join(made)


def test_the_rig_takes_its_controller_from_the_assembly():
    from attila_sim.rig import Rig

    import attila.assembly as assembly

    built = []
    real = assembly.build_controller

    def spy(*args, **kw):
        built.append(args)
        return real(*args, **kw)

    assembly.build_controller = spy
    try:
        rig = Rig.from_file(os.path.join(ROOT, "boards", "4x5.json"), computer=1)
    finally:
        assembly.build_controller = real
    assert len(built) == 1 and built[0][0] is rig.layout
