from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class TextFormat(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TEXT_FORMAT_UNSPECIFIED: _ClassVar[TextFormat]
    TEXT_FORMAT_PLAIN: _ClassVar[TextFormat]
    TEXT_FORMAT_HTML: _ClassVar[TextFormat]

class FinishReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    FINISH_REASON_UNSPECIFIED: _ClassVar[FinishReason]
    FINISH_REASON_EOS: _ClassVar[FinishReason]
    FINISH_REASON_LENGTH: _ClassVar[FinishReason]
TEXT_FORMAT_UNSPECIFIED: TextFormat
TEXT_FORMAT_PLAIN: TextFormat
TEXT_FORMAT_HTML: TextFormat
FINISH_REASON_UNSPECIFIED: FinishReason
FINISH_REASON_EOS: FinishReason
FINISH_REASON_LENGTH: FinishReason

class DecodingOptions(_message.Message):
    __slots__ = ("max_output_tokens", "min_output_tokens", "text_format", "preserve_placeholders", "beam_size", "length_penalty", "num_hypotheses", "return_scores", "sampling_temperature", "sampling_topk", "sampling_topp", "seed", "return_alignments", "suppress_repeats", "glossary")
    MAX_OUTPUT_TOKENS_FIELD_NUMBER: _ClassVar[int]
    MIN_OUTPUT_TOKENS_FIELD_NUMBER: _ClassVar[int]
    TEXT_FORMAT_FIELD_NUMBER: _ClassVar[int]
    PRESERVE_PLACEHOLDERS_FIELD_NUMBER: _ClassVar[int]
    BEAM_SIZE_FIELD_NUMBER: _ClassVar[int]
    LENGTH_PENALTY_FIELD_NUMBER: _ClassVar[int]
    NUM_HYPOTHESES_FIELD_NUMBER: _ClassVar[int]
    RETURN_SCORES_FIELD_NUMBER: _ClassVar[int]
    SAMPLING_TEMPERATURE_FIELD_NUMBER: _ClassVar[int]
    SAMPLING_TOPK_FIELD_NUMBER: _ClassVar[int]
    SAMPLING_TOPP_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    RETURN_ALIGNMENTS_FIELD_NUMBER: _ClassVar[int]
    SUPPRESS_REPEATS_FIELD_NUMBER: _ClassVar[int]
    GLOSSARY_FIELD_NUMBER: _ClassVar[int]
    max_output_tokens: int
    min_output_tokens: int
    text_format: TextFormat
    preserve_placeholders: bool
    beam_size: int
    length_penalty: float
    num_hypotheses: int
    return_scores: bool
    sampling_temperature: float
    sampling_topk: int
    sampling_topp: float
    seed: int
    return_alignments: bool
    suppress_repeats: bool
    glossary: _containers.RepeatedCompositeFieldContainer[GlossaryEntry]
    def __init__(self, max_output_tokens: _Optional[int] = ..., min_output_tokens: _Optional[int] = ..., text_format: _Optional[_Union[TextFormat, str]] = ..., preserve_placeholders: _Optional[bool] = ..., beam_size: _Optional[int] = ..., length_penalty: _Optional[float] = ..., num_hypotheses: _Optional[int] = ..., return_scores: _Optional[bool] = ..., sampling_temperature: _Optional[float] = ..., sampling_topk: _Optional[int] = ..., sampling_topp: _Optional[float] = ..., seed: _Optional[int] = ..., return_alignments: _Optional[bool] = ..., suppress_repeats: _Optional[bool] = ..., glossary: _Optional[_Iterable[_Union[GlossaryEntry, _Mapping]]] = ...) -> None: ...

class GlossaryEntry(_message.Message):
    __slots__ = ("source", "target")
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    source: str
    target: str
    def __init__(self, source: _Optional[str] = ..., target: _Optional[str] = ...) -> None: ...

class TranslateRequest(_message.Message):
    __slots__ = ("texts", "model", "options", "request_id")
    TEXTS_FIELD_NUMBER: _ClassVar[int]
    MODEL_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    texts: _containers.RepeatedScalarFieldContainer[str]
    model: str
    options: DecodingOptions
    request_id: str
    def __init__(self, texts: _Optional[_Iterable[str]] = ..., model: _Optional[str] = ..., options: _Optional[_Union[DecodingOptions, _Mapping]] = ..., request_id: _Optional[str] = ...) -> None: ...

class Translation(_message.Message):
    __slots__ = ("text", "input_tokens", "output_tokens", "finish_reason", "segments", "score", "token_scores", "hypotheses", "alignments")
    TEXT_FIELD_NUMBER: _ClassVar[int]
    INPUT_TOKENS_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_TOKENS_FIELD_NUMBER: _ClassVar[int]
    FINISH_REASON_FIELD_NUMBER: _ClassVar[int]
    SEGMENTS_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    TOKEN_SCORES_FIELD_NUMBER: _ClassVar[int]
    HYPOTHESES_FIELD_NUMBER: _ClassVar[int]
    ALIGNMENTS_FIELD_NUMBER: _ClassVar[int]
    text: str
    input_tokens: int
    output_tokens: int
    finish_reason: FinishReason
    segments: int
    score: float
    token_scores: _containers.RepeatedScalarFieldContainer[float]
    hypotheses: _containers.RepeatedCompositeFieldContainer[Hypothesis]
    alignments: _containers.RepeatedCompositeFieldContainer[Alignment]
    def __init__(self, text: _Optional[str] = ..., input_tokens: _Optional[int] = ..., output_tokens: _Optional[int] = ..., finish_reason: _Optional[_Union[FinishReason, str]] = ..., segments: _Optional[int] = ..., score: _Optional[float] = ..., token_scores: _Optional[_Iterable[float]] = ..., hypotheses: _Optional[_Iterable[_Union[Hypothesis, _Mapping]]] = ..., alignments: _Optional[_Iterable[_Union[Alignment, _Mapping]]] = ...) -> None: ...

class Hypothesis(_message.Message):
    __slots__ = ("text", "score", "token_scores")
    TEXT_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    TOKEN_SCORES_FIELD_NUMBER: _ClassVar[int]
    text: str
    score: float
    token_scores: _containers.RepeatedScalarFieldContainer[float]
    def __init__(self, text: _Optional[str] = ..., score: _Optional[float] = ..., token_scores: _Optional[_Iterable[float]] = ...) -> None: ...

class Alignment(_message.Message):
    __slots__ = ("source_tokens", "target_tokens", "weights", "source_index")
    SOURCE_TOKENS_FIELD_NUMBER: _ClassVar[int]
    TARGET_TOKENS_FIELD_NUMBER: _ClassVar[int]
    WEIGHTS_FIELD_NUMBER: _ClassVar[int]
    SOURCE_INDEX_FIELD_NUMBER: _ClassVar[int]
    source_tokens: _containers.RepeatedScalarFieldContainer[str]
    target_tokens: _containers.RepeatedScalarFieldContainer[str]
    weights: _containers.RepeatedScalarFieldContainer[float]
    source_index: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, source_tokens: _Optional[_Iterable[str]] = ..., target_tokens: _Optional[_Iterable[str]] = ..., weights: _Optional[_Iterable[float]] = ..., source_index: _Optional[_Iterable[int]] = ...) -> None: ...

class TranslateResponse(_message.Message):
    __slots__ = ("translations", "model", "model_version", "request_id")
    TRANSLATIONS_FIELD_NUMBER: _ClassVar[int]
    MODEL_FIELD_NUMBER: _ClassVar[int]
    MODEL_VERSION_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    translations: _containers.RepeatedCompositeFieldContainer[Translation]
    model: str
    model_version: str
    request_id: str
    def __init__(self, translations: _Optional[_Iterable[_Union[Translation, _Mapping]]] = ..., model: _Optional[str] = ..., model_version: _Optional[str] = ..., request_id: _Optional[str] = ...) -> None: ...

class TranslateChunk(_message.Message):
    __slots__ = ("request_id", "index", "text", "final", "model", "model_version")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    FINAL_FIELD_NUMBER: _ClassVar[int]
    MODEL_FIELD_NUMBER: _ClassVar[int]
    MODEL_VERSION_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    index: int
    text: str
    final: Translation
    model: str
    model_version: str
    def __init__(self, request_id: _Optional[str] = ..., index: _Optional[int] = ..., text: _Optional[str] = ..., final: _Optional[_Union[Translation, _Mapping]] = ..., model: _Optional[str] = ..., model_version: _Optional[str] = ...) -> None: ...

class BatchItem(_message.Message):
    __slots__ = ("id", "text", "model", "options")
    ID_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    MODEL_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    id: str
    text: str
    model: str
    options: DecodingOptions
    def __init__(self, id: _Optional[str] = ..., text: _Optional[str] = ..., model: _Optional[str] = ..., options: _Optional[_Union[DecodingOptions, _Mapping]] = ...) -> None: ...

class BatchResult(_message.Message):
    __slots__ = ("id", "translation", "error_code", "error_message", "model", "model_version")
    ID_FIELD_NUMBER: _ClassVar[int]
    TRANSLATION_FIELD_NUMBER: _ClassVar[int]
    ERROR_CODE_FIELD_NUMBER: _ClassVar[int]
    ERROR_MESSAGE_FIELD_NUMBER: _ClassVar[int]
    MODEL_FIELD_NUMBER: _ClassVar[int]
    MODEL_VERSION_FIELD_NUMBER: _ClassVar[int]
    id: str
    translation: Translation
    error_code: int
    error_message: str
    model: str
    model_version: str
    def __init__(self, id: _Optional[str] = ..., translation: _Optional[_Union[Translation, _Mapping]] = ..., error_code: _Optional[int] = ..., error_message: _Optional[str] = ..., model: _Optional[str] = ..., model_version: _Optional[str] = ...) -> None: ...

class ListModelsRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ModelInfo(_message.Message):
    __slots__ = ("name", "version", "precision", "provider", "max_source_tokens", "max_output_tokens", "default", "max_beam_size", "alignments", "max_text_chars", "segment_tokens", "max_glossary_entries")
    NAME_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    PRECISION_FIELD_NUMBER: _ClassVar[int]
    PROVIDER_FIELD_NUMBER: _ClassVar[int]
    MAX_SOURCE_TOKENS_FIELD_NUMBER: _ClassVar[int]
    MAX_OUTPUT_TOKENS_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_FIELD_NUMBER: _ClassVar[int]
    MAX_BEAM_SIZE_FIELD_NUMBER: _ClassVar[int]
    ALIGNMENTS_FIELD_NUMBER: _ClassVar[int]
    MAX_TEXT_CHARS_FIELD_NUMBER: _ClassVar[int]
    SEGMENT_TOKENS_FIELD_NUMBER: _ClassVar[int]
    MAX_GLOSSARY_ENTRIES_FIELD_NUMBER: _ClassVar[int]
    name: str
    version: str
    precision: str
    provider: str
    max_source_tokens: int
    max_output_tokens: int
    default: bool
    max_beam_size: int
    alignments: bool
    max_text_chars: int
    segment_tokens: int
    max_glossary_entries: int
    def __init__(self, name: _Optional[str] = ..., version: _Optional[str] = ..., precision: _Optional[str] = ..., provider: _Optional[str] = ..., max_source_tokens: _Optional[int] = ..., max_output_tokens: _Optional[int] = ..., default: _Optional[bool] = ..., max_beam_size: _Optional[int] = ..., alignments: _Optional[bool] = ..., max_text_chars: _Optional[int] = ..., segment_tokens: _Optional[int] = ..., max_glossary_entries: _Optional[int] = ...) -> None: ...

class ListModelsResponse(_message.Message):
    __slots__ = ("models",)
    MODELS_FIELD_NUMBER: _ClassVar[int]
    models: _containers.RepeatedCompositeFieldContainer[ModelInfo]
    def __init__(self, models: _Optional[_Iterable[_Union[ModelInfo, _Mapping]]] = ...) -> None: ...
