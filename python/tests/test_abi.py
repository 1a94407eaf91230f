"""test_abi: the package's ctypes mirrors of the C structs (_lib.py) have the C layout: the same
fields in the same order, at the same offsets with the same sizes, and the same struct sizes.
The C side is what BUILD/python/osc_abi_layout (abi_layout.c, built with the package) prints
and the field names the header declares, so a field added on one side only fails here."""
import ctypes
import importlib
import os
import re
import subprocess

import pytest

import onnx_scatter
# the module (the package's attribute _lib is the loaded library)
_lib = importlib.import_module("onnx_scatter._lib")

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
HEADER = os.path.join(ROOT, "include", "onnx_scatter.h")
LAYOUT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(onnx_scatter.__file__))),
                      "osc_abi_layout")

# C struct -> its mirror; every ctypes.Structure of _lib must be here
MIRRORS = {"osc_string": _lib.String, "osc_tensor": _lib.Tensor, "osc_options": _lib.Options,
           "osc_dim_pin": _lib.DimPin,
           "osc_value_desc": _lib.ValueDesc, "osc_node_desc": _lib.NodeDesc,
           "osc_meta_desc": _lib.MetaDesc, "osc_op_desc": _lib.OpDesc}


def c_layout():
    """{struct: (sizeof, [(field, offset, size), ...])} as the C compiler lays them out."""
    assert os.access(LAYOUT, os.X_OK), (f"{LAYOUT} is missing: build the target "
                                        "onnx_scatter_python (it builds osc_abi_layout)")
    out = subprocess.run([LAYOUT], check=True, capture_output=True, text=True).stdout
    layout = {}
    for line in out.splitlines():
        kind, name, *rest = line.split()
        if kind == "struct":
            layout[name] = (int(rest[0]), [])
        else:
            layout[name][1].append((rest[0], int(rest[1]), int(rest[2])))
    return layout


def header_fields():
    """{struct: [field, ...]} for every `typedef struct osc_x { ... } osc_x;` of the header."""
    with open(HEADER) as f:
        text = re.sub(r"/\*.*?\*/", "", f.read(), flags=re.S)
    # an anonymous union in a reserved element counts as its first member
    text = re.sub(r"union\s*\{\s*([^;]*;)[^}]*\}\s*;", r"\1", text)
    structs = {}
    for name, body in re.findall(r"typedef struct (osc_\w+) \{(.*?)\} \1;", text, re.S):
        decls = [d.strip() for d in body.split(";") if d.strip()]
        structs[name] = [re.search(r"(\w+)\s*(\[[^\]]*\])?$", d).group(1) for d in decls]
    return structs


def test_every_mirror_is_checked():
    mirrored = {v for v in vars(_lib).values()
                if isinstance(v, type) and issubclass(v, ctypes.Structure)}
    assert mirrored == set(MIRRORS.values())
    assert set(c_layout()) == set(MIRRORS)


@pytest.mark.parametrize("struct", sorted(MIRRORS))
def test_mirror_matches_c_layout(struct):
    size, fields = c_layout()[struct]
    declared = header_fields()[struct]
    assert [f for f, _, _ in fields] == declared, "abi_layout.c lists other fields than the header"
    cls = MIRRORS[struct]
    assert [f[0] for f in cls._fields_] == declared, f"_lib.{cls.__name__}: fields differ"
    for field, offset, fsize in fields:
        d = getattr(cls, field)
        assert (d.offset, d.size) == (offset, fsize), f"{struct}.{field}: (offset, size)"
    assert ctypes.sizeof(cls) == size, f"sizeof({struct})"


def test_reserved_tails_zeroed():
    """What the library fills, it fills whole: the reserved tail of a desc reads zero."""
    d = _lib.OpDesc()
    ctypes.memset(ctypes.addressof(d), 0x5A, ctypes.sizeof(d))
    assert _lib.lib.osc_op_at(0, ctypes.addressof(d)) == 0
    assert list(d.reserved) == [0] * len(d.reserved)
