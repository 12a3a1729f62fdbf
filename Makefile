# translator — every command sets up what it needs first (a .venv beside this file).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
EXTRAS ?= train,export,serve,interop,dev
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
SYSTEM_TOOLS := promtool prometheus nginx aapt2 php groff
# Test processes (pytest-xdist, a test file per process): 2 took the 2-core machine's suite from 739 s to 489 s, since
# many tests wait on servers, subprocesses and backoff rather than compute.
TEST_WORKERS ?= 2
# $(call apt_install,PACKAGES): the one way a target installs Debian packages it found missing.
apt_install = $(SUDO) apt-get update -q && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -q --no-install-recommends $(1)

.PHONY: help build-deps system-deps test test-slow fuzz data lexicon train evaluate export serve proto docs clean

help:  ## list the targets
	@grep -E '^[a-z-]+:.*##' $(MAKEFILE_LIST) | sed 's/:.*##/\t/'

$(STAMP): pyproject.toml service/_rowkernel.c  # the C kernel is compiled by the install
	@$(MAKE) --no-print-directory build-deps
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e ".[$(EXTRAS)]"
	touch $@

build-deps:  ## a C compiler and Python's headers (pip install compiles service/_rowkernel.c), from Debian if missing
	@include=$$($(PYTHON) -c 'import sysconfig; print(sysconfig.get_paths()["include"])'); \
	if ! command -v cc >/dev/null || [ ! -f "$$include/Python.h" ]; then \
	  $(call apt_install,gcc libc6-dev python3-dev); \
	fi

system-deps:  ## Debian packages the tests run for real: Prometheus (promtool), nginx, Android's aapt2, PHP and groff
	@for tool in $(SYSTEM_TOOLS); do command -v $$tool >/dev/null || missing=1; done; \
	if [ -n "$$missing" ]; then \
	  $(call apt_install,prometheus nginx-light aapt php-cli groff-base); \
	fi

test: $(STAMP) system-deps  ## install what the tests need, run the suite (no slow checks) in TEST_WORKERS processes
	$(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist loadfile

test-slow: $(STAMP)  ## run only the slow checks (real corpus, long parity runs)
	$(BIN)/python -m pytest -q -m slow

fuzz: $(STAMP)  ## a long fuzzing campaign of every RPC (FUZZ_EXAMPLES per RPC, default 3000)
	HYPOTHESIS_PROFILE=explore FUZZ_EXAMPLES=$${FUZZ_EXAMPLES:-3000} $(BIN)/python -m pytest -q tests/test_fuzz.py

data: $(STAMP)  ## fetch dict-freedict-eng-deu and write data/{train,valid,test}.tsv
	$(BIN)/translator data freedict --out data

lexicon: $(STAMP) data/train.tsv  ## rebuild translator/wordlists from the training pairs (and data/software's)
	$(BIN)/translator data lexicon --data data --extra-data data/software

train: $(STAMP) data/train.tsv  ## train the default architecture into runs/default (resumes)
	$(BIN)/translator train --data data --out runs/default

evaluate: $(STAMP) data/test.tsv  ## BLEU/chrF of the shipped model and the dictionary baseline (software split too, when fetched)
	$(BIN)/translator evaluate --checkpoint model/default --data data $(if $(wildcard data/software/test.tsv),--extra-data data/software)

export: $(STAMP)  ## build model_repository/en-de/1 (ONNX fp32 + int8, parity-checked) from model/default when stale
	$(BIN)/translator export --checkpoint model/default --out model_repository/en-de/1 --int8 --if-stale

serve: export  ## set up, export the default model if needed, serve gRPC on 127.0.0.1:50051 (metrics :9464)
	$(BIN)/translator serve

proto: $(STAMP)  ## regenerate the gRPC/protobuf stubs in translator/v1 from protos/
	$(BIN)/python -m grpc_tools.protoc -Iprotos --python_out=. --pyi_out=. --grpc_python_out=. protos/translator/v1/translator.proto

docs: $(STAMP)  ## rewrite docs/cli.md, the reference of every command and flag, from the parser
	$(BIN)/python -m service.cli_reference

data/train.tsv data/test.tsv:
	$(MAKE) data

clean:  ## remove build outputs (keeps .venv and data)
	rm -rf build bench/results model_repository/*/ .pytest_cache
