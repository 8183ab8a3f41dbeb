# The README's two commands are `make run` and `make test`; the scripts they
# call work without make too.
.PHONY: run test build desktop extension dist test-package fuzz bench bench-roundtrip score install clean

run:
	scripts/run.sh $(ARGS)

test:
	scripts/test.sh

# A tag-less, cgo-free build: CLI, host and a headless app (no window);
# and the small native host, tessera-host, which `make desktop` puts beside
# build/bin/tessera too.
build:
	CGO_ENABLED=0 go build -o build/bin/tessera-cli .
	CGO_ENABLED=0 go build -o build/bin/tessera-host ./cmd/tessera-host

desktop:
	scripts/build-desktop.sh

# Every release artifact and SHA256SUMS in dist/ (scripts/dist.sh; VERSION,
# TARGETS and OUT as it says).
dist:
	scripts/dist.sh

# The .deb installed, used, upgraded and purged in a clean Debian root, and
# the .rpm's contents and requirements (scripts/test-package.sh).
test-package:
	scripts/test-package.sh

extension:
	cd extension && npm install --no-audit --no-fund && npm run build

# Each fuzz target for FUZZTIME (default 10m).
FUZZTIME ?= 10m
fuzz:
	scripts/fuzz.sh $(FUZZTIME)

bench:
	CGO_ENABLED=0 go test -run '^$$' -bench . -benchmem ./...

bench-roundtrip:
	go run -tags e2e ./e2e/cmd/bench-roundtrip

# A 50-field form filled in the real browser: trigger -> dialog and approve
# -> filled, p50/p99 over 50 runs (e2e/README.md).
.PHONY: bench-fill
bench-fill:
	go run -tags e2e,testhooks ./e2e/cmd/bench-fill $(ARGS)

# Host process start to first relayed frame, and its peak RSS: tessera-host,
# tessera's host mode and the echo host (issue 12). ARGS: -n, -tessera
# build/bin/tessera (with build/bin/tessera-host beside), -check.
# What Tessera costs a plain 200-field page: load timing with and without the
# extension, in headless Chromium (e2e/pageload_bench_test.go).
.PHONY: bench-pageload
bench-pageload:
	TESSERA_PAGELOAD_BENCH=$${N:-200} go test -count=1 -tags e2e -run PageLoadOverhead -v ./e2e/

.PHONY: bench-start
bench-start:
	go run ./e2e/cmd/bench-start $(ARGS)

CORPUS ?= ../shared/corpus
score:
	go run ./heuristics/cmd/score -corpus $(CORPUS)

install: desktop
	build/bin/tessera install

clean:
	rm -rf build dist extension/dist
