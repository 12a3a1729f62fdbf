"""Hugging Face Marian (OPUS-MT) ↔ our checkpoint: the config mapping and the weights, both ways.

Marian is this Transformer with post-norm layers, [sin | cos] positions, √d-scaled embeddings, a
learned ``final_logits_bias``, decoding started with the pad id, and two SentencePiece models
(source, target) over one shared ``vocab.json``.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import torch

from model.checkpoint import load_checkpoint, save_checkpoint
from translator.tokenizer import MARIAN_FILES, SPM_FILE, spm_pieces
from model.transformer import Transformer, TransformerConfig

ACTIVATIONS_FROM_MARIAN = {"swish": "silu", "silu": "silu", "gelu": "gelu", "relu": "relu",
                           "gelu_new": "gelu_tanh", "gelu_pytorch_tanh": "gelu_tanh"}
ACTIVATIONS_TO_MARIAN = {"silu": "swish", "gelu": "gelu", "relu": "relu", "gelu_tanh": "gelu_new"}
LAYER_NORM = ["weight", "bias"]
LINEAR = ["weight", "bias"]


def weight_names(cfg: TransformerConfig) -> list[tuple[str, str]]:
    """(our parameter, Marian's parameter) for every tensor of the model."""
    pairs = [("embed.weight", "model.encoder.embed_tokens.weight"), ("target_embed.weight", "model.decoder.embed_tokens.weight"),
             ("output_projection.weight", "lm_head.weight"), ("logits_bias", "final_logits_bias")]
    sublayers = {
        "encoder": [("self_attn", "self_attn"), ("self_attn_residual.norm", "self_attn_layer_norm"),
                    ("feed_forward.fc1", "fc1"), ("feed_forward.fc2", "fc2"), ("feed_forward_residual.norm", "final_layer_norm")],
        "decoder": [("self_attn", "self_attn"), ("self_attn_residual.norm", "self_attn_layer_norm"),
                    ("cross_attn", "encoder_attn"), ("cross_attn_residual.norm", "encoder_attn_layer_norm"),
                    ("feed_forward.fc1", "fc1"), ("feed_forward.fc2", "fc2"), ("feed_forward_residual.norm", "final_layer_norm")],
    }
    for stack, layers in (("encoder", cfg.encoder_layers), ("decoder", cfg.decoder_layers)):
        for i in range(layers):
            for ours, theirs in sublayers[stack]:
                inner = [f"{p}_proj.{t}" for p in ("q", "k", "v", "out") for t in LINEAR] if ours.endswith("attn") else LAYER_NORM
                pairs += [(f"{stack}_layers.{i}.{ours}.{t}", f"model.{stack}.layers.{i}.{theirs}.{t}") for t in inner]
    return pairs


def config_from_marian(hf, unk_id: int, tie_embeddings: bool, tie_output: bool) -> TransformerConfig:
    """Our config for a transformers MarianConfig; raises ValueError for what cannot be expressed.

    Which embeddings are tied is read from the weights themselves, not from the config's flags."""
    if hf.encoder_attention_heads != hf.decoder_attention_heads or hf.encoder_ffn_dim != hf.decoder_ffn_dim:
        raise ValueError("encoder and decoder must have the same number of heads and FFN size to convert")
    if hf.activation_function not in ACTIVATIONS_FROM_MARIAN:
        raise ValueError(f"activation {hf.activation_function!r} is not supported; use one of {sorted(ACTIVATIONS_FROM_MARIAN)}")
    return TransformerConfig(
        vocab_size=hf.vocab_size, d_model=hf.d_model, n_heads=hf.encoder_attention_heads, d_ff=hf.encoder_ffn_dim,
        encoder_layers=hf.encoder_layers, decoder_layers=hf.decoder_layers, dropout=hf.dropout,
        activation=ACTIVATIONS_FROM_MARIAN[hf.activation_function], norm_position="post", position_layout="concat",
        scale_embedding=hf.scale_embedding, tie_embeddings=tie_embeddings, tie_output=tie_output,
        final_logits_bias=True, max_positions=hf.max_position_embeddings, pad_id=hf.pad_token_id,
        unk_id=unk_id, bos_id=hf.decoder_start_token_id, eos_id=hf.eos_token_id,
        decoder_start_id=hf.decoder_start_token_id,
    )


def config_to_marian(cfg: TransformerConfig):
    from transformers import MarianConfig

    if cfg.norm_position != "post" or cfg.position_layout != "concat" or not cfg.final_logits_bias:
        raise ValueError("only post-norm models with Marian's [sin | cos] positions and a final_logits_bias map onto "
                         "Marian; train with --norm post or convert a Marian model in the first place")
    return MarianConfig(
        vocab_size=cfg.vocab_size, decoder_vocab_size=cfg.vocab_size, d_model=cfg.d_model,
        encoder_layers=cfg.encoder_layers, decoder_layers=cfg.decoder_layers,
        encoder_attention_heads=cfg.n_heads, decoder_attention_heads=cfg.n_heads,
        encoder_ffn_dim=cfg.d_ff, decoder_ffn_dim=cfg.d_ff, activation_function=ACTIVATIONS_TO_MARIAN[cfg.activation],
        scale_embedding=cfg.scale_embedding, max_position_embeddings=cfg.max_positions, dropout=cfg.dropout,
        pad_token_id=cfg.pad_id, eos_token_id=cfg.eos_id, decoder_start_token_id=cfg.decoder_start_id,
        forced_eos_token_id=None, share_encoder_decoder_embeddings=cfg.tie_embeddings,
        tie_word_embeddings=cfg.tie_output,
    )


def refuse_separate_vocabularies(hf_dir: Path) -> None:
    """One shared vocabulary only: a target vocabulary of its own would otherwise be ignored, silently wrong."""
    config = json.loads((hf_dir / "config.json").read_text(encoding="utf-8")) if (hf_dir / "config.json").exists() else {}
    if config.get("separate_vocabs") or (hf_dir / "target_vocab.json").exists() or \
            config.get("decoder_vocab_size") not in (None, config.get("vocab_size")):
        raise ValueError("separate_vocabs: models with separate source and target vocabularies (target_vocab.json) "
                         "cannot be converted yet; only shared-vocabulary Marian models (one vocab.json) can")


def from_marian(hf_dir: Path, out: Path) -> Transformer:
    """A Marian checkpoint directory (config.json, weights, source/target.spm, vocab.json) → our checkpoint."""
    from transformers import MarianMTModel

    refuse_separate_vocabularies(Path(hf_dir))
    marian = MarianMTModel.from_pretrained(hf_dir).eval()
    vocab = json.loads((Path(hf_dir) / "vocab.json").read_text(encoding="utf-8"))
    source, target, output = (marian.model.encoder.embed_tokens.weight, marian.model.decoder.embed_tokens.weight,
                              marian.lm_head.weight)
    cfg = config_from_marian(marian.config, unk_id=vocab.get("<unk>", 1), tie_embeddings=torch.equal(source, target),
                             tie_output=torch.equal(target, output))
    model = Transformer(cfg).eval()
    copy_weights(marian.state_dict(), model.state_dict(keep_vars=True), [(t, o) for o, t in weight_names(cfg)])
    out.mkdir(parents=True, exist_ok=True)
    save_checkpoint(model, out)
    for name in MARIAN_FILES:
        shutil.copy(Path(hf_dir) / name, out / name)
    return model


def to_marian(checkpoint: Path, out: Path):
    """Our checkpoint → a Marian directory that transformers (and CTranslate2's converter) load."""
    from transformers import MarianMTModel

    model, _ = load_checkpoint(checkpoint)
    marian = MarianMTModel(config_to_marian(model.cfg)).eval()
    target = marian.state_dict(keep_vars=True)
    shared = [("embed.weight", "model.shared.weight")] if "model.shared.weight" in target else []
    copy_weights(model.state_dict(), target, weight_names(model.cfg) + shared)
    marian.save_pretrained(out)
    if (checkpoint / SPM_FILE).exists():  # our joint model serves as both Marian models
        for name in MARIAN_FILES[:2]:
            shutil.copy(checkpoint / SPM_FILE, out / name)
        vocab = {model_piece: i for i, model_piece in enumerate(spm_pieces(checkpoint / SPM_FILE))}
        (out / MARIAN_FILES[2]).write_text(json.dumps(vocab, ensure_ascii=False, indent=1), encoding="utf-8")
    else:
        for name in MARIAN_FILES:
            shutil.copy(checkpoint / name, out / name)
    return marian


@torch.no_grad()
def copy_weights(source: dict, target: dict, names: list[tuple[str, str]]) -> None:
    """target[t].copy_(source[s]) for each (s, t), reshaping (Marian's logits bias is (1, V))."""
    for source_name, target_name in names:
        target[target_name].copy_(source[source_name].reshape(target[target_name].shape))
