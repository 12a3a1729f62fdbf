"""Greedy decoding in PyTorch, with the KV cache or by full recomputation (the reference for parity)."""

from __future__ import annotations

import torch

from model.transformer import Transformer


@torch.inference_mode()
def greedy(model: Transformer, src_ids: torch.Tensor, src_mask: torch.Tensor, max_len: int,
           use_cache: bool = True, min_len: int = 0, repeat_period: int = 0) -> list[list[int]]:
    """Token ids per row (without start and EOS). min_len suppresses EOS (for fixed-length benchmarks);
    repeat_period > 0 suppresses repeats as the served engine does (see suppress_repeats)."""
    cfg = model.cfg
    sources = [ids[mask].tolist() for ids, mask in zip(src_ids, src_mask)]
    batch = src_ids.size(0)
    memory = model.encode(src_ids, src_mask)
    cache = model.init_cache(memory, src_mask)
    device = src_ids.device
    tokens = torch.full((batch, 1), cfg.decoder_start_id, dtype=torch.long, device=device)
    finished = torch.zeros(batch, dtype=torch.bool, device=device)
    for step in range(max_len):
        if use_cache:
            logits, cache = model.decode(tokens[:, -1:], torch.full((batch, 1), step, device=device), src_mask, cache)
        else:
            positions = torch.arange(tokens.size(1), device=device).expand(batch, -1)
            logits, _ = model.decode(tokens, positions, src_mask, model.init_cache(memory, src_mask))
        logits = logits[:, -1]
        if step < min_len:
            logits[:, cfg.eos_id] = torch.finfo(logits.dtype).min
        if repeat_period:
            suppress_repeats(logits, tokens[:, 1:].tolist(), sources, repeat_period)
        next_token = logits.argmax(-1).masked_fill(finished, cfg.pad_id)
        tokens = torch.cat([tokens, next_token[:, None]], dim=1)
        finished |= next_token == cfg.eos_id
        if finished.all():
            break
    return [_strip(row.tolist()[1:], cfg.eos_id) for row in tokens]


def suppress_repeats(logits: torch.Tensor, history: list[list[int]], sources: list[list[int]], max_period: int) -> None:
    """The served engine's suppress_repeats (service.scheduler), written plainly: where a row's history ends in two
    copies of one block of at most max_period tokens (the shortest), the token that would start a third gets -inf,
    unless the row's source has that run."""
    for row, (tokens, source) in enumerate(zip(history, sources)):
        for period in range(1, min(max_period, len(tokens) // 2) + 1):
            if tokens[-2 * period : -period] == tokens[-period:]:
                run = tokens[-2 * period :] + [tokens[-period]]
                if not any(source[i : i + len(run)] == run for i in range(len(source))):
                    logits[row, tokens[-period]] = float("-inf")
                break


def _strip(ids: list[int], eos_id: int) -> list[int]:
    return ids[: ids.index(eos_id)] if eos_id in ids else ids
