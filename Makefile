# Two entry points for a fresh machine: `make serve` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
HOST   ?= 127.0.0.1
PORT   ?= 8080

.PHONY: venv serve test lint bench

$(BIN)/fakeservice: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

venv: $(BIN)/fakeservice

serve: venv
	$(BIN)/fakeservice serve --host $(HOST) --port $(PORT)

lint: venv
	$(BIN)/ruff check fakeservice tests bench
	$(BIN)/ruff format --check fakeservice tests bench

test: lint
	$(BIN)/python -m pytest -n 2 tests

bench: venv
	$(BIN)/python bench/run.py
