"""Which ONNX Runtime graph optimizations (fusions) take on an exported graph."""

from __future__ import annotations

import tempfile
from collections import Counter
from pathlib import Path

import onnx
import onnxruntime as ort


def optimized_op_counts(path: Path) -> dict[str, int]:
    """Op counts of the graph as ONNX Runtime runs it on CPU (ORT_ENABLE_EXTENDED, saved to a temp file)."""
    with tempfile.TemporaryDirectory() as tmp:
        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED
        options.optimized_model_filepath = str(Path(tmp) / "optimized.onnx")
        ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        graph = onnx.load(options.optimized_model_filepath).graph
        return dict(Counter(node.op_type for node in graph.node).most_common())


def fusion_report(path: Path, exported_ops: dict[str, int]) -> dict:
    """Ops before and after ORT's optimizer, and the fused ops it introduced."""
    after = optimized_op_counts(path)
    return {
        "nodes_exported": sum(exported_ops.values()),
        "nodes_optimized": sum(after.values()),
        "fused_ops": {op: n for op, n in after.items() if op not in exported_ops},
        "ops_removed": {op: n - after.get(op, 0) for op, n in exported_ops.items() if n > after.get(op, 0)},
    }
