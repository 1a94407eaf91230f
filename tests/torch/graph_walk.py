"""graph_walk.py: what an exported ONNX model holds, subgraphs included.

mini_eval.py reads only a flat main graph (it stops at a graph-valued attribute such as If's
then_branch or Loop's body). gen_control_models.py needs, for every graph of a model: the op
types of its nodes (to list them and to confirm that an export has an If or a Loop) and the kind
of every declared value (tensor, sequence, optional, ...), because onnx-scatter refuses values
of sequence or optional type at load. Built on mini_eval's protobuf field reader.
"""
from mini_eval import _str, fields

# TypeProto's oneof field number -> the kind of value it declares
VALUE_KIND = {1: "tensor", 4: "sequence", 5: "map", 8: "sparse_tensor", 9: "optional"}


def _value_kind(value_info):
    f = fields(value_info)
    t = fields(f[2][0][1]) if 2 in f else {}
    return _str(f, 1), next((k for n, k in VALUE_KIND.items() if n in t), "unknown")


class Summary:
    """ops: op types of every node, subgraphs included ('domain.Op' outside the default domain);
    non_tensors: (graph, value name, kind) of every declared non-tensor value;
    opset: the model's default-domain opset; inputs / outputs: the main graph's names."""

    def __init__(self, data):
        m = fields(data)
        self.opset = None
        for _, o in m.get(8, []):
            f = fields(o)
            if _str(f, 1) in ("", "ai.onnx"):
                self.opset = f[2][0][1]
        self.ops, self.non_tensors = set(), []
        g = fields(m[7][0][1])
        self.inputs = [_value_kind(v)[0] for _, v in g.get(11, [])]
        self.outputs = [_value_kind(v)[0] for _, v in g.get(12, [])]
        self._walk(g, "main graph")

    def _walk(self, g, where):
        for field in (11, 12, 13):  # input, output, value_info
            for _, v in g.get(field, []):
                name, kind = _value_kind(v)
                if kind != "tensor":
                    self.non_tensors.append((where, name, kind))
        for _, n in g.get(1, []):
            f = fields(n)
            op, domain = _str(f, 4), _str(f, 7)
            self.ops.add(domain + "." + op if domain not in ("", "ai.onnx") else op)
            for _, a in f.get(5, []):
                af = fields(a)
                for _, sub in af.get(6, []) + af.get(11, []):  # g, graphs
                    self._walk(fields(sub), "%s attribute %s" % (op, _str(af, 1)))
