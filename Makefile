# Shortcuts for the scripts in scripts/ (which the README's commands call directly).
.PHONY: run test bench

run:
	./scripts/run.sh

test:
	./scripts/test.sh

bench:
	./scripts/bench.sh $(BENCH_ARGS)

# Installs the binary, a .desktop entry, MIME types and an icon under PREFIX
# (default ~/.local); uninstall removes exactly what install put there.
.PHONY: install uninstall
install:
	./scripts/install.sh

uninstall:
	./scripts/install.sh --uninstall
