# Two entry points for a fresh machine: `make serve` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
HOST   ?= 127.0.0.1
PORT   ?= 8080

.PHONY: venv serve test lint bench openapi-record verify-answers

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

# The whole suite once more with every service keeping answers in-process too, but
# serving none: a kept answer that running its request again contradicts (a read that
# changed state in place, outside the store) fails the test (fakeservice/web/answers.py).
verify-answers: venv
	FAKESERVICE_VERIFY_ANSWERS=1 $(BIN)/python -m pytest -n 2 -p no:randomly tests

# Record what every operation answers over the whole suite (and a wider fuzz) into
# fakeservice/web/schemas/observed.json. Test outcomes are ignored here (a stale
# observed.json is what makes the OpenAPI tests fail); run `make test` afterwards.
RECORD_DIR ?= /tmp/fakeservice-record
RECORD     := FAKESERVICE_RECORD_DIR=$(RECORD_DIR) $(BIN)/python -m pytest -n 2 -q -p no:cacheprovider -p fakeservice.web.schemas.record
openapi-record: venv
	rm -rf $(RECORD_DIR)
	-$(RECORD) tests
	-FAKESERVICE_FUZZ_EXAMPLES=60 $(RECORD) tests/openapi/test_fuzz.py
	$(BIN)/python -m fakeservice.web.schemas.record $(RECORD_DIR)
