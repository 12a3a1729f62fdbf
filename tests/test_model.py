"""The Transformer reads like the math: attention equals PyTorch's, masks mean what they say,
and the KV cache changes nothing but speed."""

import pytest
import torch
import torch.nn.functional as F

from model.attention import MultiHeadAttention, blockwise_attention, scaled_dot_product_attention
from model.checkpoint import load_checkpoint, pad_batch, save_checkpoint
from model.greedy import greedy
from model.layers import sinusoidal_table
from model.transformer import Transformer, TransformerConfig

CONFIGS = {
    "pre-relu": TransformerConfig(vocab_size=50, d_model=32, n_heads=4, d_ff=64, encoder_layers=3, decoder_layers=2, dropout=0.0),
    "post-gelu-untied": TransformerConfig(vocab_size=50, d_model=32, n_heads=2, d_ff=48, encoder_layers=2, decoder_layers=3,
                                          dropout=0.0, activation="gelu", norm_position="post", tie_embeddings=False, tie_output=False,
                                          position_layout="concat", final_logits_bias=True, decoder_start_id=0),
}


def make_model(name: str, seed: int = 0) -> Transformer:
    torch.manual_seed(seed)
    model = Transformer(CONFIGS[name]).eval()
    with torch.no_grad():
        model.logits_bias.normal_()
    return model


def sources(lengths=(7, 3, 5, 1), vocab=50, seed=1):
    generator = torch.Generator().manual_seed(seed)
    return pad_batch([torch.randint(4, vocab, (n,), generator=generator).tolist() + [3] for n in lengths], pad_id=0)


def test_attention_equals_torch_sdpa():
    q, k, v = torch.randn(2, 3, 5, 8), torch.randn(2, 3, 7, 8), torch.randn(2, 3, 7, 8)
    mask = torch.rand(2, 1, 5, 7) > 0.3
    mask[..., 0] = True
    ours, probs = scaled_dot_product_attention(q, k, v, mask)
    torch.testing.assert_close(ours, F.scaled_dot_product_attention(q, k, v, attn_mask=mask), atol=1e-6, rtol=1e-5)
    torch.testing.assert_close(probs.sum(-1), torch.ones(2, 3, 5))


def test_blockwise_attention_equals_attention_over_concatenated_keys():
    q = torch.randn(2, 3, 4, 8)
    blocks = [(torch.randn(2, 3, n, 8), torch.randn(2, 3, n, 8), torch.rand(2, 1, 4, n) > 0.4) for n in (5, 4)]
    blocks[1][2][..., 0] = True
    out, probs = blockwise_attention(q, [(k.transpose(-2, -1), v, mask) for k, v, mask in blocks])
    k, v, mask = (torch.cat([b[i] for b in blocks], dim=2 if i < 2 else -1) for i in range(3))
    expected, expected_probs = scaled_dot_product_attention(q, k, v, mask)
    torch.testing.assert_close(out, expected)
    torch.testing.assert_close(probs, expected_probs)


def test_multi_head_attention_equals_torch_module():
    torch.manual_seed(0)
    ours = MultiHeadAttention(16, 4)
    reference = torch.nn.MultiheadAttention(16, 4, batch_first=True)
    with torch.no_grad():
        reference.in_proj_weight.copy_(torch.cat([ours.q_proj.weight, ours.k_proj.weight, ours.v_proj.weight]))
        reference.in_proj_bias.copy_(torch.cat([ours.q_proj.bias, ours.k_proj.bias, ours.v_proj.bias]))
        reference.out_proj.weight.copy_(ours.out_proj.weight)
        reference.out_proj.bias.copy_(ours.out_proj.bias)
    query, memory = torch.randn(2, 5, 16), torch.randn(2, 6, 16)
    keep = torch.tensor([[True] * 6, [True] * 4 + [False] * 2])
    out, probs = ours(query, [(*ours.project_kv(memory), keep[:, None, None, :])], need_weights=True)
    expected, expected_probs = reference(query, memory, memory, key_padding_mask=~keep, average_attn_weights=False)
    torch.testing.assert_close(out, expected, atol=1e-6, rtol=1e-5)
    torch.testing.assert_close(probs, expected_probs, atol=1e-6, rtol=1e-5)


def test_positional_layouts_hold_the_same_values():
    interleaved, concat = sinusoidal_table(10, 8, "interleaved"), sinusoidal_table(10, 8, "concat")
    torch.testing.assert_close(interleaved[:, 0::2], concat[:, :4])
    torch.testing.assert_close(interleaved[:, 1::2], concat[:, 4:])
    assert interleaved[3, 0] == pytest.approx(torch.sin(torch.tensor(3.0)).item())


@pytest.mark.parametrize("name", CONFIGS)
def test_decoder_is_causal(name):
    model = make_model(name)
    src, src_mask = sources()
    tgt = torch.randint(4, 50, (4, 6))
    changed = tgt.clone()
    changed[:, 4:] = torch.randint(4, 50, (4, 2))
    with torch.no_grad():
        a, b = model(src, src_mask, tgt), model(src, src_mask, changed)
    torch.testing.assert_close(a[:, :4], b[:, :4])
    assert not torch.allclose(a[:, 4:], b[:, 4:])


@pytest.mark.parametrize("name", CONFIGS)
def test_extra_source_padding_changes_nothing(name):
    model = make_model(name)
    src, src_mask = sources()
    padded = F.pad(src, (0, 5), value=0)
    padded_mask = F.pad(src_mask, (0, 5), value=False)
    tgt = torch.randint(4, 50, (4, 5))
    with torch.no_grad():
        torch.testing.assert_close(model(src, src_mask, tgt), model(padded, padded_mask, tgt), atol=1e-5, rtol=1e-5)


@pytest.mark.parametrize("name", CONFIGS)
def test_incremental_decoding_equals_full_decoding(name):
    """Rows of different source and target lengths; each row stops feeding at its own length."""
    model = make_model(name)
    src, src_mask = sources()
    tgt = torch.randint(4, 50, (4, 9))
    with torch.no_grad():
        full = model(src, src_mask, tgt)
        cache = model.init_cache(model.encode(src, src_mask), src_mask)
        steps = []
        for t in range(tgt.size(1)):
            logits, cache = model.decode(tgt[:, t : t + 1], torch.full((4, 1), t), src_mask, cache)
            steps.append(logits)
    incremental = torch.cat(steps, dim=1)
    assert (incremental - full).abs().max() <= 1e-5
    assert cache.self_k[0].shape == (4, model.cfg.n_heads, model.cfg.head_dim, 9)  # keys transposed
    assert cache.self_v[0].shape == (4, model.cfg.n_heads, 9, model.cfg.head_dim)


def test_rows_at_different_positions_share_a_step():
    """A row that joined later (shorter cache, masked gaps) decodes as if it were alone."""
    model = make_model("pre-relu")
    src, src_mask = sources(lengths=(4, 6))
    tgt = torch.randint(4, 50, (2, 5))
    with torch.no_grad():
        alone = [model(src[i : i + 1], src_mask[i : i + 1], tgt[i : i + 1, : 5 - 2 * i]) for i in range(2)]
        memory = model.encode(src, src_mask)
        cache = model.init_cache(memory, src_mask)
        # row 0 decodes 5 positions; row 1 joins two steps late, its first two cache slots masked out
        outputs = [[], []]
        for t in range(5):
            row1_pos = max(t - 2, 0)
            tokens = torch.tensor([[tgt[0, t]], [tgt[1, row1_pos]]])
            positions = torch.tensor([[t], [row1_pos]])
            logits, cache = model.decode(tokens, positions, src_mask, cache)
            if t < 2:
                cache.self_mask[1, t] = False
            outputs[0].append(logits[0])
            if t >= 2:
                outputs[1].append(logits[1])
    for i in range(2):
        assert (torch.cat(outputs[i]) - alone[i][0]).abs().max() <= 1e-5


@pytest.mark.parametrize("name", CONFIGS)
def test_greedy_with_cache_equals_greedy_without(name):
    model = make_model(name, seed=3)
    src, src_mask = sources(lengths=(9, 2, 5, 7, 4))
    with_cache = greedy(model, src, src_mask, max_len=12)
    without = greedy(model, src, src_mask, max_len=12, use_cache=False)
    assert with_cache == without
    assert greedy(model, src, src_mask, max_len=12, min_len=12) == greedy(model, src, src_mask, max_len=12, min_len=12, use_cache=False)


def test_config_errors_say_what_to_fix():
    with pytest.raises(ValueError, match="d_model=30 must be divisible by n_heads=4"):
        TransformerConfig(d_model=30, n_heads=4)
    with pytest.raises(ValueError, match="activation='tanh' must be one of"):
        TransformerConfig(activation="tanh")
    with pytest.raises(ValueError, match="eos_id=9000 must be a token id below vocab_size=8000"):
        TransformerConfig(eos_id=9000)


def test_checkpoint_round_trip(tmp_path):
    from model.tokenizer import train_sentencepiece

    model = make_model("post-gelu-untied")
    train_sentencepiece(["Hallo Welt", "hello world"] * 100, tmp_path, vocab_size=18)
    save_checkpoint(model, tmp_path)
    loaded, tokenizer = load_checkpoint(tmp_path)
    assert loaded.cfg == model.cfg
    for (name, a), b in zip(model.state_dict().items(), loaded.state_dict().values()):
        assert torch.equal(a, b), name
    assert tokenizer.decode(tokenizer.encode("hello world")) == "hello world"
