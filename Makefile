# Shortcuts for the scripts in scripts/ (which the README's commands call directly).
.PHONY: run test bench

run:
	./scripts/run.sh

test:
	./scripts/test.sh

bench:
	./scripts/bench.sh $(BENCH_ARGS)
