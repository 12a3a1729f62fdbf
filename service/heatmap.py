"""Alignment heatmaps (``translator translate --attention out.png``): one panel per sentence, source pieces
across, generated pieces down, darker = more attention. Needs matplotlib (the dev and bench extras)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from translator.v1 import translator_pb2 as pb


def draw_alignments(translation: pb.Translation, path: Path, title: str = "") -> Path:
    """Write a PNG of the translation's alignments (it must have been asked with return_alignments)."""
    try:
        import matplotlib
    except ImportError:
        raise SystemExit("--attention draws with matplotlib: pip install matplotlib (or the project's dev extra)")
    matplotlib.use("Agg")  # files only, no display
    import matplotlib.pyplot as plt

    panels = [a for a in translation.alignments if a.target_tokens]
    if not panels:
        raise ValueError("nothing to draw: the translation has no generated tokens with alignments")
    heights = [len(a.target_tokens) for a in panels]
    width = max(len(a.source_tokens) for a in panels)
    figure, axes = plt.subplots(len(panels), 1, squeeze=False, height_ratios=heights,
                                figsize=(2 + 0.45 * width, 1.5 + 0.4 * sum(heights) + 0.9 * len(panels)))
    for axis, alignment in zip(axes[:, 0], panels):
        weights = np.array(alignment.weights).reshape(len(alignment.target_tokens), len(alignment.source_tokens))
        image = axis.imshow(weights, cmap="Greys", vmin=0.0, vmax=1.0, aspect="auto")
        axis.set_xticks(range(len(alignment.source_tokens)), alignment.source_tokens, rotation=90)
        axis.set_yticks(range(len(alignment.target_tokens)), alignment.target_tokens)
        axis.scatter(alignment.source_index, range(len(alignment.target_tokens)), marker="s", s=12, c="tab:red",
                     label="most attended source token")
        axis.tick_params(top=True, labeltop=True, bottom=False, labelbottom=False)
        figure.colorbar(image, ax=axis, fraction=0.03, pad=0.02)
    axes[0, 0].legend(loc="lower right", fontsize="small")
    if title:
        figure.suptitle(title)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return Path(path)
